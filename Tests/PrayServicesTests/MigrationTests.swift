import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// Databases written by earlier versions open, migrate and keep every value.
@Suite struct MigrationTests {
    @Test func aSchemaTwoDatabaseMigratesItsLogToStableCodes() throws {
        // Given: a copy of a database written by praykit 0.1.0 (log codes were enum positions).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-migration-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("praykit.sqlite").path
        try FileManager.default.copyItem(atPath: try Fixtures.url("praykit-schema-2.sqlite").path, toPath: path)
        let expected = try JSONDecoder().decode([PrayerLogEntry].self, from: Fixtures.data("praykit-schema-2-log.json"))
        let memory = LogServiceMemory()
        let database = SQLiteDatabase(path: path, log: LogManager(services: [memory], minLevel: .info))
        defer { database.close() }
        let log = PrayerLogStoreSQLite(database: database, log: .silent)
        // When
        let entries = try log.entries(
            from: try CivilDate(parsing: "2026-11-27"), through: try CivilDate(parsing: "2026-11-28"))
        // Then: every entry as it was (no notes yet), the codes now names, the schema at the latest
        // (3 for the codes, 4 for sync and notes).
        #expect(entries == expected)
        #expect(entries.allSatisfy { $0.note == nil })
        #expect(
            memory.events.contains {
                $0.message == "Database migrated" && $0.metadata["storage.to"] == "\(Schema.latest)"
            })
        let codes = try database.read { connection in
            let statement = try connection.prepare("SELECT DISTINCT prayer || '/' || status FROM prayer_log ORDER BY 1")
            var codes: [String] = []
            while try statement.step() { codes.append(statement.text(0) ?? "") }
            return codes
        }
        #expect(codes.contains("fajr/late") && codes.contains("isha/missed") && codes.contains("asr/qada"))
        #expect(try database.read { try $0.integer("PRAGMA user_version") } == Int64(Schema.latest))
        #expect(try database.read { try $0.integer("SELECT count(*) FROM sync_outbox") } == 0)
        let preferences = try PreferencesStoreSQLite(database: database, log: .silent).preferences()
        #expect(preferences[.method] == "umm-al-qura" && preferences[.timeZone] == "Asia/Riyadh")
    }

    @Test func theLogRefusesAnUnknownCodeRatherThanGuessing() throws {
        let test = try TestDatabase()
        try test.prayerLog.record(.prayed, for: .fajr, on: try CivilDate(parsing: "2026-11-28"))
        try test.database.write { connection in
            try connection.execute("PRAGMA ignore_check_constraints = ON; UPDATE prayer_log SET status = 'forgot'")
        }
        #expect(throws: StorageError.self) {
            try test.prayerLog.statistics(today: try CivilDate(parsing: "2026-11-29"))
        }
    }

    @Test func deleteRemovesOnlyWhatItNamesInOneTransaction() throws {
        let test = try TestDatabase()
        let day = try CivilDate(parsing: "2026-11-28")
        for prayer in Prayer.obligatory { try test.prayerLog.record(.prayed, for: prayer, on: day) }
        let removed = try test.prayerLog.delete([.isha, .fajr], on: day)
        #expect(removed.map(\.prayer) == [.fajr, .isha])
        #expect(try test.prayerLog.entries(from: day, through: day).map(\.prayer) == [.dhuhr, .asr, .maghrib])
        #expect(try test.prayerLog.delete([.fajr], on: day).isEmpty)
    }

    @Test func aBackupWithADuplicateEntryIsRefusedBeforeAnyWrite() throws {
        let entry =
            #"{"date": "2026-11-28", "prayer": "fajr", "status": "prayed", "recordedAt": "2026-11-28T05:00:00.000Z"}"#
        let text =
            #"{"format": "praykit-backup", "version": 1, "preferences": {}, "prayerLog": [\#(entry), \#(entry)]}"#
        do {
            _ = try UserData.decoded(from: Data(text.utf8))
            Issue.record("a duplicate entry was accepted")
        } catch {
            #expect(error.message.contains("logs fajr on 2026-11-28 twice"))
        }
    }
}
