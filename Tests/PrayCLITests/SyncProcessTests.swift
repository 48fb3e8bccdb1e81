import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Real `praykit serve` and `praykit` processes: Linux only, where the server and curl are linked.
#if canImport(CCurl)
    /// Sync between real processes (SYNC.md §6): two `praykit` homes paired with one `praykit serve
    /// --sync-store sqlite:…` show the same log and settings after `sync now` on each — through a fault
    /// proxy that resets, delays, drops answers and forwards twice; with clients and the server killed
    /// (SIGKILL) at every named crash point; and with a clock six hours off under `faketime`. No token
    /// appears in any output or log. Nothing here measures time: the processes are waited for.
    @Suite(.serialized) struct SyncProcessTests {
        /// Days in the past, so that no clock here makes them "more than a day ahead".
        static let days = (20...28).map { "2026-11-\($0)" }

        // MARK: - Through faults

        @Test func twoHomesShowTheSameLogAndSettingsThroughEveryFault() async throws {
            let seed = SeededGenerator.seed(default: 0x5_1C_0021)
            var random = SeededGenerator(seed: seed)
            let server = try await SyncServer.start()
            defer { server.stop() }
            let proxy = try FaultProxy(upstream: server.port, seed: seed)
            defer { proxy.stop() }
            let (laptop, desktop) = try await Home.laptopAndDesktop(loggedInTo: server, url: proxy.url.absoluteString)
            // When: writes on both homes while the network misbehaves, each followed by its short sync,
            // and some `sync now` that may fail.
            proxy.setFaults([.resetBeforeForwarding: 0.15, .delay: 0.1, .dropAnswer: 0.2, .forwardTwice: 0.2])
            var outputs: [String] = []
            for step in 0..<24 {
                let home = Bool.random(using: &random) ? laptop : desktop
                let day = Self.days.randomElement(using: &random)!
                let prayer = Prayer.obligatory.randomElement(using: &random)!.rawValue
                let arguments: [String]
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    let status = ["prayed", "late", "missed", "qada"].randomElement(using: &random)!
                    arguments =
                        ["log", "record", "--prayer", prayer, "--status", status, "--date", day]
                        + (Bool.random(using: &random) ? ["--note", "step \(step)"] : [])
                case 5..<7: arguments = ["log", "delete", "--prayer", prayer, "--date", day]
                case 7..<9:
                    let method = ["umm-al-qura", "mwl", "egyptian", "isna", "karachi"].randomElement(using: &random)!
                    arguments = ["config", "set", "method", method]
                default: arguments = ["sync", "now"]
                }
                let result = try await home.run(arguments)
                outputs += [result.stdout, result.stderr]
                // A write succeeds whatever the network does; `sync now` may fail, never crash.
                #expect(
                    result.status == 0 || (arguments.first == "sync" && result.status == 1),
                    "\(arguments): \(result.stderr)")
            }
            // Then: once the network heals, two rounds of `sync now` leave both homes the same.
            proxy.heal()
            for home in [laptop, desktop, laptop, desktop] {
                let result = try await home.run(["sync", "now"])
                #expect(result.status == 0, "\(result.stderr)")
                outputs += [result.stdout, result.stderr]
            }
            let state = try await laptop.syncedState()
            #expect(try await desktop.syncedState() == state, "seed \(seed)")
            #expect(state.log.contains("\"prayer\""), "the plan left entries to compare: \(state.log)")
            let counts = proxy.counts
            #expect(counts[.dropAnswer, default: 0] + counts[.forwardTwice, default: 0] > 0, "\(counts)")
            // No token in any output, the server's log included.
            outputs.append(server.stop())
            for token in [try laptop.token(), try desktop.token()] {
                #expect(!outputs.contains { $0.contains(token) })
            }
            #expect(!outputs.contains { $0.contains("pkd_") })
        }

        // MARK: - Crash points

        @Test func aClientKilledAtEveryCrashPointLosesNothing() async throws {
            let server = try await SyncServer.start()
            defer { server.stop() }
            let (laptop, desktop) = try await Home.laptopAndDesktop(loggedInTo: server)
            for (index, point) in [
                "client-write-committed", "client-push-answered", "client-pull-received", "client-pull-applying",
            ].enumerated() {
                // Given: something on the server for the laptop to pull.
                let day = Self.days[index]
                #expect(
                    try await desktop.run(["log", "record", "--prayer", "isha", "--status", "prayed", "--date", day])
                        .status == 0)
                // When: the laptop records, and is killed at the point during the sync after the write —
                // or, should that short sync give up first on a busy machine (it waits 4 s at most), during
                // a `sync now`, whose waits are the full ones.
                var killed = try await laptop.runKilled(
                    ["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", day, "--note", point],
                    crashPoint: point)
                if !killed { killed = try await laptop.runKilled(["sync", "now"], crashPoint: point) }
                #expect(killed, "praykit was not killed at \(point)")
                // Then: the entry is on disk; after `sync now` on each, both homes hold both entries.
                let listed = try await laptop.run(["log", "list", "--from", day, "--to", day, "--format", "json"])
                #expect(listed.stdout.contains("\"note\": \"\(point)\""), "\(point): \(listed.stdout)")
                for home in [laptop, desktop, laptop] {
                    #expect(try await home.run(["sync", "now"]).status == 0, "after \(point)")
                }
                let state = try await laptop.syncedState()
                #expect(try await desktop.syncedState() == state, "after \(point)")
                #expect(state.log.contains("\"note\": \"\(point)\""), "after \(point)")
            }
            let status = try await laptop.run(["sync", "status", "--format", "json"])
            #expect(status.stdout.contains("\"unsynced\": 0,"), "\(status.stdout)")
        }

        @Test func aServerKilledInsideAndAfterAPushLosesNothing() async throws {
            let server = try await SyncServer.start()
            defer { server.stop() }
            let (laptop, desktop) = try await Home.laptopAndDesktop(loggedInTo: server)
            for (index, point) in ["server-push-applying", "server-push-committed"].enumerated() {
                // Given: the server restarted on its port, armed to die in its next push.
                try await server.restart(crashPoint: point)
                let day = Self.days[index]
                // When: the laptop records; its short sync kills the server; the write still succeeds.
                let record = try await laptop.run([
                    "log", "record", "--prayer", "maghrib", "--status", "late", "--date", day,
                ])
                #expect(record.status == 0, "\(record.stderr)")
                // (A `sync now` makes sure a push reaches the server, should the short sync have given up
                // before sending on a busy machine; it fails when the server is already gone.)
                _ = try await laptop.syncNow()
                #expect(try await server.waitUntilKilled(), "the server was not killed at \(point)")
                // Then: after a restart and `sync now` on each, both homes hold the entry, once.
                try await server.restart()
                for home in [laptop, desktop] {
                    #expect(try await home.run(["sync", "now"]).status == 0, "after \(point)")
                }
                let state = try await laptop.syncedState()
                #expect(try await desktop.syncedState() == state, "after \(point)")
                #expect(state.log.components(separatedBy: "\"\(day)\"").count == 2, "after \(point): \(state.log)")
            }
        }

        // MARK: - Clocks

        @Test func clocksSixHoursOffUnderFaketimeKeepCausalOrder() async throws {
            let server = try await SyncServer.start()
            defer { server.stop() }
            let ahead = try Home("ahead", faketime: "+6h")
            let behind = try Home("behind", faketime: "-6h")
            let exact = try Home("exact")
            for home in [ahead, behind, exact] { try await home.login(server) }
            // A clock six hours ahead: its write is stamped by the server's clock (clock_ahead, then
            // stamped again), so a later write elsewhere, made after seeing it, wins.
            let day = Self.days[0]
            #expect(try await ahead.record("fajr", "late", on: day) == 0)
            // (faketime took: the entry was recorded six hours ahead of this machine's clock)
            let recorded = try await ahead.recordedAt(of: "fajr", on: day)
            #expect(recorded > Date().addingTimeInterval(5 * 3600), "\(recorded)")
            #expect(try await ahead.syncNow() == 0)
            #expect(try await exact.syncNow() == 0)
            #expect(try await exact.record("fajr", "qada", on: day) == 0)
            // A clock six hours behind: having pulled the change, its own later write orders after it.
            #expect(try await behind.syncNow() == 0)
            #expect(try await behind.record("isha", "missed", on: day) == 0)
            #expect(try await behind.recordedAt(of: "isha", on: day) < Date().addingTimeInterval(-5 * 3600))
            #expect(try await exact.syncNow() == 0)
            #expect(try await exact.record("isha", "qada", on: day) == 0)
            #expect(try await behind.syncNow() == 0)
            #expect(try await behind.record("isha", "prayed", on: day) == 0)
            for home in [behind, ahead, exact, ahead] { #expect(try await home.syncNow() == 0) }
            let state = try await exact.syncedState()
            #expect(try await ahead.syncedState() == state)
            #expect(try await behind.syncedState() == state)
            let statuses = try await exact.statuses(on: day)
            #expect(statuses == ["fajr": "qada", "isha": "prayed"], "\(state.log)")
        }
    }

    // MARK: - Support

    /// `praykit serve --sync-store sqlite:…` on a loopback port, over a store in a folder of its own.
    final class SyncServer: @unchecked Sendable {
        let folder: TestFolder
        private(set) var process: PraykitProcess.Running
        private(set) var port: Int
        private var logs: [String] = []
        private var ended = false

        var storePath: String { folder.path("server/sync.sqlite") }
        var url: String { "http://127.0.0.1:\(port)" }

        private init(folder: TestFolder, process: PraykitProcess.Running, port: Int) {
            self.folder = folder
            self.process = process
            self.port = port
        }

        /// Starts a server on a free port.
        static func start() async throws -> SyncServer {
            let folder = try TestFolder("sync-server")
            let (process, port) = try await launch(
                storePath: folder.path("server/sync.sqlite"), port: 0, crashPoint: nil)
            return SyncServer(folder: folder, process: process, port: port)
        }

        private static func launch(storePath: String, port: Int, crashPoint: String?) async throws
            -> (PraykitProcess.Running, Int)
        {
            var environment = ["PRAYKIT_LOG_LEVEL": "debug"]
            environment["PRAYKIT_CRASH_POINT"] = crashPoint
            let process = try PraykitProcess.Running(
                ["serve", "--port", String(port), "--threads", "2", "--sync-store", "sqlite:\(storePath)"],
                environment: environment)
            let output = try await process.firstLine()
            let line = output.prefix { $0 != "\n" } + "\n"
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
            let store = SyncStoreSQLite(path: storePath, log: .silent)
            if try store.users().contains(where: { $0.name == user }) {
                return try store.newPairingCode(forUser: user, now: Date()).code
            }
            return try store.addUser(named: user, now: Date()).code
        }

        /// Stops the server (if it runs) and starts it again on the same port and store.
        func restart(crashPoint: String? = nil) async throws {
            _ = stop()
            (process, port) = try await Self.launch(storePath: storePath, port: port, crashPoint: crashPoint)
            ended = false
        }

        /// Whether the server ended by SIGKILL (its crash point), waiting for it to end.
        func waitUntilKilled() async throws -> Bool {
            let result = try await process.wait(deadline: 60)
            ended = true
            logs.append(result.stderr)
            return process.wasKilled
        }

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
    /// clock shifted by `faketime`.
    struct Home {
        let name: String
        let folder: TestFolder
        let faketime: String?

        init(_ name: String, faketime: String? = nil) throws {
            self.name = name
            self.faketime = faketime
            folder = try TestFolder("sync-home-\(name)")
            try Data("machine-\(name)-\(UUID().uuidString)\n".utf8).write(
                to: folder.url.appendingPathComponent("machine-id"))
        }

        var database: String { folder.path("praykit.sqlite") }

        var environment: [String: String] {
            [
                "PRAYKIT_DATABASE": database, "PRAYKIT_MACHINE_ID_FILE": folder.path("machine-id"), "TZ": "UTC",
                "PRAYKIT_LOG_LEVEL": "debug",
            ]
        }

        /// Runs `praykit` as this device (under `faketime` when its clock is shifted).
        func run(_ arguments: [String], crashPoint: String? = nil) async throws -> PraykitProcess.Result {
            var environment = environment
            environment["PRAYKIT_CRASH_POINT"] = crashPoint
            if let faketime {
                let result = try await Shell.run(
                    "/usr/bin/faketime", ["-f", faketime, PraykitProcess.executable.path] + arguments,
                    environment: environment)
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
            guard log.status == 0, settings.status == 0 else {
                throw TestFailure("\(name): \(log.stderr) \(settings.stderr)")
            }
            return SyncedState(log: log.stdout, settings: settings.stdout)
        }

        /// When the entry of `prayer` on `day` was recorded, by this device's log.
        func recordedAt(of prayer: String, on day: String) async throws -> Date {
            let result = try await run(["log", "list", "--from", day, "--to", day, "--format", "json"])
            let entries = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let text = entries.first(where: { $0["prayer"] as? String == prayer })?["recordedAt"] as? String,
                let date = formatter.date(from: text)
            else { throw TestFailure("\(name) has no \(prayer) on \(day): \(result.stdout)") }
            return date
        }

        /// The status of each prayer logged on `day`.
        func statuses(on day: String) async throws -> [String: String] {
            let result = try await run(["log", "list", "--from", day, "--to", day, "--format", "json"])
            let entries = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
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

        var description: String { log + "\n" + settings }
    }

    /// A failure in a test's own set-up.
    struct TestFailure: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) { self.description = description }
    }
#endif
