import Foundation
import PrayCore
import PrayMocks
import Testing

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(CCurl)
    /// Live updates between real processes (SYNC.md §9): `praykit sync watch` on one home hears a change
    /// made on another through a real server, `sync status` says "live" while it runs, a stream that the
    /// server ends (a restart) is opened again and what changed meanwhile arrives (I18), and SIGTERM ends
    /// the watch with 0. Order of events, never durations: each wait is for a line that must come.
    @Suite(.tags(.process, .binary, .server), .serialized, .needsMicroHTTPD) struct SyncLiveProcessTests {
        /// The JSON objects a watch wrote so far.
        static func events(_ text: String) -> [[String: Any]] {
            text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        /// Waits until the watch's output holds `count` events named `name` (or it ended, or two minutes,
        /// a guard against a hang); the events.
        static func wait(
            for name: String, count: Int = 1, in watch: PraykitProcess.Running
        ) async throws -> [[String: Any]] {
            let guardTime = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < guardTime, watch.process.isRunning {
                let events = events(try watch.output())
                if events.filter({ $0["event"] as? String == name }).count >= count { return events }
                try await Task.sleep(for: .milliseconds(20))
            }
            return events(try watch.output())
        }

        @Test func aChangeOnOneHomeArrivesAtAWatchingOneAndAReconnectMissesNothing() async throws {
            let server = try await SyncServer.start()
            defer { server.stop() }
            let (laptop, desktop) = try await Home.laptopAndDesktop(loggedInTo: server)
            let watch = try PraykitProcess.Running(
                ["sync", "watch", "--format", "json"], environment: desktop.environment)
            defer { watch.kill() }
            var events = try await Self.wait(for: "connected", in: watch)
            #expect(events.first?["event"] as? String == "connected", "\(events)")
            let status = try await desktop.run(["sync", "status"])
            #expect(status.stdout.contains("Live: yes"), "\(status.stdout)")
            // The laptop records a prayer: the desktop's watch pulls it without being asked.
            #expect(try await laptop.record("fajr", "prayed", on: "2026-12-01") == 0)
            events = try await Self.wait(for: "arrived", in: watch)
            #expect(events.contains { $0["event"] as? String == "arrived" && $0["received"] as? Int == 1 }, "\(events)")
            #expect(try await desktop.statuses(on: "2026-12-01")["fajr"] == "prayed")
            // The server restarts: the stream closes, is opened again, and a change made while it was
            // closed arrives with the first pull of the new stream.
            try await server.restart()
            #expect(try await laptop.record("dhuhr", "prayed", on: "2026-12-01") == 0)
            events = try await Self.wait(for: "connected", count: 2, in: watch)
            #expect(events.contains { $0["event"] as? String == "disconnected" }, "\(events)")
            events = try await Self.wait(for: "arrived", count: 2, in: watch)
            #expect(try await desktop.statuses(on: "2026-12-01")["dhuhr"] == "prayed", "\(events)")
            // SIGTERM ends the watch cleanly, and nobody holds the stream any more.
            kill(watch.process.processIdentifier, SIGTERM)
            let ended = try await watch.wait(deadline: 120)
            #expect(!watch.wasKilled && ended.status == 0, "\(ended.stderr)")
            let after = try await desktop.run(["sync", "status", "--format", "json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
            #expect(object["liveSince"] is NSNull, "\(after.stdout)")
        }
    }
#endif
