import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// The Umm al-Qura calendar against its official table, the tabular calendar against Foundation's
/// `.islamicCivil`, and the service's conversions, month views, notable days and maghrib rule.
@Suite struct HijriTests {
    struct Table: Decodable {
        struct Month: Decodable {
            let year: Int
            let month: Int
            let start: String
            let length: Int
        }
        let months: [Month]
        let dayCount: Int
    }

    struct SpotChecks: Decodable {
        struct Day: Decodable {
            struct Date: Decodable {
                let year: Int
                let month: Int
                let day: Int
            }
            let gregorian: String
            let hijri: Date
            let weekday: String
            let monthLength: Int
        }
        let days: [Day]
    }

    /// The official table, decoded once per test run (several tests read it).
    static let table = Result { try JSONDecoder().decode(Table.self, from: Fixtures.data("hijri-umm-al-qura.json")) }

    let service = HijriServiceUmmAlQura(prayerService: PrayerServiceAstronomical(log: .silent), log: .silent)

    @Test func everyDayOfTheOfficialTableAgrees() throws {
        // Given the official table, 1 Muharram 1343 … 30 Dhu al-Hijjah 1500
        let table = try Self.table.get()
        let first = try CivilDate(parsing: table.months[0].start)
        // When every day is converted in one request
        let days = try service.days(for: HijriAPI.Request(date: first, days: table.dayCount))
        // Then every day has the table's date and month length, and converts back
        var index = 0
        var differences = 0
        for month in table.months {
            #expect(try CivilDate(parsing: month.start) == days[index].gregorian)
            for day in 1...month.length {
                let converted = days[index]
                let expected = (month.year, month.month, day, month.length)
                let actual = (
                    converted.hijri.year, converted.hijri.monthNumber, converted.hijri.day, converted.monthLength
                )
                if actual != expected || converted.isTabular { differences += 1 }
                index += 1
            }
            let back = try service.day(
                of: try HijriDate(year: month.year, month: month.month, day: month.length), calendar: .ummAlQura,
                offset: 0)
            #expect(back.gregorian == days[index - 1].gregorian)
        }
        #expect(index == table.dayCount)
        #expect(differences == 0)
        print("Umm al-Qura: \(index) days checked against the official table, \(differences) differ")
    }

