import Foundation
import PrayCore
import PrayMocks
import Testing

/// The prayers to make up: an entry's rules, the ledger (balance, pace, zero date) and the estimate.
@Suite struct QadaTests {
    private static let utc = TimeZone(identifier: "UTC") ?? .current
    /// 2026-11-29 12:00 UTC.
    private static let now = Date(timeIntervalSince1970: 1_795_953_600)

    private func day(_ text: String) throws -> CivilDate { try CivilDate(parsing: text) }
    /// A day known to be valid, for comparisons inside expectations.
    private func date(_ text: String) -> CivilDate { (try? CivilDate(parsing: text)) ?? .first }

    private func opening(_ prayer: Prayer, _ count: Int, _ date: String) throws -> QadaEntry {
        try QadaEntry(
            id: QadaEntry.openingID(prayer), kind: .opening, prayer: prayer, count: count, date: day(date),
            source: QadaEntry.sourceSet, recordedAt: Self.now)
    }

    private func madeUp(_ prayer: Prayer, _ count: Int, _ date: String) throws -> QadaEntry {
        try QadaEntry(
            id: QadaEntry.newMadeUpID(), kind: .madeUp, prayer: prayer, count: count, date: day(date), source: nil,
            recordedAt: Self.now)
    }

    private func log(
        _ prayer: Prayer, _ status: PrayerStatus, _ date: String, recordedAt: Date = QadaTests.now
    ) throws -> PrayerLogEntry {
        try PrayerLogEntry(date: day(date), prayer: prayer, status: status, recordedAt: recordedAt)
    }

    // MARK: - QadaEntry

