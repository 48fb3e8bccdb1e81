import Foundation
import PrayCore
import PrayMocks
import Testing

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(CCurl)
    /// What a screen that follows a mosque (SYNC.md §8) shows when the mosque's owner moves an iqama on
    /// another device: `praykit mqtt` publishes it to the broker, and `praykit next --watch` writes a
    /// line with it, each through sync's live updates, which they hold beside themselves. The screen's
    /// clock is set by libfaketime (`FakeTime`) to a day of the mosque's timetable; nothing is timed: each step waits
    /// for the message or line it expects, with a hang guard.
    @Suite(.tags(.process, .binary, .server, .faketime), .serialized, .needsMicroHTTPD, .needsFaketime)
    struct LiveMosqueFollowTests {
        /// `praykit` as `home`, which must succeed.
        @discardableResult
        func run(_ home: Home, _ arguments: [String]) async throws -> String {
            let result = try await home.run(arguments)
            guard result.status == 0 else {
                throw TestFailure("\(home.name): praykit \(arguments.joined(separator: " ")): \(result.stderr)")
            }
            return result.stdout
        }

        /// A sync server, a mosque its owner publishes with asr's iqama 10 minutes after the adhan, and a
        /// screen that follows it with a viewer's code.
        func mosqueAndScreen() async throws -> (server: SyncServer, owner: Home, screen: Home) {
            let server = try await SyncServer.start()
            let owner = try Home("owner")
            let file = owner.folder.path("elm.csv")
            try Data(SyncSpaceProcessTests.timetable.utf8).write(to: URL(fileURLWithPath: file))
            try await run(owner, ["config", "set", "city", "London"])
            try await run(owner, ["timetable", "import", file, "--mosque", "East London Mosque"])
            try await owner.login(server)
            try await run(owner, ["mosque", "create", "East London Mosque"])
            try await run(owner, ["mosque", "set", "East London Mosque", "--iqama", "asr=+10", "--jumuah", "12:30"])
            try await run(owner, ["sync", "now"])
            let invitation = try await run(owner, ["mosque", "invite", "East London Mosque", "--role", "viewer"])
            let code = try #require(invitation.firstMatch(of: /[A-Z0-9]{5}-[A-Z0-9]{5}/).map { String($0.output) })
            let screen = try Home("screen")
            try await run(screen, ["mosque", "follow", code, "--server", server.url, "--device-name", "door"])
            return (server, owner, screen)
        }

        /// `praykit` as `home` on a clock from `start` (``FakeTime``), running until stopped.
        static func daemon(_ home: Home, from start: String, _ arguments: [String]) throws -> PraykitProcess.Running {
            try PraykitProcess.Running(
                arguments, environment: home.environment.merging(FakeTime.environment(from: start)) { $1 })
        }

        /// Ends a process with SIGTERM, and waits for it.
        static func stop(_ process: PraykitProcess.Running) async throws -> PraykitProcess.Result {
            kill(process.process.processIdentifier, SIGTERM)
            return try await process.wait(deadline: 120)
        }

        @Test(.needsMQTT) func theMQTTPublisherPublishesAnIqamaTheOwnerMoved() async throws {
            // Given: the screen publishing to a broker on the timetable's Friday
            let (server, owner, screen) = try await mosqueAndScreen()
            defer { server.stop() }
            let broker = try MosquittoBroker.start()
            let asrIqama = try broker.subscribe("praykit/door/time/asr_iqama")
            let daemon = try Self.daemon(
                screen, from: "2026-12-04 10:00:00", ["mqtt", "--broker", broker.url, "--id", "door"])
            defer { ChildProcesses.killTree(daemon.process.processIdentifier) }
            try await asrIqama.wait("the mosque's asr iqama") { $0.last?.payload == "2026-12-04T13:50:00+00:00" }
            // When: the owner moves it to 15 minutes after the adhan
            try await run(owner, ["mosque", "set", "East London Mosque", "--iqama", "asr=+15"])
            // Then: the screen's daemon publishes the new iqama, brought by sync while it runs.
            try await asrIqama.wait("the moved asr iqama") { $0.last?.payload == "2026-12-04T13:55:00+00:00" }
            // Its device is named after the mosque, and it ends cleanly on SIGTERM.
            let discovery = try broker.subscribe("homeassistant/sensor/door/asr_iqama/config")
            let configuration = try await discovery.wait("the discovery") { !$0.isEmpty }
            #expect(configuration.last?.payload.contains("\"name\":\"PrayKit — East London Mosque\"") == true)
            let result = try await Self.stop(daemon)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("MQTT publisher stopped by a signal"))
        }

        @Test func aStatusBarsWatchShowsAnIqamaTheOwnerMoved() async throws {
            // Given: the screen's status bar at 13:00 on the timetable's Friday: Asr next, iqama 13:50
            let (server, owner, screen) = try await mosqueAndScreen()
            defer { server.stop() }
            let watch = try Self.daemon(screen, from: "2026-12-04 13:00:00", ["next", "--format", "json", "--watch"])
            defer { ChildProcesses.killTree(watch.process.processIdentifier) }
            func iqamas() throws -> [String] {
                try watch.output().split(separator: "\n").compactMap { line in
                    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                    return (object?["next"] as? [String: Any])?["iqama"] as? String
                }
            }
            try await Self.until("the first line") { try iqamas().last == "2026-12-04T13:50:00+00:00" }
            // When: the owner moves asr's iqama
            try await run(owner, ["mosque", "set", "East London Mosque", "--iqama", "asr=+15"])
            // Then: the watch writes a line with the new one, which it pulled itself.
            try await Self.until("a line with the moved iqama") { try iqamas().last == "2026-12-04T13:55:00+00:00" }
            let result = try await Self.stop(watch)
            #expect(result.status == 0, "\(result.stderr)")
        }

        /// Waits until `condition` holds, with a hang guard of two minutes.
        static func until(_ what: String, _ condition: () throws -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(120)
            while try !condition() {
                guard ContinuousClock.now < deadline else { throw TestFailure("\(what) did not come within 120 s") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
#endif
