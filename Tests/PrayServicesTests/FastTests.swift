import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// Fasts: the entry, the rules on the person's Hijri calendar (announced starts included), the
/// account of each Ramadan and the days owed, the suggested voluntary fasts, and the SQLite store.
@Suite struct FastTests {
    private static let ummAlQura = HijriServiceUmmAlQura(
        prayerService: PrayerServiceAstronomical(log: .silent), log: .silent)
    private static let fasts = FastCalendar(hijri: ummAlQura, calendar: .ummAlQura, offset: 0)
    private static let stamp = Date(timeIntervalSince1970: 1_795_953_600.2507)

    private func civil(_ date: HijriDate) throws -> CivilDate {
        try Self.ummAlQura.day(of: date, calendar: .ummAlQura, offset: 0).gregorian
    }

    private func civil(_ year: Int, _ month: HijriMonth, _ day: Int) throws -> CivilDate {
        try civil(HijriDate(year: year, month: month.rawValue, day: day))
    }

    private func entry(_ date: CivilDate, _ status: FastStatus, note: String? = nil) throws -> FastEntry {
        try FastEntry(date: date, status: status, recordedAt: Self.stamp, note: note)
    }

    // MARK: - The entry

    @Test func anEntryKeepsMillisecondsAndRefusesALongNote() throws {
        // Given / When
        let day = try CivilDate(parsing: "2027-02-10")
        let kept = try entry(day, .madeUp, note: String(repeating: "n", count: PrayerLogEntry.maximumNoteLength))
        // Then
        #expect(PrayerLogEntry.timestamp(kept.recordedAt) == "2026-11-29T12:00:00.250Z")
        #expect(try entry(day, .fasted, note: "").note == nil)
        #expect(throws: ValidationError.self) {
            try entry(day, .fasted, note: String(repeating: "n", count: PrayerLogEntry.maximumNoteLength + 1))
        }
    }

    @Test func anEntryHasTheAgreedJSON() throws {
        // Given
        let fast = try entry(try CivilDate(parsing: "2027-04-05"), .madeUp, note: "Monday")
        // When
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(fast), as: UTF8.self)
        // Then
        #expect(
            text == #"{"date":"2027-04-05","note":"Monday","recordedAt":"2026-11-29T12:00:00.250Z","status":"made-up"}"#
        )
        #expect(try JSONDecoder().decode(FastEntry.self, from: Data(text.utf8)) == fast)
        let bad = #"{"date":"2027-04-05","recordedAt":"2026-11-29T12:00:00.250Z","status":"qada"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FastEntry.self, from: Data(bad.utf8)) }
    }

    // MARK: - Rules

    @Test func ramadanDaysFollowAnAnnouncedMonthStart() throws {
        // Given: the calendar's first of Ramadan 1447, and a country that announced it a day later
        let first = try civil(1447, .ramadan, 1)
        let today = try CivilDate(parsing: "2026-06-01")
        let starts = try HijriMonthStarts(parsing: "1447-09=\(first.adding(days: 1))")
        let announced = FastCalendar(hijri: Self.ummAlQura.following(starts), calendar: .ummAlQura, offset: 0)
        // When / Then: on the calendar, the first is Ramadan's and the day before is not
        try Self.fasts.check(.fasted, on: first, today: today)
        #expect(throws: ValidationError.self) {
            try Self.fasts.check(.fasted, on: first.adding(days: -1), today: today)
        }
        #expect(throws: ValidationError.self) { try Self.fasts.check(.voluntary, on: first, today: today) }
        // As announced, that day is still Sha'ban: a voluntary fast, not Ramadan's
        #expect(throws: ValidationError.self) { try announced.check(.fasted, on: first, today: today) }
        try announced.check(.voluntary, on: first, today: today)
        try announced.check(.missed, on: first.adding(days: 1), today: today)
        #expect(try announced.ramadan(of: 1447).first?.gregorian == first.adding(days: 1))
    }

    @Test func madeUpAndVoluntaryFastsAreRefusedOnForbiddenDaysAndNothingAfterTomorrow() throws {
        let today = try CivilDate(parsing: "2026-12-01")
        let forbidden = [
            try civil(1447, .shawwal, 1), try civil(1447, .dhuAlHijjah, 10), try civil(1447, .dhuAlHijjah, 11),
            try civil(1447, .dhuAlHijjah, 12), try civil(1447, .dhuAlHijjah, 13),
        ]
        for day in forbidden {
            for status in [FastStatus.madeUp, .voluntary] {
                #expect(throws: ValidationError.self, "\(day) \(status)") {
                    try Self.fasts.check(status, on: day, today: today)
                }
            }
        }
        try Self.fasts.check(.madeUp, on: try civil(1447, .shawwal, 2), today: today)
        try Self.fasts.check(.voluntary, on: try civil(1447, .dhuAlHijjah, 14), today: today)
        try Self.fasts.check(.voluntary, on: today.adding(days: 1), today: today)
        #expect(throws: ValidationError.self) {
            try Self.fasts.check(.voluntary, on: today.adding(days: 2), today: today)
        }
    }

    // MARK: - The account

    @Test func eachRamadanIsCountedAndMadeUpDaysPayTheOldestFirst() throws {
        // Given: Ramadan 1446 with 3 fasted, 2 missed, 1 excused; Ramadan 1447 with 1 missed; 2 made up;
        // a voluntary fast in 1446 and one in 1447
        let today = try CivilDate(parsing: "2026-06-01")  // Dhu al-Hijjah 1447
        var entries = try (1...3).map { try entry(civil(1446, .ramadan, $0), .fasted) }
        entries += [
            try entry(civil(1446, .ramadan, 4), .missed), try entry(civil(1446, .ramadan, 5), .missed),
            try entry(civil(1446, .ramadan, 6), .excused), try entry(civil(1447, .ramadan, 10), .missed),
            try entry(civil(1446, .shawwal, 10), .madeUp), try entry(civil(1447, .shawwal, 10), .madeUp),
            try entry(civil(1446, .muharram, 10), .voluntary), try entry(civil(1447, .muharram, 10), .voluntary),
        ]
        // When
        let account = try Self.fasts.account(of: entries, today: today)
        // Then
        #expect(account.ramadans.map(\.year) == [1446, 1447])
        let older = account.ramadans[0]
        #expect(older.days == (try Self.fasts.ramadan(of: 1446)).count)
        #expect([older.fasted, older.missed, older.excused, older.owed] as [Int] == [3, 2, 1, 1])
        #expect(older.notRecorded == older.days - 6)
        let newer = account.ramadans[1]
        #expect([newer.fasted, newer.missed, newer.excused, newer.owed] as [Int] == [0, 1, 0, 1])
        #expect(newer.notRecorded == newer.days - 1)
        #expect(account.madeUp == 2 && account.owed == 2 && account.madeUpBeyondOwed == 0)
        #expect(account.voluntaryYear == 1447 && account.voluntary == 1)
        // More made up than owed: nothing owed, and the surplus said
        let more = try entries + (11...14).map { try entry(civil(1447, .shawwal, $0), .madeUp) }
        let paid = try Self.fasts.account(of: more, today: today)
        #expect(paid.owed == 0 && paid.madeUpBeyondOwed == 2 && paid.ramadans.map(\.owed) == [0, 0])
        // One year asked for: that Ramadan alone, and totals of that row (it owed 3, 2 were made up)
        let one = try Self.fasts.account(of: entries, today: today, years: [1446], voluntaryYear: 1446)
        #expect(one.ramadans.map(\.year) == [1446] && one.owed == 1 && one.madeUp == 2 && one.voluntary == 1)
    }

    @Test func aRamadanUnderwayCountsOnlyItsPastDaysAsNotRecorded() throws {
        // Given: the 5th of Ramadan 1447, the 1st fasted
        let first = try civil(1447, .ramadan, 1)
        let today = first.adding(days: 4)
        // When
        let account = try Self.fasts.account(of: [try entry(first, .fasted)], today: today)
        // Then: days 2–4 are past and not recorded; today and later are not counted
        #expect(account.ramadans.map(\.year) == [1447])
        #expect(account.ramadans[0].fasted == 1 && account.ramadans[0].notRecorded == 3)
    }

    // MARK: - Suggestions

    private func suggestion(_ year: Int, _ month: HijriMonth, _ day: Int, recorded: Set<CivilDate> = [])
        throws -> [FastReason]
    {
        let date = try civil(year, month, day)
        return try Self.fasts.suggestions(from: date, count: 1, recorded: recorded).first?.reasons ?? []
    }

    @Test func aStartThatMovesAFastIsAConflictCountedNowhere() throws {
        // Given: Ramadan 1447 (30 days) recorded fasted on its 30th and first; a voluntary fast on 2 Shawwal
        let thirtieth = try civil(1447, .ramadan, 30)
        let first = try civil(1447, .ramadan, 1)
        let entries = [
            try entry(first, .fasted), try entry(thirtieth, .fasted), try entry(thirtieth.adding(days: 2), .voluntary),
        ]
        // When: 1 Shawwal announced on the 30th, and (another calendar) Ramadan a day later
        var earlyEid = HijriMonthStarts()
        earlyEid[try HijriMonthStarts.Month(year: 1447, month: 10)] = thirtieth
        let moved = FastCalendar(hijri: Self.ummAlQura.following(earlyEid), calendar: .ummAlQura, offset: 0)
        var lateRamadan = HijriMonthStarts()
        lateRamadan[try HijriMonthStarts.Month(year: 1447, month: 9)] = first.adding(days: 1)
        let late = FastCalendar(hijri: Self.ummAlQura.following(lateRamadan), calendar: .ummAlQura, offset: 0)
        // Then: the fast on the new Eid, and the voluntary fast that the same day is now Eid's second
        let conflicts = try moved.moved(entries, before: Self.fasts)
        #expect(conflicts.map(\.entry.date) == [thirtieth])
        #expect(conflicts.first?.problem == .forbidden("Eid al-Fitr"))
        #expect(try late.moved(entries, before: Self.fasts).map(\.problem) == [.notRamadan])
        #expect(try Self.fasts.conflicts(in: entries).isEmpty)
        // The account counts the one fast left in Ramadan, and lists the other
        let account = try moved.account(of: entries, today: thirtieth.adding(days: 20))
        #expect(account.ramadans.first?.fasted == 1 && account.ramadans.first?.days == 29)
        #expect(account.notCounted.map(\.entry.date) == [thirtieth])
        #expect(account.voluntary == 1)
        // A made-up fast on 30 Sha'ban 1448, which a Ramadan announced a day early makes its first, pays nothing
        let calendarFirst = try civil(1448, .ramadan, 1)
        let madeUp = try entry(calendarFirst.adding(days: -1), .madeUp)
        var earlyRamadan = HijriMonthStarts()
        earlyRamadan[try HijriMonthStarts.Month(year: 1448, month: 9)] = calendarFirst.adding(days: -1)
        let early = FastCalendar(hijri: Self.ummAlQura.following(earlyRamadan), calendar: .ummAlQura, offset: 0)
        let missed = try entry(calendarFirst.adding(days: 3), .missed)
        let paid = try early.account(of: [madeUp, missed], today: calendarFirst.adding(days: 50))
        #expect(paid.madeUp == 0 && paid.owed == 1 && paid.notCounted.first?.problem == .ramadan)
    }

    @Test func theTotalsOfChosenYearsAreTheirRows() throws {
        // Given: 1446 owes 1, 1447 owes 2, two days made up (the oldest Ramadan's first)
        let entries = [
            try entry(try civil(1446, .ramadan, 5), .missed), try entry(try civil(1447, .ramadan, 5), .missed),
            try entry(try civil(1447, .ramadan, 6), .excused), try entry(try civil(1447, .shawwal, 9), .madeUp),
            try entry(try civil(1447, .shawwal, 10), .madeUp),
        ]
        let today = try civil(1447, .dhuAlHijjah, 1)
        // When
        let all = try Self.fasts.account(of: entries, today: today)
        let only1447 = try Self.fasts.account(of: entries, today: today, years: [1447])
        // Then
        #expect(all.ramadans.map(\.madeUp) == [1, 1] && all.ramadans.map(\.owed) == [0, 1])
        #expect(all.madeUp == 2 && all.owed == 1 && all.madeUpBeyondOwed == 0)
        #expect(only1447.madeUp == 1 && only1447.owed == 1 && only1447.ramadans.map(\.year) == [1447])
    }

    @Test func aWholeRamadanIsBoundedByTheTableAndToday() throws {
        let today = try civil(1447, .ramadan, 11)
        #expect(try Self.fasts.pastDays(ofRamadan: 1447, today: today).count == 10)
        // (The table gives Ramadan 1343 28 days: no month length is assumed here.)
        #expect(try !Self.fasts.pastDays(ofRamadan: FastCalendar.firstRamadanYear, today: today).isEmpty)
        for (year, words) in [
            (1, "before 1343 AH"), (1342, "from 1343 to 1447"), (1448, "begins on 2027-02-08, after today"),
            (9999, "is in a year to come"),
        ] {
            #expect {
                _ = try Self.fasts.pastDays(ofRamadan: year, today: today)
            } throws: { error in
                (error as? ValidationError)?.field == "ramadan"
                    && (error as? ValidationError)?.message.contains(words) == true
            }
        }
        #expect(throws: ValidationError.self) {
            try Self.fasts.pastDays(ofRamadan: 1447, today: try civil(1447, .ramadan, 1))
        }
    }

    @Test func theVoluntaryFastsAreSuggestedWithTheirReasons() throws {
        #expect(try suggestion(1447, .dhuAlHijjah, 9).contains(.arafah))
        #expect(try suggestion(1448, .muharram, 9).contains(.tasua))
        #expect(try suggestion(1448, .muharram, 10).contains(.ashura))
        #expect(try suggestion(1447, .shawwal, 2).contains(.sixOfShawwal))
        #expect(try suggestion(1447, .shawwal, 7).contains(.sixOfShawwal))
        #expect(try suggestion(1447, .shawwal, 8).contains(.sixOfShawwal) == false)
        #expect(try suggestion(1448, .rajab, 13).contains(.whiteDay(13, .rajab)))
        #expect(FastReason.whiteDay(13, .shaban).name == "White day 13 Sha'ban")
        #expect(try suggestion(1448, .rajab, 15).contains(.whiteDay(15, .rajab)))
        // Mondays and Thursdays, named as such
        let start = try CivilDate(parsing: "2027-01-04")  // a Monday in Rajab 1448
        let week = try Self.fasts.suggestions(from: start, count: 7, recorded: [])
        #expect(week.filter { $0.reasons.contains(.monday) }.map(\.day.gregorian) == [start])
        #expect(week.filter { $0.reasons.contains(.thursday) }.map(\.day.gregorian) == [start.adding(days: 3)])
        #expect(week.allSatisfy { !$0.reasons.isEmpty })
    }

    @Test func noSuggestionInRamadanOnAForbiddenDayOrARecordedDay() throws {
        // Ramadan, Eid, the days of tashriq: not even a Monday or the white day 13 Dhu al-Hijjah
        let ramadan = try Self.fasts.ramadan(of: 1447)
        #expect(try Self.fasts.suggestions(from: ramadan[0].gregorian, count: ramadan.count, recorded: []).isEmpty)
        for day in [
            (HijriMonth.shawwal, 1), (.dhuAlHijjah, 10), (.dhuAlHijjah, 11), (.dhuAlHijjah, 12), (.dhuAlHijjah, 13),
        ] {
            #expect(try suggestion(1447, day.0, day.1).isEmpty, "\(day)")
        }
        // A day with a fast recorded is not suggested
        let arafah = try civil(1447, .dhuAlHijjah, 9)
        #expect(try suggestion(1447, .dhuAlHijjah, 9, recorded: [arafah]).isEmpty)
        // The next suggestion skips it
        let next = try #require(try Self.fasts.nextSuggestion(from: arafah, recorded: [arafah]))
        #expect(next.day.gregorian > arafah.adding(days: 4))
    }

    // MARK: - The SQLite store

    @Test func theStoreRoundTripsReplacesByDayAndDeletes() throws {
        // Given
        let test = try TestDatabase()
        let store = FastStoreSQLite(database: test.database, log: .silent)
        let first = try CivilDate(parsing: "2027-02-10")
        let second = first.adding(days: 1)
        // When
        try store.record([try entry(second, .missed), try entry(first, .fasted, note: "at home")])
        try store.record([try entry(second, .excused, note: "travel")])
        // Then
        #expect(
            try store.entries(from: first, through: second) == [
                try entry(first, .fasted, note: "at home"), try entry(second, .excused, note: "travel"),
            ])
        #expect(try store.entries(from: second, through: second).map(\.status) == [.excused])
        #expect(try store.delete(on: first)?.status == .fasted)
        #expect(try store.delete(on: first) == nil)
        let removed = try test.database.write { try FastStoreSQLite.delete(days: [first, second], $0) }
        #expect(removed.map(\.date) == [second])
        #expect(try test.database.read { try FastStoreSQLite.load($0) }.isEmpty)
    }

    @Test func aVersionFiveDatabaseGainsTheFastTableAndKeepsItsData() throws {
        // Given: a database at schema 5 (before fasts) with a log entry
        let test = try TestDatabase()
        let five = SQLiteDatabase(
            path: test.path, log: .silent, migrations: Schema.migrations.filter { $0.version <= 5 })
        let day = try CivilDate(parsing: "2026-11-28")
        try PrayerLogStoreSQLite(database: five, log: .silent).record(.prayed, for: .fajr, on: day)
        #expect(try five.read { try $0.integer("PRAGMA user_version") } == 5)
        five.close()
        // When
        let database = SQLiteDatabase(path: test.path, log: .silent)
        defer { database.close() }
        let store = FastStoreSQLite(database: database, log: .silent)
        try store.record([try entry(day, .voluntary)])
        // Then
        #expect(try database.read { try $0.integer("PRAGMA user_version") } == Int64(Schema.latest))
        #expect(try store.entries(from: day, through: day).map(\.status) == [.voluntary])
        #expect(try PrayerLogStoreSQLite(database: database, log: .silent).entries(from: day, through: day).count == 1)
    }
}
