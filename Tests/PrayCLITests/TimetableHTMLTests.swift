import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// The page alone, as a pure function of its values.
@Suite struct TimetableHTMLTests {
    @Test func escapeCoversTextAndAttributes() {
        #expect(TimetableHTML.escape("a<b>&\"c\"'d'") == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;")
        #expect(TimetableHTML.escape("Makkah\u{202E}\u{1B}[2J") == "Makkah\u{FFFD}\u{FFFD}[2J")
        #expect(TimetableHTML.escape("مكة المكرمة") == "مكة المكرمة")
    }

    @Test func arabicDigitsReplaceOnlyTheDigits() {
        let arabic = TimetableHTML.Digits.arabic
        #expect(arabic.apply("05:12") == "٠٥:١٢")
        #expect(arabic.apply("21.4225, 39.8262") == "٢١٫٤٢٢٥, ٣٩٫٨٢٦٢")
        #expect(arabic.apply("+1 day.") == "+١ day.", "a full stop after a number is no decimal separator")
        #expect(TimetableHTML.Digits.latin.apply("21.4225") == "21.4225")
    }

    @Test func timeColumnsShareTheRestAndGetSmallerOnlyWhenTheyMust() {
        typealias Layout = TimetableHTML.ColumnLayout
        // Given six times and five iqama columns on A4 (190 mm of table)
        let plain = Array(repeating: Layout.Need.cell(clock: "05:12", half: nil), count: 11)
        let widest = (0..<11).map { index in
            Layout.Need.cell(clock: "12:42", half: "am", marks: index % 2 == 0 ? "~+1" : "")
        }
        // When
        let roomy = Layout(needs: plain, tableWidth: 190, withIqama: true)
        let tight = Layout(needs: widest, tableWidth: 190, withIqama: true)
        // Then the columns fill the table, and only the widest cells make the times smaller
        for layout in [roomy, tight] {
            #expect(abs(layout.widths.reduce(0, +) - 100) < 0.01)
            #expect(layout.widths.count == 14)
        }
        #expect(roomy.fontSize == 8.5)
        #expect(tight.fontSize < 8.5 && tight.fontSize >= Layout.smallest)
    }

    @Test func aDayWithoutATimeShowsADash() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Oslo"))
        let date = try CivilDate(year: 2027, month: 6, day: 21)
        let schedule = PrayerSchedule.mock(date: date, timeZone: zone, unavailable: [.isha])
        let page = TimetableHTML(
            year: 2027, month: 6, schedules: [schedule], hijri: [],
            place: .init(name: nil, coordinates: .mockMakkah, zone: "Europe/Oslo", zoneSource: .option),
            parameters: CalculationMethod.muslimWorldLeague.parameters, methodSource: .default, iqama: nil,
            language: .en, paper: .letter
        ).render()
        let row = try #require(TimetableCommandTests.rows(page).first)
        #expect(TimetableCommandTests.cells(row).last == "–")
        #expect(TimetableCommandTests.cells(row)[2] == "–", "no Hijri date known")
        #expect(page.contains("@page { size: letter; margin: 10mm; }"))
    }
}
