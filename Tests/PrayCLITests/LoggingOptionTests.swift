import Foundation
import PrayMocks
import Testing

/// `--log-level`, `PRAYKIT_LOG_LEVEL` and `--log-file`, on the built binary.
@Suite(.tags(.process, .binary)) struct LoggingOptionTests {
    let tromso = [
        "times", "--lat", "69.6492", "--lon", "18.9553", "--tz", "Europe/Oslo", "--date", "2026-06-21",
        "--polar-resolution", "unresolved",
    ]

    @Test func warningsOnlyByDefault() async throws {
        let result = try await PraykitProcess.run(tromso)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
    }

    @Test func theLevelOptionShowsMoreOnStandardError() async throws {
        // Anywhere on the command line: before the subcommand or among its options
        for arguments in [["--log-level", "debug"] + tromso, tromso + ["--log-level=debug"]] {
            let result = try await PraykitProcess.run(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("Place: 69.6492, 18.9553"))
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.contains { $0.contains(" info Some times are unavailable ") && $0.contains("prayer.days=1") })
            #expect(lines.allSatisfy { $0.split(separator: " ").count >= 3 })
        }
    }

    @Test func theEnvironmentSetsTheLevelAndTheOptionWins() async throws {
        let fromEnvironment = try await PraykitProcess.run(tromso, environment: ["PRAYKIT_LOG_LEVEL": "info"])
        #expect(fromEnvironment.stderr.contains(" info "))
        let overridden = try await PraykitProcess.run(
            tromso + ["--log-level", "error"], environment: ["PRAYKIT_LOG_LEVEL": "info"])
        #expect(overridden.stderr.isEmpty)
    }

    @Test func theLogFileReceivesTheEventsInstead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("praykit.log").path
        let database = folder.appendingPathComponent("praykit.sqlite").path
        let environment = ["PRAYKIT_DATABASE": database]
        let first = try await PraykitProcess.run(
            ["--log-file", path, "--log-level", "info", "config", "set", "method", "isna"], environment: environment)
        #expect(first.status == 0)
        #expect(first.stderr.isEmpty)
        let second = try await PraykitProcess.run(
            tromso + ["--log-file=\(path)", "--log-level=info"], environment: environment)
        #expect(second.status == 0)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains(" info Database created storage.path=\(database)") })
        #expect(lines.contains { $0.contains(" info Database migrated ") })
        #expect(lines.contains { $0.contains(" info Some times are unavailable ") })
    }

    @Test(arguments: [
        (
            ["--log-level", "loud", "methods"], [String: String](),
            "Error: --log-level must be one of trace, debug, info"
        ),
        (["methods", "--log-level"], [String: String](), "Error: Missing value for '--log-level <level>'"),
    ])
    func aBadLevelIsAUsageError(arguments: [String], environment: [String: String], message: String) async throws {
        let result = try await PraykitProcess.run(arguments, environment: environment)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(message))
    }

    @Test func aBadLevelInTheEnvironmentIsAWarningNotAFailure() async throws {
        let result = try await PraykitProcess.run(["methods"], environment: ["PRAYKIT_LOG_LEVEL": "loud"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("muslim-world-league"))
        #expect(result.stderr.hasPrefix("Warning: PRAYKIT_LOG_LEVEL 'loud' is not a log level"))
    }

    @Test func aLogFileThatCannotBeOpenedIsARuntimeError() async throws {
        let result = try await PraykitProcess.run(["--log-file", "/nonexistent/folder/praykit.log", "methods"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix("Error: cannot open the log file /nonexistent/folder/praykit.log: No such file"))
    }

    @Test func everyHelpListsTheGlobalOptions() async throws {
        for arguments in [["--help"], ["times", "--help"], ["help", "qibla"]] {
            let result = try await PraykitProcess.run(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.contains("--log-level <level>"))
            #expect(result.stdout.contains("--log-file <path>"))
        }
    }
}
