import Foundation
import PrayCore
import Testing

@testable import PrayServices

/// ``HijriMonthStarts`` and ``HijriServiceMonthStarts`` over the Umm al-Qura service, and the Umm al-Qura
/// method's Ramadan isha following announced starts. In Umm al-Qura, Sha'ban 1448 has 30 days from
/// 2027-01-09, Ramadan 29 from 2027-02-08, and Shawwal begins 2027-03-09.
@Suite struct HijriMonthStartsTests {
    let base = HijriServiceUmmAlQura(prayerService: PrayerServiceAstronomical(log: .silent), log: .silent)

    func month(_ text: String) throws -> HijriMonthStarts.Month { try HijriMonthStarts.Month(parsing: text) }
    func date(_ text: String) throws -> CivilDate { try CivilDate(parsing: text) }
    func starts(_ text: String) throws -> HijriMonthStarts { try HijriMonthStarts(parsing: text) }

    @Test func thePreferenceValueParsesAndNormalises() throws {
        let parsed = try starts("1448-10=2027-03-09, 1448-09=2027-02-07")
        #expect(parsed.description == "1448-09=2027-02-07,1448-10=2027-03-09")
        #expect(parsed[try month("1448-09")] == (try date("2027-02-07")))
        #expect(try starts("").isEmpty)
        for bad in [
            "1448-09", "1448-9=2027-02-07", "1448-00=2027-02-07", "1448-09=2027-13-01", "a=b",
            "1448-09=2027-02-07,1448-09=2027-02-08",
        ] {
            #expect(throws: ValidationError.self, "\(bad)") { try HijriMonthStarts(parsing: bad) }
        }
        var preferences = Preferences()
        try preferences.set("1448-10=2027-03-09,1448-09=2027-02-07", for: .hijriStarts)
        #expect(preferences[.hijriStarts] == "1448-09=2027-02-07,1448-10=2027-03-09")
        #expect(preferences.hijriMonthStarts == parsed)
        // Each month syncs as its own `hijri-start` row, not the preference as a whole.
        #expect(!SyncRules.syncedPreferenceKeys.contains(.hijriStarts))
    }

