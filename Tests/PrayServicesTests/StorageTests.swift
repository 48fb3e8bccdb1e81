import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// The SQLite layer and the stores, against a real database file in a temporary folder.
@Suite(.tags(.concurrency)) struct StorageTests {
    let day = CivilDate.mockDate

    @Test func nothingIsCreatedUntilSomethingIsWritten() throws {
        let test = try TestDatabase()
        #expect(try test.preferences.preferences().isEmpty)
        #expect(try test.prayerLog.entries(from: day, through: day).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: test.path))
        try test.prayerLog.record(.prayed, for: .fajr, on: day)
        #expect(FileManager.default.fileExists(atPath: test.path))
        let version = try test.database.read { try $0.integer("PRAGMA user_version") }
        #expect(version == Int64(Schema.latest))
        let mode = try test.database.read { connection -> String? in
            let statement = try connection.prepare("PRAGMA journal_mode")
            return try statement.step() ? statement.text(0) : nil
        }
        #expect(mode == "wal")
    }

    @Test func preferencesPersistAndValidate() throws {
        // Given
        let test = try TestDatabase()
        try test.preferences.update { preferences in
            try preferences.set("Makkah", for: .method)
            try preferences.set("21.4225", for: .latitude)
            try preferences.set("fajr=2, isha=-3", for: .adjust)
        }
        // When read through a second handle on the same file
        let other = PreferencesStoreSQLite(database: SQLiteDatabase(path: test.path, log: .silent), log: .silent)
        let stored = try other.preferences()
        // Then the values are there, normalised
        #expect(stored[.method] == "umm-al-qura")
        #expect(stored[.latitude] == "21.4225")
        #expect(stored[.adjust] == "fajr=2,isha=-3")
        // and a bad value changes nothing.
        #expect(throws: ValidationError.self) { try test.preferences.update { try $0.set("91", for: .latitude) } }
        #expect(try test.preferences.preferences()[.latitude] == "21.4225")
        try test.preferences.update { $0.unset(.method) }
        #expect(try other.preferences()[.method] == nil)
    }

    @Test func preferencesSequenceYieldsNowAndAfterEachChange() async throws {
        let test = try TestDatabase()
        try test.preferences.update { try $0.set("mwl", for: .method) }
        var iterator = test.preferences.preferencesSequence().makeAsyncIterator()
        #expect(await iterator.next()?[.method] == "muslim-world-league")
        try test.preferences.update { try $0.set("isna", for: .method) }
        #expect(await iterator.next()?[.method] == "north-america")
    }

    @Test func theSequencesSeeAnotherConnectionsWritesAsAnotherProcesssWould() async throws {
        // Given: a stream on one handle of the file, and a second handle (its own connection, as
        // another praykit process has) that writes
        let test = try TestDatabase()
        try test.preferences.update { try $0.set("mwl", for: .method) }
        let other = PreferencesStoreSQLite(database: SQLiteDatabase(path: test.path, log: .silent), log: .silent)
        var iterator = test.preferences.preferencesSequence().makeAsyncIterator()
        #expect(await iterator.next()?[.method] == "muslim-world-league")
        // When
        try other.update { try $0.set("isna", for: .method) }
        // Then: the first handle's stream yields it (seen through PRAGMA data_version), and again
        #expect(await iterator.next()?[.method] == "north-america")
        try other.update { try $0.set("12:30", for: .jumuah) }
        #expect(await iterator.next()?[.jumuah] == "12:30")
    }

    @Test func theLogSequenceYieldsAfterEachChangeAndEndsWhenItsTaskIsCancelled() async throws {
        let test = try TestDatabase()
        let (seen, seenContinuation) = AsyncStream.makeStream(of: [PrayerLogEntry].self)
        let watcher = Task {
            for await entries in test.prayerLog.entriesSequence(from: day, through: day) {
                seenContinuation.yield(entries)
            }
            seenContinuation.finish()
        }
        var values = seen.makeAsyncIterator()
        #expect(await values.next() == [])
        try test.prayerLog.record(.prayed, for: .fajr, on: day)
        #expect(await values.next()?.map(\.prayer) == [.fajr])
        // Cancelling the task that iterates ends the sequence, and later writes yield nothing.
        watcher.cancel()
        await watcher.value
        try test.prayerLog.record(.late, for: .dhuhr, on: day)
        #expect(await values.next() == nil)
    }

    @Test func theLogKeepsOneStatusPerPrayerAndDay() throws {
        let test = try TestDatabase()
        try test.prayerLog.record(.missed, for: .isha, on: day)
        try test.prayerLog.record(.qada, for: .isha, on: day)
        try test.prayerLog.record(.prayed, for: .fajr, on: day.adding(days: 1))
        let entries = try test.prayerLog.entries(from: day, through: day.adding(days: 1))
        #expect(entries.map(\.status) == [.qada, .prayed])
        #expect(entries.first?.recordedAt == TestDatabase.clock)
        #expect(try test.prayerLog.entries(from: day.adding(days: 1), through: day.adding(days: 9)).count == 1)
        #expect(throws: ValidationError.self) { try test.prayerLog.record(.prayed, for: .sunrise, on: day) }
    }

    @Test func statisticsCountStreaksAndQada() throws {
        // Given three complete days, a gap, then two complete days ending today and a missed isha made up
        let test = try TestDatabase()
        var entries: [PrayerLogEntry] = []
        for offset in [-7, -6, -5, -1, 0] {
            for prayer in Prayer.obligatory {
                let status: PrayerStatus = prayer == .asr && offset == -6 ? .late : .prayed
                entries.append(
                    try PrayerLogEntry(
                        date: day.adding(days: offset), prayer: prayer, status: status, recordedAt: TestDatabase.clock))
            }
        }
        entries.append(
            try PrayerLogEntry(
                date: day.adding(days: -3), prayer: .isha, status: .missed, recordedAt: TestDatabase.clock))
        entries.append(
            try PrayerLogEntry(
                date: day.adding(days: -2), prayer: .fajr, status: .missed, recordedAt: TestDatabase.clock))
        try test.prayerLog.record(entries)
        try test.prayerLog.record(.qada, for: .fajr, on: day.adding(days: -2))
        // When
        let statistics = try test.prayerLog.statistics(today: day)
        // Then
        #expect(statistics.currentStreak == 2)
        #expect(statistics.bestStreak == 3)
        #expect(statistics.qadaOwed == 1)
        #expect(statistics.counts[.late] == 1 && statistics.counts[.qada] == 1 && statistics.counts[.missed] == 1)
        #expect(statistics.daysLogged == 7)
        // Today not yet complete: the streak counts up to yesterday.
        #expect(try test.prayerLog.statistics(today: day.adding(days: 1)).currentStreak == 2)
    }

    @Test func aBackupRoundTripsByteForByte() throws {
        // Given
        let source = try TestDatabase()
        try source.preferences.update { preferences in
            try preferences.set("Asia/Riyadh", for: .timeZone)
            try preferences.set("12h", for: .clock)
        }
        for offset in 0..<40 {
            try source.prayerLog.record(
                PrayerStatus.allCases[offset % 4], for: Prayer.obligatory[offset % 5], on: day.adding(days: offset))
        }
        let exported = try source.backup.exportData().encoded()
        // When imported into another database and exported again
        let target = try TestDatabase()
        try target.prayerLog.record(.missed, for: .asr, on: day.adding(days: -100))
        try target.backup.importData(try UserData.decoded(from: exported))
        let again = try target.backup.exportData().encoded()
        // Then the bytes are the same and the old entry is gone
        #expect(again == exported)
        #expect(try target.prayerLog.entries(from: day.adding(days: -100), through: day.adding(days: -100)).isEmpty)
    }

    @Test func aBadBackupChangesNothing() throws {
        let test = try TestDatabase()
        try test.prayerLog.record(.prayed, for: .fajr, on: day)
        for text in [
            "{", #"{"format":"other","version":1,"preferences":{},"prayerLog":[]}"#,
            #"{"format":"praykit-backup","version":1,"preferences":{"latitude":"99"},"prayerLog":[]}"#,
        ] {
            #expect(throws: StorageError.self) { try UserData.decoded(from: Data(text.utf8)) }
        }
        #expect(try test.prayerLog.entries(from: day, through: day).count == 1)
    }

    @Test func aFileThatIsNotADatabaseIsLeftAlone() throws {
        // Given a text file where the database should be
        let test = try TestDatabase()
        let text = Data(String(repeating: "not a database\n", count: 500).utf8)
        try text.write(to: URL(fileURLWithPath: test.path))
        // When
        #expect {
            try test.preferences.preferences()
        } throws: { ($0 as? StorageError)?.kind == .notADatabase }
        #expect(throws: StorageError.self) { try test.prayerLog.record(.prayed, for: .fajr, on: day) }
        // Then the file is unchanged and nothing was created beside it
        #expect(try Data(contentsOf: URL(fileURLWithPath: test.path)) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: test.folder.path) == ["praykit.sqlite"])
    }

    @Test func aDamagedDatabaseIsReportedAndLeftAlone() throws {
        // Given a database whose table pages were overwritten
        let test = try TestDatabase()
        for offset in 0..<400 { try test.prayerLog.record(.prayed, for: .fajr, on: day.adding(days: offset)) }
        test.database.close()
        try test.database.read { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        let root = try test.database.read {
            try $0.integer("SELECT rootpage FROM sqlite_master WHERE name = 'prayer_log'")
        }
        test.database.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: test.path))
        // The log's root page and the next one (pages are 4096 bytes, numbered from 1).
        let start = (Int(root ?? 2) - 1) * 4096
        for index in start..<min(bytes.count, start + 8192) { bytes[index] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: test.path))
        // When
        let reopened = PrayerLogStoreSQLite(database: SQLiteDatabase(path: test.path, log: .silent), log: .silent)
        // Then
        #expect {
            try reopened.entries(from: day, through: day.adding(days: 400))
        } throws: { [.corrupt, .notADatabase].contains(($0 as? StorageError)?.kind) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: test.path)) == bytes)
    }

    @Test func aFolderThatCannotBeCreatedIsAClearError() throws {
        let test = try TestDatabase()
        let blocker = test.folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: blocker)
        let store = PrayerLogStoreSQLite(
            database: SQLiteDatabase(path: blocker.appendingPathComponent("praykit.sqlite").path, log: .silent),
            log: .silent
        )
        #expect {
            try store.record(.prayed, for: .fajr, on: day)
        } throws: { ($0 as? StorageError)?.kind == .cannotOpen }
        // A read-only place: /proc cannot hold files even for root.
        let readOnly = PrayerLogStoreSQLite(
            database: SQLiteDatabase(path: "/proc/praykit-test.sqlite", log: .silent), log: .silent)
        #expect(throws: StorageError.self) { try readOnly.record(.prayed, for: .fajr, on: day) }
    }

    @Test func aFullDiskLosesNothingAlreadyStored() throws {
        // Given a database limited to its current size
        let test = try TestDatabase()
        try test.prayerLog.record(.prayed, for: .fajr, on: day)
        let pages = try test.database.read { try $0.integer("PRAGMA page_count") } ?? 1
        try test.database.read { try $0.execute("PRAGMA max_page_count = \(pages + 1)") }
        // When a large write does not fit
        let entries = try (0..<5000).map {
            try PrayerLogEntry(
                date: day.adding(days: $0 + 1), prayer: .dhuhr, status: .prayed, recordedAt: TestDatabase.clock)
        }
        #expect {
            try test.prayerLog.record(entries)
        } throws: { error in
            guard let error = error as? StorageError else { return false }
            return error.kind == .full && error.description.contains("nothing was written")
        }
        // Then the transaction rolled back and the earlier entry is intact
        #expect(try test.prayerLog.entries(from: day, through: day.adding(days: 6000)).count == 1)
        let check = try test.database.read { connection -> String? in
            let statement = try connection.prepare("PRAGMA integrity_check")
            return try statement.step() ? statement.text(0) : nil
        }
        #expect(check == "ok")
    }

    @Test func aNewerSchemaIsRefused() throws {
        let test = try TestDatabase()
        try test.prayerLog.record(.prayed, for: .fajr, on: day)
        try test.database.read { try $0.execute("PRAGMA user_version = 99") }
        test.database.close()
        #expect {
            try test.prayerLog.entries(from: day, through: day)
        } throws: { ($0 as? StorageError)?.kind == .schemaTooNew }
    }

    @Test func errorsCarryTheSQLButNotTheValues() throws {
        let test = try TestDatabase()
        try test.prayerLog.record(.prayed, for: .fajr, on: day)
        do {
            try test.database.write { connection in
                let statement = try connection.prepare(
                    "INSERT INTO prayer_log (day, prayer, status, recorded_at) VALUES (?, ?, ?, ?)")
                try statement.run([.integer(424_242), .integer(9), .integer(0), .integer(0)])
            }
            Issue.record("the CHECK constraint did not fire")
        } catch let error as StorageError {
            #expect(error.kind == .constraint)
            #expect(error.sql?.contains("INSERT INTO prayer_log") == true)
            #expect(!error.description.contains("424242"))
            #expect(error.code != 0)
        }
    }

    @Test func resetEmptiesTheTestDatabase() throws {
        let test = try TestDatabase()
        try test.prayerLog.record(.prayed, for: .fajr, on: day)
        try test.reset()
        #expect(try test.prayerLog.entries(from: day, through: day).isEmpty)
        try test.prayerLog.record(.late, for: .asr, on: day)
        #expect(try test.prayerLog.entries(from: day, through: day).map(\.status) == [.late])
    }

    @Test func theTestDatabasesFolderGoesWithIt() throws {
        // Given: a test database, its folder in the temporary directory
        var test: TestDatabase? = try TestDatabase()
        let folder = try #require(test?.folder)
        #expect(folder.lastPathComponent.hasPrefix("praykit-test-"))
        #expect(FileManager.default.fileExists(atPath: folder.path))
        // When: it is released
        test = nil
        // Then: its folder is gone
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
