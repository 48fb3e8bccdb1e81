import Foundation
import PrayCore
import PrayMocks
import Testing

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(CCurl)
    /// `praykit mqtt` on a screen that follows a mosque (SYNC.md §8): the mosque's iqama, moved by its
    /// owner on another device, reaches the broker through sync's live updates, which the daemon runs
    /// beside itself. The screen's clock is set by `faketime` to a day of the mosque's timetable; nothing
    /// is timed: each step waits for the message it expects, with a hang guard.
    @Suite(.tags(.process, .binary, .server, .faketime), .serialized, .needsMicroHTTPD, .needsMQTT)
    struct MQTTSyncTests {
        /// `praykit` as `home`, which must succeed.
        @discardableResult
        func run(_ home: Home, _ arguments: [String]) async throws -> String {
            let result = try await home.run(arguments)
            guard result.status == 0 else {
                throw TestFailure("\(home.name): praykit \(arguments.joined(separator: " ")): \(result.stderr)")
            }
            return result.stdout
        }

        @Test func aMosquesIqamaMovedByItsOwnerReachesTheBroker() async throws {
            // Given: a mosque published by its owner, with asr's iqama 10 minutes after the adhan…
            let server = try await SyncServer.start()
            defer { server.stop() }
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
            // …a screen that follows it, publishing to a broker on the timetable's Friday
            let screen = try Home("screen")
            let followed = try await screen.run([
                "mosque", "follow", code, "--server", server.url, "--device-name", "door",
            ])
            #expect(followed.status == 0, "\(followed.stderr)")
            let broker = try MosquittoBroker.start()
            let asrIqama = try broker.subscribe("praykit/door/time/asr_iqama")
            let daemon = try PraykitProcess.Running(
                [
                    "2026-12-04 10:00:00", PraykitProcess.executable.path, "mqtt", "--broker", broker.url, "--id",
                    "door",
                ],
                environment: screen.environment, executable: URL(fileURLWithPath: "/usr/bin/faketime"))
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
            for child in ChildProcesses.children(of: daemon.process.processIdentifier) { kill(child, SIGTERM) }
            let result = try await daemon.wait(deadline: 120)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("MQTT publisher stopped by a signal"))
        }
    }
#endif
