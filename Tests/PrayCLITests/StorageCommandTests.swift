import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// `praykit config`, `log`, `export` and `import` against a real database file, including the
/// failures a user's machine can produce: killed processes, concurrent writers, bad files.
@Suite(.tags(.process, .binary)) struct StorageCommandTests {
    /// A fresh folder and the environment that points praykit at a database inside it.
    final class Sandbox {
        let folder: URL
        var database: String { folder.appendingPathComponent("data/praykit.sqlite").path }
        var environment: [String: String] { ["PRAYKIT_DATABASE": database] }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "praykit-storage-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(at: folder)
        }

        func run(_ arguments: [String]) async throws -> PraykitProcess.Result {
            try await PraykitProcess.run(arguments, environment: environment)
        }

        /// `PRAGMA integrity_check` and every log entry, read with PrayKit's own database layer.
        func inspect() throws -> (integrity: String?, entries: [PrayerLogEntry]) {
            let database = SQLiteDatabase(path: database, log: .silent)
            let integrity = try database.read { connection -> String? in
                let statement = try connection.prepare("PRAGMA integrity_check")
                return try statement.step() ? statement.text(0) : nil
            }
            let entries = try PrayerLogStoreSQLite(database: database, log: .silent)
                .entries(from: CivilDate(daysSince1970: 0), through: CivilDate(daysSince1970: 40000))
            return (integrity, entries)
        }
    }

    @Test func configSetThenTimesUsesIt() async throws {
        let sandbox = try Sandbox()
        for (key, value) in [
            ("latitude", "21.4225"), ("longitude", "39.8262"), ("tz", "Asia/Riyadh"), ("method", "umm-al-qura"),
        ] {
            let result = try await sandbox.run(["config", "set", key, value])
            #expect(result.status == 0, "\(key): \(result.stderr)")
        }
        let times = try await sandbox.run(["times", "--date", "2026-11-29", "--format", "json"])
        #expect(times.status == 0, "\(times.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(times.stdout.utf8)) as? [String: Any])
        #expect((document["parameters"] as? [String: Any])?["method"] as? String == "umm-al-qura")
        #expect((document["location"] as? [String: Any])?["timeZoneSource"] as? String == "saved")
        // A flag on the command line still wins.
        let flag = try await sandbox.run(["times", "--date", "2026-11-29", "--method", "mwl", "--format", "json"])
        let overridden = try #require(try JSONSerialization.jsonObject(with: Data(flag.stdout.utf8)) as? [String: Any])
        #expect((overridden["parameters"] as? [String: Any])?["method"] as? String == "muslim-world-league")
        // The database folder is the user's alone.
        let attributes = try FileManager.default.attributesOfItem(
            atPath: (sandbox.database as NSString).deletingLastPathComponent)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test func aBadConfigValueChangesNothing() async throws {
        let sandbox = try Sandbox()
        #expect(try await sandbox.run(["config", "set", "method", "mwl"]).status == 0)
        for arguments in [
            ["config", "set", "method", "nope"], ["config", "set", "latitude", "91"],
            ["config", "set", "planet", "mars"],
            ["config", "frobnicate"], ["config", "set", "tz"],
        ] {
            let result = try await sandbox.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix("Error: "))
        }
        #expect(try await sandbox.run(["config", "get", "method"]).stdout == "muslim-world-league\n")
        #expect(try await sandbox.run(["config", "get", "latitude"]).status == 1)
        #expect(try await sandbox.run(["config", "unset", "method"]).status == 0)
        #expect(try await sandbox.run(["config", "get", "method"]).status == 1)
    }

    @Test func logRecordListAndStats() async throws {
        let sandbox = try Sandbox()
        for prayer in Prayer.obligatory {
            #expect(
                try await sandbox.run([
                    "log", "record", "--prayer", prayer.rawValue, "--status", "prayed", "--date", "2026-11-28",
                ]).status == 0)
        }
        #expect(
            try await sandbox.run([
                "log", "record", "--prayer", "isha", "--status", "missed", "--date", "2026-11-29", "--note",
                "asleep, sadly",
            ])
            .status == 0)
        let list = try await sandbox.run([
            "log", "list", "--from", "2026-11-28", "--to", "2026-11-29", "--format", "json",
        ])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(entries.count == 6)
        #expect(entries.last?["prayer"] as? String == "isha")
        #expect(entries.last?["status"] as? String == "missed")
        // The note is listed: null where there is none, a column of the table and the CSV.
        #expect(entries.last?["note"] as? String == "asleep, sadly")
        #expect(entries.first?["note"] is NSNull)
        let table = try await sandbox.run(["log", "list", "--from", "2026-11-28", "--to", "2026-11-29"])
        #expect(table.stdout.contains("Note") && table.stdout.contains("asleep, sadly"), "\(table.stdout)")
        let csv = try await sandbox.run([
            "log", "list", "--from", "2026-11-29", "--to", "2026-11-29", "--format", "csv",
        ])
        #expect(csv.stdout.hasSuffix(",\"asleep, sadly\"\n"), "\(csv.stdout)")
        #expect((entries.first?["recordedAt"] as? String)?.hasSuffix("Z") == true)
        let stats = try await sandbox.run(["log", "stats", "--format", "json", "--tz", "UTC"])
        let statistics = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(statistics["qadaOwed"] as? Int == 1)
        #expect(statistics["bestStreak"] as? Int == 1)
        // With an opening and a make-up, what `qada` says is owed: 10 − 3 + the isha missed since
        #expect(try await sandbox.run(["qada", "set", "isha", "10", "--date", "2026-11-01"]).status == 0)
        #expect(try await sandbox.run(["qada", "record", "isha", "3", "--date", "2026-11-30"]).status == 0)
        let owed = try await sandbox.run(["log", "stats", "--format", "json", "--tz", "UTC"])
        let after = try #require(try JSONSerialization.jsonObject(with: Data(owed.stdout.utf8)) as? [String: Any])
        #expect(after["qadaOwed"] as? Int == 8, "\(owed.stdout)")
        for bad in [
            ["log", "record", "--prayer", "sunrise", "--status", "prayed"], ["log", "record", "--prayer", "fajr"],
            ["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", "2026-02-30"],
            ["log", "list", "--from", "2026-12-01", "--to", "2026-11-01"],
        ] {
            #expect(try await sandbox.run(bad).status == 64, "\(bad)")
        }
    }

    @Test func exportAndImportRoundTrip() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.run(["config", "set", "tz", "Europe/London"])
        _ = try await sandbox.run(["log", "record", "--prayer", "asr", "--status", "late", "--date", "2026-01-01"])
        let exported = try await sandbox.run(["export"])
        #expect(exported.status == 0)
        let file = sandbox.folder.appendingPathComponent("backup.json")
        try Data(exported.stdout.utf8).write(to: file)
        let other = try Sandbox()
        let imported = try await other.run(["import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try await other.run(["export"]).stdout == exported.stdout)
        let broken = sandbox.folder.appendingPathComponent("broken.json")
        try Data("{\"format\": \"praykit-backup\"".utf8).write(to: broken)
        let failed = try await other.run(["import", broken.path])
        #expect(failed.status == 1)
        #expect(try await other.run(["export"]).stdout == exported.stdout)
        #expect(try await other.run(["import", "/nonexistent/backup.json"]).status == 1)
    }

    @Test func concurrentWritersAllSucceed() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.run(["config", "set", "method", "mwl"])
        let processes = try (0..<24).map { index in
            try PraykitProcess.Running(
                [
                    "log", "record", "--prayer", Prayer.obligatory[index % 5].rawValue, "--status", "prayed",
                    "--date", CivilDate(daysSince1970: 12_000 + index).description,
                ],
                environment: sandbox.environment
            )
        }
        var results: [PraykitProcess.Result] = []
        for process in processes { results.append(try await process.wait()) }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr).filter { !$0.isEmpty })")
        #expect(try sandbox.inspect().entries.count == 24)
    }

    @Test func badDatabaseFilesAreClearErrorsAndLeftAsTheyWere() async throws {
        let sandbox = try Sandbox()
        let folder = (sandbox.database as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let text = Data("these are my notes, not a database\n".utf8)
        try text.write(to: URL(fileURLWithPath: sandbox.database))
        for arguments in [
            ["log", "list"], ["config", "set", "method", "mwl"], ["times", "--lat", "1", "--lon", "2"], ["export"],
        ] {
            let result = try await sandbox.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("is not a PrayKit database"), "\(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["praykit.sqlite"])
        // A database path that cannot be created.
        let blocked = try await PraykitProcess.run(
            ["log", "record", "--prayer", "fajr", "--status", "prayed"],
            environment: ["PRAYKIT_DATABASE": sandbox.database + "/inside-a-file.sqlite"]
        )
        #expect(blocked.status == 1)
        #expect(blocked.stderr.contains("cannot open or create"))
    }

    @Test func importCountsEverythingItImported() async throws {
        // Given: a backup with settings, a log entry, fasts, qada entries and a mosque's timetable
        let now = CLI.now
        var preferences = Preferences()
        try preferences.set("Europe/London", for: .timeZone)
        try preferences.set("mwl", for: .method)
        let day = try CivilDate(parsing: "2026-03-01")
        let fasts = try (0..<3).map { try FastEntry(date: day.adding(days: $0), status: .fasted, recordedAt: now) }
        let qada = try [
            QadaEntry(
                id: QadaEntry.openingID(.fajr), kind: .opening, prayer: .fajr, count: 10, date: day,
                source: QadaEntry.sourceSet, recordedAt: now),
            QadaEntry(
                id: QadaEntry.newMadeUpID(), kind: .madeUp, prayer: .fajr, count: 2, date: day, source: nil,
                recordedAt: now),
        ]
        let mosque = MosqueTimetable(
            name: "East London Mosque", coordinates: try Coordinates(latitude: 51.5174, longitude: -0.0653),
            timeZone: "Europe/London",
            days: [MosqueDay(date: day, adhan: [.fajr: 320]), MosqueDay(date: day.adding(days: 1))])
        let backup = UserData(
            preferences: preferences,
            prayerLog: [try PrayerLogEntry(date: day, prayer: .fajr, status: .prayed, recordedAt: now)],
            mosques: [mosque], qada: qada, fasts: fasts)
        let data = try JSONEncoder().encode(backup)
        // When
        let result = await CLI.run(["import", "-"], standardInput: data)
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "Imported 2 settings, 1 log entry, 3 fasts, 2 qada entries and 1 mosque timetable (2 days).\n",
            "\(result.stdout)")
        // A backup made before fasts, qada and mosques were kept says what it left as it was
        let old = try JSONEncoder().encode(UserData(preferences: preferences, prayerLog: []))
        let older = await CLI.run(["import", "-"], standardInput: old)
        #expect(
            older.stdout
                == "Imported 2 settings and 0 log entries; the file has no fasts, qada entries or mosque "
                + "timetables (made before PrayKit kept them), so those kept here stay as they are.\n",
            "\(older.stdout)")
    }

    @Test func theRealBinaryShowsImportsWarningsOnStandardError() async throws {
        // Given: a backup that sets a hook, which is not taken without --trust
        let sandbox = try Sandbox()
        let file = sandbox.folder.appendingPathComponent("hook.json")
        try Data(
            #"{"format":"praykit-backup","version":1,"preferences":{"notify-hook":"/bin/true"},"prayerLog":[]}"#.utf8
        ).write(to: file)
        // When
        let result = try await sandbox.run(["import", file.path])
        // Then: the warning reaches standard error (it was buffered and lost at exit)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Warning: the backup sets notify-hook"), "\(result.stderr)")
    }
}
