import Foundation
import PrayCore
import PrayMocks
import PrayServer

#if canImport(Glibc)
    import Glibc
#endif

// The processes of the sync tests (SyncProcessTests, SyncMultiServerTests, SyncMigrationProcessTests): a
// server, devices and what they show. Linux only, where the server and curl are linked.
#if canImport(CCurl)

    /// `praykit serve --sync-store …` on a loopback port: over a SQLite store in a folder of its own, or
    /// over a PostgreSQL database that several servers share.
    final class SyncServer: @unchecked Sendable {
        let folder: TestFolder
        /// The `--sync-store` argument (another after ``restart(crashPoint:store:)`` with one).
        private(set) var store: String
        /// More options of `praykit serve` (`--timeout 600`), kept across restarts.
        let arguments: [String]
        private(set) var process: PraykitProcess.Running
        private(set) var port: Int
        private var logs: [String] = []
        private var ended = false

        var url: String { "http://127.0.0.1:\(port)" }
        /// The file of the SQLite store a server started without a store of its own has.
        var storePath: String { folder.path("server/sync.sqlite") }

        private init(
            folder: TestFolder, store: String, arguments: [String], process: PraykitProcess.Running, port: Int
        ) {
            self.folder = folder
            self.store = store
            self.arguments = arguments
            self.process = process
            self.port = port
        }

        /// Starts a server on a free port, over `store` (a `--sync-store` argument), else over a new
        /// SQLite store, with more options of `praykit serve` when given.
        static func start(store: String? = nil, arguments: [String] = []) async throws -> SyncServer {
            let folder = try TestFolder("sync-server")
            let store = store ?? "sqlite:" + folder.path("server/sync.sqlite")
            let (process, port) = try await launch(store: store, port: 0, crashPoint: nil, arguments: arguments)
            return SyncServer(folder: folder, store: store, arguments: arguments, process: process, port: port)
        }

        private static func launch(store: String, port: Int, crashPoint: String?, arguments: [String]) async throws
            -> (PraykitProcess.Running, Int)
        {
            var environment = ["PRAYKIT_LOG_LEVEL": "debug"]
            environment["PRAYKIT_CRASH_POINT"] = crashPoint
            let process = try PraykitProcess.Running(
                ["serve", "--port", String(port), "--threads", "2", "--sync-store", store] + arguments,
                environment: environment)
            let line = try await process.firstLine()
            guard let match = line.firstMatch(of: /^Listening on http:\/\/127\.0\.0\.1:([0-9]+)\n$/),
                let chosen = Int(match.1)
            else {
                process.kill()
                let result = try await process.wait()
                throw TestFailure("the server did not start: \(line) \(result.stderr)")
            }
            return (process, chosen)
        }

        /// A new pairing code for `user` (made on first use), straight from the store.
        func code(for user: String = "amina") throws -> String {
            let store: any SyncStore
            if self.store.hasPrefix("sqlite:") {
                store = SyncStoreSQLite(path: String(self.store.dropFirst("sqlite:".count)), log: .silent)
            } else {
                #if canImport(CPostgres)
                    store = SyncStorePostgres(url: self.store, connections: 1, log: .silent)
                #else
                    throw TestFailure("this build has no PostgreSQL store")
                #endif
            }
            if try store.users().contains(where: { $0.name == user }) {
                return try store.newPairingCode(forUser: user, now: Date()).code
            }
            return try store.addUser(named: user, now: Date()).code
        }

        /// Stops the server (if it runs) and starts it again on the same port, on the same store or on
        /// `store` (a `--sync-store` value).
        func restart(crashPoint: String? = nil, store: String? = nil) async throws {
            _ = stop()
            if let store { self.store = store }
            (process, port) = try await Self.launch(
                store: self.store, port: port, crashPoint: crashPoint, arguments: arguments)
            ended = false
        }

        /// Whether the server ended by SIGKILL (its crash point), waiting for it to end.
        func waitUntilKilled() async throws -> Bool {
            let result = try await process.wait(deadline: 60)
            ended = true
            logs.append(result.stderr)
            return process.wasKilled
        }

        /// Kills the server with SIGKILL (as a crash would) and waits for it to end.
        func crash() async throws {
            process.kill()
            _ = try await waitUntilKilled()
        }

        /// Whether the server process is still running (it ends at an armed crash point).
        var isRunning: Bool { !ended && process.process.isRunning }

        /// Stops the server with SIGTERM (it drains and exits) and returns everything it logged.
        @discardableResult
        func stop() -> String {
            if !ended {
                ended = true
                if process.process.isRunning { kill(process.process.processIdentifier, SIGTERM) }
                if let result = try? process.waitBlocking(deadline: 30) { logs.append(result.stderr) }
            }
            return logs.joined(separator: "\n")
        }
    }

    /// One device: a `praykit` database of its own, a machine identity of its own, and optionally a
    /// clock shifted by libfaketime (``FakeTime``; `faketime` is its specification, as `faketime -f` takes it).
    struct Home {
        let name: String
        let folder: TestFolder
        let faketime: String?

        init(_ name: String, faketime: String? = nil) throws {
            self.name = name
            self.faketime = faketime
            folder = try TestFolder("sync-home-\(name)")
            try FileManager.default.createDirectory(atPath: folder.path("home"), withIntermediateDirectories: true)
            try Data("machine-\(name)-\(UUID().uuidString)\n".utf8).write(
                to: folder.url.appendingPathComponent("machine-id"))
        }

        var database: String { folder.path("praykit.sqlite") }

        /// Its own database, machine identity and home folders (HOME and the XDG folders inside its
        /// folder), so that no device reads another's files or the developer's.
        var environment: [String: String] {
            [
                "PRAYKIT_DATABASE": database, "PRAYKIT_MACHINE_ID_FILE": folder.path("machine-id"), "TZ": "UTC",
                "PRAYKIT_LOG_LEVEL": "debug", "HOME": folder.path("home"),
                "XDG_DATA_HOME": folder.path("home/.local/share"), "XDG_CONFIG_HOME": folder.path("home/.config"),
                "XDG_STATE_HOME": folder.path("home/.local/state"), "XDG_CACHE_HOME": folder.path("home/.cache"),
            ]
        }

        /// Runs `praykit` as this device (on a shifted clock, ``FakeTime``, when it has one).
        func run(_ arguments: [String], crashPoint: String? = nil) async throws -> PraykitProcess.Result {
            var environment = environment
            environment["PRAYKIT_CRASH_POINT"] = crashPoint
            if let faketime {
                let result = try await Shell.run(
                    PraykitProcess.executable.path, arguments,
                    environment: environment.merging(FakeTime.environment(faketime)) { $1 })
                return PraykitProcess.Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
            }
            return try await PraykitProcess.run(arguments, environment: environment)
        }

        /// `praykit log record` of one prayer on `day`; its exit status.
        func record(_ prayer: String, _ status: String, on day: String) async throws -> Int32 {
            try await run(["log", "record", "--prayer", prayer, "--status", status, "--date", day]).status
        }

        /// `praykit sync now`; its exit status.
        func syncNow() async throws -> Int32 { try await run(["sync", "now"]).status }

        /// Runs `praykit` with a crash point armed; whether it died by SIGKILL.
        func runKilled(_ arguments: [String], crashPoint: String) async throws -> Bool {
            var environment = environment
            environment["PRAYKIT_CRASH_POINT"] = crashPoint
            let process = try PraykitProcess.Running(arguments, environment: environment)
            _ = try await process.wait(deadline: 60)
            return process.wasKilled
        }

        /// Two homes, a laptop and a desktop, logged in to `server` (or through `url`).
        static func laptopAndDesktop(loggedInTo server: SyncServer, url: String? = nil) async throws -> (Home, Home) {
            let laptop = try Home("laptop")
            let desktop = try Home("desktop")
            try await laptop.login(server, url: url)
            try await desktop.login(server, url: url)
            return (laptop, desktop)
        }

        /// Logs in to `server` (or through `url`) with a new code.
        func login(_ server: SyncServer, url: String? = nil) async throws {
            let result = try await run([
                "sync", "login", "--server", url ?? server.url, "--code", try server.code(), "--device-name", name,
            ])
            guard result.status == 0 else { throw TestFailure("\(name) did not log in: \(result.stderr)") }
        }

        /// The device's token, from its private file.
        func token() throws -> String {
            String(decoding: try TestFile.contents(of: URL(fileURLWithPath: database + ".sync-token")), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// What sync keeps the same everywhere: the log (as JSON, notes and recording times included)
        /// and the settings.
        func syncedState() async throws -> SyncedState {
            let log = try await run(["log", "list", "--from", "2026-11-01", "--to", "2026-11-30", "--format", "json"])
            let settings = try await run(["config", "list"])
            let starts = try await run(["hijri", "starts", "--format", "json"])
            let mosques = try await run(["timetable", "list", "--format", "json"])
            // A mosque's days themselves, not only how many: its times for the days the plan imports.
            let times = try await run([
                "times", "--lat", "51.5176", "--lon", "-0.0654", "--tz", "Europe/London", "--date", "2026-11-20",
                "--days", "9", "--format", "csv",
            ])
            let qada = try await run(["qada", "history", "--format", "json"])
            let fasts = try await run([
                "fast", "list", "--from", "2026-11-01", "--through", "2026-11-30", "--format", "json",
            ])
            for result in [log, settings, starts, mosques, times, qada, fasts] where result.status != 0 {
                throw TestFailure("\(name): \(result.stderr)")
            }
            return SyncedState(
                log: log.stdout, settings: settings.stdout,
                kept: [starts.stdout, mosques.stdout, times.stdout, qada.stdout, fasts.stdout].joined(separator: "\n"))
        }

        /// The entries of `praykit log list --format json` on `day`; a failed command is an error
        /// that says why (its status and standard error), not an empty log.
        func logEntries(on day: String) async throws -> [[String: Any]] {
            let result = try await run(["log", "list", "--from", day, "--to", day, "--format", "json"])
            guard result.status == 0 else {
                throw TestFailure("\(name): log list exited \(result.status): \(result.stderr)")
            }
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        }

        /// When the entry of `prayer` on `day` was recorded, by this device's log.
        func recordedAt(of prayer: String, on day: String) async throws -> Date {
            let entries = try await logEntries(on: day)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let text = entries.first(where: { $0["prayer"] as? String == prayer })?["recordedAt"] as? String,
                let date = formatter.date(from: text)
            else { throw TestFailure("\(name) has no \(prayer) on \(day): \(entries)") }
            return date
        }

        /// The status of each prayer logged on `day`.
        func statuses(on day: String) async throws -> [String: String] {
            let entries = try await logEntries(on: day)
            var statuses: [String: String] = [:]
            for entry in entries {
                if let prayer = entry["prayer"] as? String { statuses[prayer] = entry["status"] as? String }
            }
            return statuses
        }
    }

    /// The synced part of a home, as `praykit` prints it.
    struct SyncedState: Equatable, CustomStringConvertible {
        let log: String
        let settings: String
        /// The announced month starts, the mosques kept and the times they give, the qada entries, the
        /// fasts.
        let kept: String

        var description: String { log + "\n" + settings + "\n" + kept }
    }

    /// A failure in a test's own set-up.
    struct TestFailure: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) { self.description = description }
    }
#endif