    @Test func anEntryKeepsItsRulesAndItsIDFitsItsKindAndPrayer() throws {
        // Valid entries
        let entry = try QadaEntry(
            id: QadaEntry.openingID(.fajr), kind: .opening, prayer: .fajr, count: 0, date: day("2026-11-29"),
            source: QadaEntry.sourceEstimate, recordedAt: Date(timeIntervalSince1970: 1.2345), note: "")
        #expect(entry.id == "opening/fajr" && entry.note == nil)
        #expect(entry.recordedAt == Date(timeIntervalSince1970: 1.234))
        let id = QadaEntry.newMadeUpID()
        let kind = try QadaEntry.validateID(id)
        #expect(kind == .madeUp && id.count == "made-up/".count + 32)
        #expect(QadaEntry.newMadeUpID() != id)
        // Each rule, by the field it names
        let cases: [(String, QadaEntry.Kind, Prayer, Int, String?, String?, String)] = [
            ("opening/dhuhr", .opening, .fajr, 1, "set", nil, "id"),
            (id, .opening, .fajr, 1, "set", nil, "id"),
            ("opening/fajr", .madeUp, .fajr, 1, nil, nil, "id"),
            ("made-up/" + String(repeating: "A", count: 32), .madeUp, .fajr, 1, nil, nil, "id"),
            ("made-up/abc", .madeUp, .fajr, 1, nil, nil, "id"),
            ("opening/sunrise", .opening, .sunrise, 1, "set", nil, "prayer"),
            ("opening/fajr", .opening, .fajr, -1, "set", nil, "count"),
            ("opening/fajr", .opening, .fajr, 100_001, "set", nil, "count"),
            ("opening/fajr", .opening, .fajr, 1, nil, nil, "source"),
            ("opening/fajr", .opening, .fajr, 1, "guess", nil, "source"),
            (id, .madeUp, .fajr, 0, nil, nil, "count"),
            (id, .madeUp, .fajr, 1_001, nil, nil, "count"),
            (id, .madeUp, .fajr, 1, "set", nil, "source"),
            (id, .madeUp, .fajr, 1, nil, String(repeating: "x", count: 501), "note"),
        ]
        for (id, kind, prayer, count, source, note, field) in cases {
            let error = #expect(throws: ValidationError.self, "\(id) \(count) \(source ?? "-")") {
                try QadaEntry(
                    id: id, kind: kind, prayer: prayer, count: count, date: CivilDate.mockDate, source: source,
                    recordedAt: Self.now, note: note)
            }
            #expect(error?.field == field, "\(id) \(count): \(error?.message ?? "")")
        }
        // The limits themselves are valid
        _ = try opening(.isha, 100_000, "2026-11-29")
        _ = try madeUp(.isha, 1_000, "2026-11-29")
    }

    @Test func anEntryEncodesTheAgreedJSONAndDecodingChecksIt() throws {
        // Given
        let entry = try QadaEntry(
            id: "made-up/0123456789abcdef0123456789abcdef", kind: .madeUp, prayer: .asr, count: 2,
            date: day("2026-11-28"), source: nil, recordedAt: Date(timeIntervalSince1970: 1_795_953_600.25),
            note: "after asr")
        // When
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(entry), as: UTF8.self)
        // Then
        #expect(
            text
                == #"{"count":2,"date":"2026-11-28","id":"made-up\/0123456789abcdef0123456789abcdef","kind":"made-up","#
                + #""note":"after asr","prayer":"asr","recordedAt":"2026-11-29T12:00:00.250Z"}"#)
        #expect(try JSONDecoder().decode(QadaEntry.self, from: Data(text.utf8)) == entry)
        let opening = try opening(.fajr, 300, "2026-11-29")
        #expect(try JSONDecoder().decode(QadaEntry.self, from: try encoder.encode(opening)) == opening)
        // A value that breaks a rule does not decode
        let bad = text.replacingOccurrences(of: #""count":2"#, with: #""count":0"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(QadaEntry.self, from: Data(bad.utf8)) }
        let wrongID = text.replacingOccurrences(of: "0123456789abcdef0123", with: "zz23456789abcdef0123")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(QadaEntry.self, from: Data(wrongID.utf8)) }
    }

    // MARK: - QadaLedger

    @Test func theBalanceIsTheOpeningPlusMissedSinceMinusMadeUpSince() throws {
        // Given: fajr opens at 10 on 2026-11-01; dhuhr has no opening
        let entries = [
            try opening(.fajr, 10, "2026-11-01"),
            try madeUp(.fajr, 3, "2026-11-20"),
            try madeUp(.fajr, 5, "2026-10-25"),  // before the opening: part of it
            try madeUp(.dhuhr, 1, "2026-01-01"),  // no opening: counts
        ]
        let log = [
            try log(.fajr, .missed, "2026-11-05"), try log(.fajr, .missed, "2026-11-10"),
            try log(.fajr, .missed, "2026-10-20"),  // before the opening: part of it
            try log(.fajr, .qada, "2026-11-07"),  // missed and made up: not owed
            try log(.fajr, .prayed, "2026-11-08"),
            try log(.dhuhr, .missed, "2020-11-06"), try log(.dhuhr, .missed, "2026-11-06"),
            try log(.dhuhr, .qada, "2026-11-09"),
        ]
        // When
        let ledger = QadaLedger(entries: entries, log: log, today: try day("2026-11-29"), timeZone: Self.utc)
        // Then
        let fajr = ledger[.fajr]
        #expect(fajr.openingCount == 10 && fajr.missed == 2 && fajr.madeUp == 3 && fajr.balance == 9)
        #expect(fajr.opening == entries[0] && fajr.surplus == 0)
        let dhuhr = ledger[.dhuhr]
        #expect(dhuhr.opening == nil && dhuhr.missed == 2 && dhuhr.madeUp == 1 && dhuhr.balance == 1)
        #expect(ledger[.asr].balance == 0 && ledger[.asr].zeroDate == (date("2026-11-29")))
        #expect(ledger.accounts.map(\.prayer) == Prayer.obligatory)
        #expect(ledger.total.balance == 10 && ledger.total.openingCount == 10 && ledger.total.missed == 4)
        #expect(ledger.total.madeUp == 4 && ledger.total.prayer == nil)
    }

    @Test func aLogEntryBeforeTheOpeningChangesNothingWhateverItsStatus() throws {
        // Given: the same opening, with and without log entries dated before it
        let entries = [try opening(.maghrib, 40, "2026-11-15")]
        let before = try ["prayed", "late", "missed", "qada"].enumerated().map { index, status in
            try log(.maghrib, try #require(PrayerStatus(rawValue: status)), "2026-11-0\(index + 1)")
        }
        // When
        let plain = QadaLedger(entries: entries, log: [], today: try day("2026-11-29"), timeZone: Self.utc)
        let withBefore = QadaLedger(entries: entries, log: before, today: try day("2026-11-29"), timeZone: Self.utc)
        // Then: the balance is the opening in both
        #expect(plain[.maghrib].balance == 40 && withBefore[.maghrib].balance == 40)
        #expect(withBefore[.maghrib].missed == 0 && withBefore[.maghrib].madeUp == 0)
        // A missed entry on the opening's day counts
        let onTheDay = QadaLedger(
            entries: entries, log: [try log(.maghrib, .missed, "2026-11-15")], today: try day("2026-11-29"),
            timeZone: Self.utc)
        #expect(onTheDay[.maghrib].balance == 41)
    }

    @Test func thePaceIsMadeUpMinusMissedOverThirtyDaysAndGivesTheZeroDate() throws {
        // Given: today 2026-11-29, the window 2026-10-31 … 2026-11-29
        let entries = [
            try opening(.fajr, 100, "2026-11-29"),
            try madeUp(.fajr, 20, "2026-11-10"), try madeUp(.fajr, 10, "2026-11-20"),
            try madeUp(.fajr, 50, "2026-10-30"),  // outside the window
            try opening(.dhuhr, 5, "2026-11-29"),
        ]
        let log = [
            // made up in the window (recorded 2026-11-15) for a day before it: counts for the pace
            try log(.fajr, .qada, "2026-10-02", recordedAt: Self.now - 14 * 86400),
            try log(.fajr, .qada, "2026-09-02", recordedAt: Self.now - 60 * 86400),  // recorded before the window
            try log(.fajr, .missed, "2026-11-25"),  // in the window: −1
            try log(.fajr, .missed, "2026-10-30"),  // outside the window
        ]
        // When
        let ledger = QadaLedger(entries: entries, log: log, today: try day("2026-11-29"), timeZone: Self.utc)
        // Then: (20 + 10 + 1 − 1) / 30 = 1 a day; 100 owed → 100 days
        let fajr = ledger[.fajr]
        #expect(fajr.pace.madeUp == 31 && fajr.pace.missed == 1 && fajr.pace.days == 30)
        #expect(fajr.pace.perDay == 1 && fajr.pace.perWeek == 7)
        #expect(fajr.balance == 100 && fajr.zeroDate == (date("2027-03-09")))
        // dhuhr owes 5 and makes nothing up: not at this pace; so neither is the total
        #expect(ledger[.dhuhr].zeroDate == nil && ledger.total.zeroDate == nil)
        #expect(ledger.total.pace.madeUp == 31 && ledger.total.pace.missed == 1)
        // A fraction of a day rounds up: 7 owed at 45 in 30 days is ⌈7 × 30 / 45⌉ = 5 days
        let pace = QadaLedger.Pace(madeUp: 45, missed: 0)
        #expect(pace.zeroDate(balance: 7, today: try day("2026-11-29")) == (date("2026-12-04")))
        #expect(QadaLedger.Pace(madeUp: 3, missed: 3).zeroDate(balance: 1, today: try day("2026-11-29")) == nil)
    }

    @Test func theTotalZeroDateIsTheLastPrayersWhenEveryOneHasAPace() throws {
        let entries = [
            try opening(.fajr, 30, "2026-11-29"), try madeUp(.fajr, 30, "2026-11-01"),  // 30 days
            try opening(.isha, 60, "2026-11-29"), try madeUp(.isha, 30, "2026-11-01"),  // 60 days
        ]
        let ledger = QadaLedger(entries: entries, log: [], today: try day("2026-11-29"), timeZone: Self.utc)
        #expect(ledger[.fajr].zeroDate == (date("2026-12-29")))
        #expect(ledger[.isha].zeroDate == (date("2027-01-28")))
        #expect(ledger.total.zeroDate == (date("2027-01-28")) && ledger.total.balance == 90)
    }

    @Test func aQadaEntryFallsInTheWindowByTheDayItWasRecordedInTheZone() throws {
        // Recorded 2026-10-30 20:00 UTC: 2026-10-31 in Tokyo (first day of the window), not in UTC
        let recorded = try #require(ISO8601DateFormatter().date(from: "2026-10-30T20:00:00Z"))
        let log = [try log(.asr, .qada, "2026-10-01", recordedAt: recorded)]
        let today = try day("2026-11-29")
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(QadaLedger(entries: [], log: log, today: today, timeZone: tokyo)[.asr].pace.madeUp == 1)
        #expect(QadaLedger(entries: [], log: log, today: today, timeZone: Self.utc)[.asr].pace.madeUp == 0)
    }

    @Test func theBalanceIsNeverNegativeAndTwoDevicesMakeUpsBothCount() throws {
        // Given: 3 owed; two devices each made up 2 offline, with ids of their own
        let entries = [
            try opening(.isha, 3, "2026-11-01"), try madeUp(.isha, 2, "2026-11-20"), try madeUp(.isha, 2, "2026-11-21"),
        ]
        #expect(entries[1].id != entries[2].id)
        // When
        let ledger = QadaLedger(entries: entries, log: [], today: try day("2026-11-29"), timeZone: Self.utc)
        // Then: both count; 0 owed, 1 more made up than owed
        #expect(ledger[.isha].madeUp == 4 && ledger[.isha].balance == 0 && ledger[.isha].surplus == 1)
        #expect(ledger[.isha].zeroDate == (date("2026-11-29")))
        #expect(ledger.total.balance == 0 && ledger.total.surplus == 1)
    }

    // MARK: - QadaEstimate

    @Test func anEstimateCountsTheDaysLessExceptedAndExcusedDaysPerMonth() throws {
        // A year, June excepted, 6 days a month excused: 365 − 30 − 11 × 6
        let year = try QadaEstimate(
            from: day("2026-01-01"), through: day("2026-12-31"), except: [try day("2026-06-01")...day("2026-06-30")],
            excusedDaysPerMonth: 6)
        #expect(year.days == 365 && year.excepted == 30 && year.excused == 66 && year.owed == 269)
        #expect(year.openingDate == (date("2027-01-01")))
        // Months in part round down: ⌊6 × 15 / 31⌋ = 2 in January, ⌊6 × 14 / 28⌋ = 3 in February
        let part = try QadaEstimate(from: day("2026-01-17"), through: day("2026-02-14"), excusedDaysPerMonth: 6)
        #expect(part.days == 29 && part.excused == 5 && part.owed == 24)
        // One day, nothing excused
        let one = try QadaEstimate(from: day("2026-01-17"), through: day("2026-01-17"))
        #expect(one.owed == 1 && one.openingDate == (date("2026-01-18")))
    }

    @Test func anEstimateRefusesBadRanges() throws {
        let from = try day("2026-01-01")
        let through = try day("2026-03-31")
        let cases: [(CivilDate, CivilDate, [ClosedRange<CivilDate>], Int, String)] = [
            (through, from, [], 0, "from"),
            (
                from, through, [try day("2026-02-01")...day("2026-02-10"), try day("2026-02-10")...day("2026-02-12")],
                0,
                "except"
            ),
            (from, through, [try day("2025-12-30")...day("2026-01-02")], 0, "except"),
            (from, through, [try day("2026-03-30")...day("2026-04-02")], 0, "except"),
            (from, through, [], 16, "excused"),
            (from, through, [], -1, "excused"),
            (date("1700-01-01"), through, [], 0, "count"),
        ]
        for (start, end, except, excused, field) in cases {
            let error = #expect(throws: ValidationError.self) {
                try QadaEstimate(from: start, through: end, except: except, excusedDaysPerMonth: excused)
            }
            #expect(error?.field == field, "\(error?.message ?? "")")
        }
    }
}
