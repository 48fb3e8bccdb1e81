import PrayCore
import Testing

@Suite struct CivilDateTests {
    @Test func parsesAndPrintsISODates() throws {
        let date = try CivilDate(parsing: "2026-11-29")
        #expect(date.year == 2026 && date.month == 11 && date.day == 29)
        #expect(date.description == "2026-11-29")
        #expect(date.weekdayName == "Sunday")
        #expect(date.dayOfYear == 333)
    }

    @Test(arguments: [
        "2026-02-30", "2026-13-01", "2026-00-10", "2025-02-29", "26-01-01", "2026-1-01", "2026/01/01", "abcd-ef-gh", "",
    ])
    func rejectsDaysThatDoNotExist(_ text: String) {
        #expect(throws: ValidationError.self) { try CivilDate(parsing: text) }
    }

    @Test(arguments: [
        ("12026-01-01", "year must be between 1 and 9999, got 12026"),
        ("+12026-01-01", "year must be between 1 and 9999, got 12026"),
        ("-0001-01-01", "year must be between 1 and 9999, got -1"),
        ("-0000-01-01", "year must be between 1 and 9999, got 0"),
        ("+99999999999999999999999-01-01", "year must be between 1 and 9999, got 99999999999999999999999"),
        // In range, but not written YYYY: the shape is what is wrong
        ("+2026-01-01", "date must look like YYYY-MM-DD, got '+2026-01-01'"),
        ("00001-01-01", "date must look like YYYY-MM-DD, got '00001-01-01'"),
        ("+400000", "date must look like YYYY-MM-DD, got '+400000'"),
        ("12026-1-01", "date must look like YYYY-MM-DD, got '12026-1-01'"),
    ])
    func aSignedOrLongYearIsRefusedForItsYear(text: String, message: String) {
        #expect(throws: ValidationError(field: "date", message: message)) { try CivilDate(parsing: text) }
    }

    @Test func knowsLeapYears() throws {
        #expect(throws: Never.self) { try CivilDate(parsing: "2024-02-29") }
        #expect(throws: Never.self) { try CivilDate(parsing: "2000-02-29") }
        #expect(throws: ValidationError.self) { try CivilDate(parsing: "1900-02-29") }
        #expect(CivilDate.daysIn(month: 2, year: 2100) == 28)
    }

    @Test func daysSince1970RoundTripsAcrossTheCalendar() {
        for days in stride(from: -719_162, through: 2_932_896, by: 997) {
            let date = CivilDate(daysSince1970: days)
            #expect(date.daysSince1970 == days)
        }
        #expect(CivilDate(daysSince1970: 0).description == "1970-01-01")
        #expect(CivilDate(daysSince1970: -1).description == "1969-12-31")
    }

    @Test func addsDaysAcrossMonthsAndYears() throws {
        let date = try CivilDate(parsing: "2024-12-31")
        #expect(date.adding(days: 1).description == "2025-01-01")
        #expect(date.adding(days: -366).description == "2023-12-31")
        #expect(date.adding(days: 60).description == "2025-03-01")
        #expect(try CivilDate(parsing: "2024-02-28").adding(days: 1).description == "2024-02-29")
    }

    @Test func addingDaysWithinAMonthAgreesWithTheDayCount() {
        // Every day of four years (a leap year among them), of the turns of 1900 (not a leap year),
        // 2000 (one) and 2100, and of the last year there is, and every step up to 40 days either way:
        // the same-month shortcuts and the day count give the same day, including the end of each
        // month and of each year.
        var differences: [String] = []
        let last = CivilDate.last.daysSince1970
        let spans: [Range<Int>] = [
            19_358..<(19_358 + 4 * 365 + 1),  // 2023-01-01 to 2026-12-31
            -25_600 ..< -25_500, 10_950..<11_050, 47_450..<47_550,  // Dec to Mar of 1899-1900, 1999-2000, 2099-2100
            (last - 400)..<(last + 1),
        ]
        for days in spans.joined() {
            let date = CivilDate(daysSince1970: days)
            for step in -40...40 where days + step <= last {
                if date.adding(days: step) != CivilDate(daysSince1970: days + step) {
                    differences.append("\(date) + \(step)")
                }
            }
        }
        #expect(differences.isEmpty)
    }

    @Test func ordersChronologically() throws {
        #expect(try CivilDate(parsing: "2025-12-31") < CivilDate(parsing: "2026-01-01"))
        #expect(try CivilDate(parsing: "2026-02-01") > CivilDate(parsing: "2026-01-31"))
    }
}