    @Test func aRunOfDaysIsEachDayConvertedAlone() throws {
        // Given: runs of three years across both ends of the Umm al-Qura table (1343 and 1500 AH), in
        // both calendars and with every offset
        var differences: [String] = []
        for start in ["1922-01-01", "2074-06-01"] {
            let first = try CivilDate(parsing: start)
            for calendar in [HijriCalendar.ummAlQura, .civil] {
                for offset in HijriAPI.offsets {
                    // When: one request for the run, and each day alone
                    let run = try service.days(
                        for: HijriAPI.Request(date: first, days: 1_100, calendar: calendar, offset: offset))
                    for (index, day) in run.enumerated() {
                        let alone = try service.days(
                            for: HijriAPI.Request(
                                date: first.adding(days: index), days: 1, calendar: calendar, offset: offset))
                        // Then: the same day, notable days and all
                        if alone != [day] { differences.append("\(day.gregorian) \(calendar) \(offset)") }
                    }
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test(arguments: [0, -2, 1])
    func everyDateOfTheTableRoundTripsThroughGregorian(_ offset: Int) async throws {
        // Given every date of the official table, 1 Muharram 1343 … 30 Dhu al-Hijjah 1500, and a
        // local-sighting offset
        let table = try Self.table.get()
        let service = service
        // When each is converted to its civil day and back (on a thread of its own: 56,000 dates)
        let (failures, count) = try await TestThread.run { () throws -> ([String], Int) in
            var failures: [String] = []
            var count = 0
            var previous: CivilDate?
            for month in table.months {
                for day in 1...month.length {
                    let hijri = try HijriDate(year: month.year, month: month.month, day: day)
                    let gregorian = try service.day(of: hijri, calendar: .ummAlQura, offset: offset).gregorian
                    let back = try service.days(for: HijriAPI.Request(date: gregorian, offset: offset)).first?.hijri
                    if back != hijri { failures.append("\(hijri) → \(gregorian) → \(back.map(\.description) ?? "-")") }
                    // and consecutive dates are consecutive days: no day skipped or given twice.
                    if let previous, gregorian != previous.adding(days: 1) {
                        failures.append("\(hijri) → \(gregorian), after \(previous)")
                    }
                    previous = gregorian
                    count += 1
                }
            }
            return (failures, count)
        }
        // Then every date comes back as itself
        #expect(failures.count == 0, "\(failures.prefix(10))")
        #expect(count == table.dayCount)
    }

    @Test func spotChecksFromHijridate() throws {
        let checks = try JSONDecoder().decode(SpotChecks.self, from: Fixtures.data("hijri-spot-checks.json"))
        for check in checks.days {
            let day = try #require(
                try service.days(for: HijriAPI.Request(date: CivilDate(parsing: check.gregorian))).first)
            #expect(
                day.hijri.year == check.hijri.year && day.hijri.monthNumber == check.hijri.month
                    && day.hijri.day == check.hijri.day, "\(check.gregorian)")
            #expect(day.weekday == check.weekday)
            #expect(day.monthLength == check.monthLength)
        }
        #expect(checks.days.count >= 60)
    }

    @Test func theTabularCalendarMatchesFoundationsIslamicCivil() throws {
        // Given Foundation's arithmetic calendar (ICU "islamic-civil")
        var islamic = Calendar(identifier: .islamicCivil)
        islamic.timeZone = TimeZone(identifier: "UTC")!
        // When every day from 1800 to 2200, and a sample to the year 9000, are converted
        let days =
            Array(stride(from: -62_091, through: 84_006, by: 1))
            + Array(stride(from: -400_000, through: 2_600_000, by: 997))
        var differences = 0
        for day in days {
            let tabular = TabularIslamicCalendar.date(daysSince1970: day)
            let components = islamic.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: Double(day) * 86400))
            if (components.year, components.month, components.day) != (tabular.year, tabular.month, tabular.day) {
                differences += 1
            }
            #expect(
                TabularIslamicCalendar.daysSince1970(year: tabular.year, month: tabular.month, day: tabular.day) == day)
        }
        // Then they agree on every one
        #expect(differences == 0)
    }

    @Test func outsideTheTableTheTabularCalendarSaysSo() throws {
        let before = try #require(try service.days(for: HijriAPI.Request(date: CivilDate(parsing: "1924-07-31"))).first)
        let after = try #require(try service.days(for: HijriAPI.Request(date: CivilDate(parsing: "2077-11-17"))).first)
        let inside = try #require(try service.days(for: HijriAPI.Request(date: CivilDate(parsing: "2077-11-16"))).first)
        #expect(before.isTabular && after.isTabular && !inside.isTabular)
        #expect(before.hijri.year == 1342 && after.hijri.year == 1501)
        let civil = try #require(
            try service.days(for: HijriAPI.Request(date: CivilDate(parsing: "2026-11-29"), calendar: .civil)).first)
        #expect(civil.isTabular && civil.calendar == .civil)
    }

    @Test func anOffsetShiftsTheDate() throws {
        let date = try CivilDate(parsing: "2026-03-19")  // 30 Ramadan 1447 (Umm al-Qura)
        let plain = try #require(try service.days(for: HijriAPI.Request(date: date)).first)
        let plus = try #require(try service.days(for: HijriAPI.Request(date: date, offset: 1)).first)
        let minus = try #require(try service.days(for: HijriAPI.Request(date: date, offset: -1)).first)
        #expect(plain.hijri.description == "1447-09-30")
        #expect(plus.hijri.description == "1447-10-01")
        #expect(plus.notableDays.map(\.kind) == [.eidAlFitr])
        #expect(minus.hijri.description == "1447-09-29")
        let eid = try service.day(of: try HijriDate(parsing: "1447-10-01"), calendar: .ummAlQura, offset: 1)
        #expect(eid.gregorian == date)
        #expect(throws: HijriError.self) { try service.days(for: HijriAPI.Request(date: date, offset: 3)) }
    }

    @Test func hijriDatesPastTheLastCivilDayAreErrorsNotTraps() throws {
        // 9666-04-02 is 9999-12-31, the last civil day PrayKit has; the month's later days, and a day
        // the offset moves past it, are out of range — in both calendars, a day and a whole month.
        for calendar in [HijriCalendar.ummAlQura, .civil] {
            let last = try service.day(of: HijriDate(parsing: "9666-04-02"), calendar: calendar, offset: 0)
            #expect(last.gregorian == CivilDate.last)
            for (text, offset) in [("9666-04-03", 0), ("9666-04-29", 0), ("9666-04-02", -1), ("9666-04-01", -2)] {
                #expect(throws: HijriError.self, "\(calendar) \(text) \(offset)") {
                    try service.day(of: HijriDate(parsing: text), calendar: calendar, offset: offset)
                }
            }
            #expect(throws: HijriError.self, "\(calendar)") {
                try service.month(.rabiAlThani, of: 9666, calendar: calendar, offset: 0)
            }
            for year in [Int.min, -1, 0, 10_000, Int.max] {
                #expect(throws: HijriError.self, "\(calendar) \(year)") {
                    try service.month(.ramadan, of: year, calendar: calendar, offset: 0)
                }
            }
        }
    }

    @Test func datesThatDoNotExistAreErrors() throws {
        #expect(throws: HijriError.self) { try HijriDate(parsing: "1447-13-01") }
        #expect(throws: HijriError.self) { try HijriDate(parsing: "1447-02-32") }
        #expect(throws: HijriError.self) {
            try service.day(of: HijriDate(parsing: "1447-02-31"), calendar: .ummAlQura, offset: 0)
        }
        #expect(throws: HijriError.self) {
            try service.day(of: HijriDate(parsing: "1447-02-30"), calendar: .civil, offset: 0)
        }
        // Safar 1447 has 29 days in the Umm al-Qura table.
        #expect(throws: HijriError.self) {
            try service.day(of: HijriDate(parsing: "1447-02-30"), calendar: .ummAlQura, offset: 0)
        }
        #expect(throws: Never.self) {
            try service.day(of: HijriDate(parsing: "1447-02-29"), calendar: .ummAlQura, offset: 0)
        }
        #expect(throws: HijriError.self) {
            try service.days(for: HijriAPI.Request(date: CivilDate(parsing: "0500-01-01")))
        }
        #expect(throws: HijriError.self) {
            try service.days(for: HijriAPI.Request(date: CivilDate(parsing: "2026-01-01"), days: 60_001))
        }
    }

    @Test func aMonthViewListsEveryDay() throws {
        let ramadan = try service.month(.ramadan, of: 1447, calendar: .ummAlQura, offset: 0)
        #expect(ramadan.count == 30)
        #expect(ramadan.first?.gregorian.description == "2026-02-18")
        #expect(ramadan.map(\.hijri.day) == Array(1...30))
        #expect(ramadan[26].notableDays.map(\.kind) == [.laylatAlQadr])
        let civil = try service.month(.dhuAlHijjah, of: 1447, calendar: .civil, offset: 0)
        #expect(civil.count == TabularIslamicCalendar.monthLength(year: 1447, month: 12))
    }

    @Test func ramadanHasNoWhiteDays() throws {
        // Given the middle of Ramadan and of the months either side
        let days = try ["1448-08-13", "1448-09-13", "1448-09-14", "1448-09-15", "1448-10-14"].map {
            try service.day(of: try HijriDate(parsing: $0), calendar: .ummAlQura, offset: 0)
        }
        // Then only Sha'ban and Shawwal have white days: every day of Ramadan is an obligatory fast
        #expect(days.map { $0.notableDays.map(\.kind).contains(.whiteDays) } == [true, false, false, false, true])
        #expect(!NotableDay.Kind.whiteDays.dates.contains { $0.month == .ramadan })
        #expect(NotableDay.Kind.whiteDays.dates.count == 11 * 3 - 1)
        // and the next white days after 1 Ramadan are in Shawwal.
        let first = try service.day(of: try HijriDate(parsing: "1448-09-01"), calendar: .ummAlQura, offset: 0)
        let next = try service.nextNotableDay(
            after: first.gregorian, kinds: [.whiteDays], calendar: .ummAlQura, offset: 0)
        #expect(next.hijri.description == "1448-10-13")
    }

    @Test func notableDaysAndTheNextOne() throws {
        let arafah = try service.day(of: try HijriDate(parsing: "1447-12-09"), calendar: .ummAlQura, offset: 0)
        #expect(arafah.notableDays.map(\.kind) == [.dayOfArafah])
        let tashreeq = try service.day(of: try HijriDate(parsing: "1447-12-13"), calendar: .ummAlQura, offset: 0)
        // 13 Dhu al-Hijjah is a day of Tashreeq, when fasting is not allowed: not a white day.
        #expect(tashreeq.notableDays.map(\.kind) == [.daysOfTashreeq])
        let white = try service.day(of: try HijriDate(parsing: "1447-11-13"), calendar: .ummAlQura, offset: 0)
        #expect(white.notableDays.map(\.kind) == [.whiteDays])
        let next = try service.nextNotableDay(after: try CivilDate(parsing: "2026-11-29"))
        #expect(next.hijri.description == "1448-07-13")
        let eid = try service.nextNotableDay(
            after: try CivilDate(parsing: "2026-11-29"), kinds: [.eidAlFitr], calendar: .ummAlQura, offset: 0)
        #expect(eid.hijri.monthNumber == 10 && eid.hijri.day == 1)
        #expect(NotableDay.Kind.allCases.allSatisfy { !$0.name.isEmpty && !$0.arabicName.isEmpty && !$0.dates.isEmpty })
    }

    @Test func theIslamicDayBeginsAtMaghrib() async throws {
        // Given Makkah on 2026-11-29, maghrib at 17:37 (UTC+3)
        let place = HijriAPI.Place(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
            timeZone: TimeZone(identifier: "Asia/Riyadh")!
        )
        let midnight = Double(try CivilDate(parsing: "2026-11-29").daysSince1970) * 86400 - 3 * 3600
        // When
        let afternoon = try await service.islamicDay(
            at: Date(timeIntervalSince1970: midnight + 17 * 3600), place: place)
        let evening = try await service.islamicDay(at: Date(timeIntervalSince1970: midnight + 18 * 3600), place: place)
        // Then
        #expect(afternoon.day.hijri.description == "1448-06-19" && !afternoon.isAfterMaghrib)
        #expect(evening.day.hijri.description == "1448-06-20" && evening.isAfterMaghrib)
        #expect(evening.civilDate.description == "2026-11-29")
        #expect(evening.maghrib.map { abs($0.timeIntervalSince1970 - (midnight + 17 * 3600 + 37 * 60)) < 60 } == true)
    }

    @Test func aMockPrayerServiceDrivesTheMaghribRule() async throws {
        // Given a prayer service that says maghrib is at 18:00 UTC
        let prayers = PrayerServiceMock()
        prayers.onPrayerTimes { request in
            PrayerAPI.Response(schedules: [.mock(date: request.date, clock: [.maghrib: "18:00"])], source: .calculated)
        }
        let hijri = HijriServiceUmmAlQura(prayerService: prayers, log: .silent)
        let place = HijriAPI.Place(coordinates: .mockMakkah, timeZone: .gmt)
        let evening = Date(timeIntervalSince1970: Double(CivilDate.mockDate.daysSince1970) * 86400 + 18 * 3600 + 1)
        // When
        let result = try await hijri.islamicDay(at: evening, place: place)
        // Then
        #expect(result.isAfterMaghrib)
        #expect(prayers.prayerTimesCalls.map(\.date) == [.mockDate])
    }

    @Test func foundationsUmmAlQuraIsNotTheOfficialTable() throws {
        // Foundation's `.islamicUmmAlQura` (ICU's computed table) is why PrayKit carries the
        // published one: count the days on which they differ.
        let table = try Self.table.get()
        var icu = Calendar(identifier: .islamicUmmAlQura)
        icu.timeZone = TimeZone(identifier: "UTC")!
        let first = try CivilDate(parsing: table.months[0].start).daysSince1970
        var differences = 0
        for day in first..<(first + table.dayCount) {
            let ours = try #require(UmmAlQuraTable.date(daysSince1970: day))
            let theirs = icu.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: Double(day) * 86400))
            if (theirs.year, theirs.month, theirs.day) != (ours.year, ours.month, ours.day) { differences += 1 }
        }
        print(
            "Foundation's islamicUmmAlQura differs from the official table on \(differences) of \(table.dayCount) days")
        #expect(differences > 0)
    }
}
