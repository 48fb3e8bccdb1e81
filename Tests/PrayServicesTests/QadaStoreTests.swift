import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// The SQLite store of the prayers to make up: the round trip, upsert by id, remove, two devices'
/// make-ups, and a version-5 database migrating to it.
@Suite struct QadaStoreTests {
    private static let now = Date(timeIntervalSince1970: 1_795_953_600.123)

    private func opening(_ prayer: Prayer, _ count: Int, at instant: Date = QadaStoreTests.now) throws -> QadaEntry {
        try QadaEntry(
            id: QadaEntry.openingID(prayer), kind: .opening, prayer: prayer, count: count,
            date: try CivilDate(parsing: "2026-11-01"), source: QadaEntry.sourceEstimate, recordedAt: instant)
    }

    private func madeUp(_ prayer: Prayer, _ count: Int, at instant: Date, note: String? = nil) throws -> QadaEntry {
        try QadaEntry(
            id: QadaEntry.newMadeUpID(), kind: .madeUp, prayer: prayer, count: count,
            date: try CivilDate(parsing: "2026-11-28"), source: nil, recordedAt: instant, note: note)
    }

    @Test func entriesRoundTripInOrderAndSavingAnIDAgainReplacesIt() throws {
        // Given
        let test = try TestDatabase()
        let store = QadaStoreSQLite(database: test.database, log: .silent)
        #expect(try store.entries().isEmpty)
        let fajr = try opening(.fajr, 1_200)
        let later = try madeUp(.fajr, 3, at: Self.now + 60, note: "بعد الفجر")
        let earlier = try madeUp(.isha, 1_000, at: Self.now - 60)
        // When
        try store.save([later, fajr])
        try store.save([earlier])
        // Then: every field back, by recordedAt then id
        #expect(try store.entries() == [earlier, fajr, later])
        // Saving the opening again replaces it
        let replaced = try opening(.fajr, 0, at: Self.now + 120)
        try store.save([replaced])
        #expect(try store.entries() == [earlier, later, replaced])
        // Removing returns what was there, once
        #expect(try store.remove(id: later.id) == later)
        #expect(try store.remove(id: later.id) == nil)
        #expect(try store.entries() == [earlier, replaced])
    }

    @Test func twoDevicesMakeUpsRecordedOfflineBothCount() throws {
        // Given: two devices each record a make-up of fajr while apart, then both reach the database
        let test = try TestDatabase()
        let phone = QadaStoreSQLite(database: test.database, log: .silent)
        let laptop = QadaStoreSQLite(database: test.database, log: .silent)
        try phone.save([try opening(.fajr, 10)])
        let fromPhone = try madeUp(.fajr, 2, at: Self.now + 1)
        let fromLaptop = try madeUp(.fajr, 2, at: Self.now + 1)
        // When
        try phone.save([fromPhone])
        try laptop.save([fromLaptop])
        // Then
        let entries = try phone.entries()
        #expect(Set(entries.map(\.id)) == Set([QadaEntry.openingID(.fajr), fromPhone.id, fromLaptop.id]))
        let ledger = QadaLedger(
            entries: entries, log: [], today: try CivilDate(parsing: "2026-11-29"),
            timeZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(ledger[.fajr].madeUp == 4 && ledger[.fajr].balance == 6)
    }

    @Test func theStaticFunctionsWorkInsideACallersTransaction() throws {
        // Given
        let test = try TestDatabase()
        let store = QadaStoreSQLite(database: test.database, log: .silent)
        let first = try madeUp(.asr, 1, at: Self.now)
        let second = try madeUp(.asr, 2, at: Self.now + 1)
        // When: one transaction writes, reads and deletes, as sync's apply does
        let seen = try test.database.write { connection in
            try QadaStoreSQLite.upsert([first, second], connection)
            try QadaStoreSQLite.delete(ids: [first.id, "made-up/" + String(repeating: "0", count: 32)], connection)
            return try QadaStoreSQLite.load(connection)
        }
        // Then
        let stored = try store.entries()
        #expect(seen == [second] && stored == [second])
    }

    @Test func aRowThatBreaksTheRulesIsRefusedByTheSchemaOrReportedWhenRead() throws {
        let test = try TestDatabase()
        let store = QadaStoreSQLite(database: test.database, log: .silent)
        try store.save([try opening(.dhuhr, 5)])
        // The schema refuses an unknown prayer
        #expect(throws: StorageError.self) {
            try test.database.write { connection in
                try connection.prepare(
                    "INSERT INTO qada_entry (id, kind, prayer, count, day, recorded_at) VALUES (?, ?, ?, ?, ?, ?)"
                ).run([
                    .text("opening/sunrise"), .text("opening"), .text("sunrise"), .integer(1), .integer(0), .integer(0),
                ])
            }
        }
        // A made-up row with an opening's source reads as invalid data, naming the entry
        try test.database.write { connection in
            try connection.prepare("UPDATE qada_entry SET source = 'guess' WHERE id = 'opening/dhuhr'").run()
        }
        #expect {
            try store.entries()
        } throws: { error in
            let error = error as? StorageError
            return error?.kind == .invalidData && error?.message.contains("opening/dhuhr") == true
        }
    }

    @Test func aVersionFiveDatabaseMigratesToTheQadaTable() throws {
        // Given: a database at schema 5 with a log entry
        let test = try TestDatabase()
        let five = SQLiteDatabase(
            path: test.path, log: .silent, migrations: Schema.migrations.filter { $0.version <= 5 })
        let entry = try PrayerLogEntry(
            date: try CivilDate(parsing: "2026-11-28"), prayer: .fajr, status: .missed, recordedAt: Self.now)
        try PrayerLogStoreSQLite(database: five, log: .silent).record([entry])
        #expect(try five.read { try $0.integer("PRAGMA user_version") } == 5)
        #expect(throws: StorageError.self) { try five.read { try $0.integer("SELECT count(*) FROM qada_entry") } }
        five.close()
        // When: this PrayKit opens it
        let memory = LogServiceMemory()
        let database = SQLiteDatabase(path: test.path, log: LogManager(services: [memory], minLevel: .info))
        defer { database.close() }
        let store = QadaStoreSQLite(database: database, log: .silent)
        // Then: the qada table is there, empty, and the log is kept
        #expect(try store.entries().isEmpty)
        #expect(try database.read { try $0.integer("PRAGMA user_version") } == Int64(Schema.latest))
        #expect(memory.events.contains { $0.message == "Database migrated" && $0.metadata["storage.from"] == "5" })
        let day = try CivilDate(parsing: "2026-11-28")
        #expect(try PrayerLogStoreSQLite(database: database, log: .silent).entries(from: day, through: day) == [entry])
        let opening = try opening(.fajr, 7)
        try store.save([opening])
        #expect(try store.entries() == [opening])
    }
}