    /// What a sync server can check without the person's calendar: a start within 5 days of the
    /// tabular calendar's first day (1 Ramadan 1448 is 2027-02-08 in Umm al-Qura; 1 Muharram 1 AH
    /// is 622-07-16 Julian, 622-07-19 proleptic Gregorian).
    @Test func aStartFarFromEveryCalendarIsRefused() throws {
        let ramadan = try month("1448-09")
        #expect(
            abs(HijriMonthStarts.tabularStart(of: ramadan).daysSince1970 - (try date("2027-02-08")).daysSince1970) <= 1)
        #expect(HijriMonthStarts.tabularStart(of: try month("1-01")) == (try date("0622-07-19")))
        try HijriMonthStarts.checkPlausible(try date("2027-02-10"), for: ramadan)
        #expect(throws: ValidationError.self) {
            try HijriMonthStarts.checkPlausible(try date("2027-02-20"), for: ramadan)
        }
        #expect(throws: ValidationError.self) {
            try SyncRules.validate(
                collection: .hijriStart, key: "1448-09",
                value: .hijriStart(SyncHijriStartValue(start: try date("2027-03-09"))))
        }
        try SyncRules.validate(
            collection: .hijriStart, key: "1448-09",
            value: .hijriStart(SyncHijriStartValue(start: try date("2027-02-07"))))
    }

    @Test func aMonthPastTheLastCivilDayIsRefusedNotATrap() throws {
        // 9666-04 begins on 9999-12-30 (tabular): the last month PrayKit has. A later one is refused
        // where it is read — a pushed row's key on a sync server, a mosque's announced start, an Eid
        // day — rather than trapping when its first day is made (a trap took the server down).
        _ = try month("9666-04")
        for text in ["9666-05", "9700-01", "9999-12"] {
            #expect(throws: ValidationError.self, "\(text)") { try month(text) }
            #expect(throws: ValidationError.self, "\(text)") {
                try SyncRules.validate(
                    collection: .hijriStart, key: text,
                    value: .hijriStart(SyncHijriStartValue(start: try date("2027-02-09"))))
            }
        }
        #expect(throws: ValidationError.self) {
            try HijriMonthStarts.checkPlausible(try date("2027-02-09"), for: try month("9666-04"))
        }
        // The month after the last one, reached by `next`, has a first day: the last civil day.
        #expect(HijriMonthStarts.tabularStart(of: try month("9666-04").next) == CivilDate.last)
        var settings = SyncMosqueSettingsValue(latitude: 51.5, longitude: -0.07, timeZone: "Europe/London")
        settings.eid = [SyncMosqueSettingsValue.Eid(hijri: "9666-10-01", date: try date("9999-12-31"), prayers: [450])]
        #expect(throws: ValidationError.self) {
            try SyncRules.validate(collection: .mosqueSettings, key: "settings", value: SyncValue(settings))
        }
    }

    @Test func theFileFormat() throws {
        let entries = try HijriMonthStarts.entries(
            parsingFile: "# comment\n\n1448-09 2027-02-07 The council, Makkah\r\n  1448-10\t2027-03-09\n")
        #expect(entries.map(\.month) == [try month("1448-09"), try month("1448-10")])
        #expect(entries.map(\.source) == ["The council, Makkah", ""])
        var starts = HijriMonthStarts()
        for entry in entries { starts[entry.month] = entry.start }
        let again = try HijriMonthStarts.entries(parsingFile: starts.fileText)
        #expect(again.map(\.start) == entries.map(\.start))
        do {
            _ = try HijriMonthStarts.entries(parsingFile: "1448-09 2027-02-07\n# x\n1448-13 2027-03-09\n")
            Issue.record("a bad month was read")
        } catch {
            #expect(error.message.hasPrefix("line 3: "))
        }
    }

    @Test func daysMonthsAndConversionsFollowTheStarts() throws {
        let hijri = base.following(try starts("1448-09=2027-02-07"))
        let days = try hijri.days(for: HijriAPI.Request(date: try date("2027-02-06"), days: 3))
        #expect(days.map(\.hijri.description) == ["1448-08-29", "1448-09-01", "1448-09-02"])
        #expect(days.map(\.monthLength) == [29, 30, 30])
        #expect(days[1].notableDays.map(\.kind) == [.ramadanBegins])
        let ramadan = try hijri.month(.ramadan, of: 1448, calendar: .ummAlQura, offset: 0)
        #expect(ramadan.count == 30)
        #expect(ramadan.first?.gregorian == (try date("2027-02-07")))
        #expect(ramadan.last?.gregorian == (try date("2027-03-08")))
        #expect(
            try hijri.day(of: HijriDate(parsing: "1448-09-30"), calendar: .ummAlQura, offset: 0).gregorian
                == (try date("2027-03-08")))
        #expect(throws: HijriError.self) {
            try hijri.day(of: HijriDate(parsing: "1448-08-30"), calendar: .ummAlQura, offset: 0)
        }
        // Months away from the override are the calendar's
        let muharram = try hijri.month(.muharram, of: 1448, calendar: .ummAlQura, offset: 0)
        #expect(muharram == (try base.month(.muharram, of: 1448, calendar: .ummAlQura, offset: 0)))
        #expect(
            try hijri.nextNotableDay(
                after: date("2027-02-01"), kinds: [.ramadanBegins], calendar: .ummAlQura, offset: 0
            )
            .gregorian == (try date("2027-02-07")))
        // No overrides: the base service itself
        #expect(base.following(HijriMonthStarts()) is HijriServiceUmmAlQura)
    }

    @Test func theOffsetDoesNotApplyToAnOverriddenMonth() throws {
        let hijri = base.following(try starts("1448-09=2027-02-07"))
        let days = try hijri.days(
            for: HijriAPI.Request(date: try date("2027-02-06"), days: 2, calendar: .ummAlQura, offset: 1))
        // Sha'ban, not overridden, begins a day earlier with the offset: 2027-02-06 is its 30th
        #expect(days.map(\.hijri.description) == ["1448-08-30", "1448-09-01"])
        #expect(days.map(\.offset) == [1, 0])
        // Shawwal follows the calendar with the offset: Ramadan ends a day early
        let ramadan = try hijri.month(.ramadan, of: 1448, calendar: .ummAlQura, offset: 1)
        #expect(ramadan.count == 29)
    }

    @Test func overridesThatDoNotFitAreRefusedAndNotApplied() throws {
        let service = HijriServiceMonthStarts(base: base, starts: try starts("1448-09=2027-02-09,1447-01=2025-06-01"))
        let problems = service.problems(calendar: .ummAlQura, offset: 0)
        #expect(problems[try month("1448-09")]?.contains("Sha'ban 1448 (1448-08) 31 days long") == true)
        #expect(problems[try month("1447-01")]?.contains("days before the calendar's 1 Muharram 1447") == true)
        #expect(throws: HijriError.self) { try service.check(calendar: .ummAlQura, offset: 0) }
        // Not applied: the calendar's days
        let day = try service.days(for: HijriAPI.Request(date: try date("2027-02-08")))[0]
        #expect(day.hijri.description == "1448-09-01")
        let fits = HijriServiceMonthStarts(base: base, starts: try starts("1448-09=2027-02-07"))
        #expect(fits.problems(calendar: .ummAlQura, offset: 0).isEmpty)
        // In the tabular calendar too, checked against its own first day
        #expect(fits.problems(calendar: .civil, offset: 0).count <= 1)
    }

    @Test func theUmmAlQuraRamadanIshaFollowsTheStarts() throws {
        let service = PrayerServiceAstronomical(log: .silent)
        var request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
            timeZone: try #require(TimeZone(identifier: "Asia/Riyadh")), date: try date("2027-02-06"), days: 3,
            parameters: CalculationParameters(method: .ummAlQura))
        func ishaMinutes() throws -> [Int] {
            try service.prayerTimes(for: request).schedules.map { schedule in
                let maghrib = try #require(schedule[.maghrib]?.date)
                let isha = try #require(schedule[.isha]?.date)
                return Int((isha.timeIntervalSince(maghrib) / 60).rounded())
            }
        }
        #expect(try ishaMinutes() == [90, 90, 120])
        request.hijriMonthStarts = try starts("1448-09=2027-02-07")
        #expect(try ishaMinutes() == [90, 120, 120])
    }
}
