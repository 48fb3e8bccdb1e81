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
