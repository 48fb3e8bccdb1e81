import Foundation
import PrayCore
import PrayMocks
import PrayServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Real `praykit serve` and `praykit sync watch` processes: Linux only, where the server and curl are linked.
#if canImport(CCurl)
    /// Live updates through faults, between real processes (SYNC.md §9, I18): `praykit sync watch` on a
    /// home whose stream is cut in the middle of an event, whose server is killed (SIGKILL) while it
    /// holds 500 other streams, whose clock is six hours off, and whose server is flooded with 2,000
    /// connections from another address; after each, the change made meanwhile by another home arrives
    /// with the pull of the reconnect, and no stream is left open on the server for a connection that is
    /// gone. Seeded (where the cut falls); nothing measures time: each wait is for what must come.
    @Suite(.tags(.process, .binary, .server), .serialized, .needsMicroHTTPD) struct SyncLiveFaultTests {
        /// Pairs `count` devices of a user of their own directly in the server's SQLite store; their
        /// tokens.
        static func devices(_ count: Int, store path: String) throws -> [String] {
            let store = SyncStoreSQLite(path: path, log: .silent)
            var code = try store.addUser(named: "crowd", now: Date()).code
            var tokens: [String] = []
            for index in 0..<count {
                if index > 0 { code = try store.newPairingCode(forUser: "crowd", now: Date()).code }
                tokens.append(
                    try store.pair(
                        SyncAPI.PairRequest(code: code, deviceName: "crowd \(index)"), address: "127.0.0.1", now: Date()
                    ).token)
            }
            return tokens
        }

        /// Starts `praykit sync watch --format json` as `home`, on its shifted clock when it has one.
        static func watch(_ home: Home) throws -> PraykitProcess.Running {
            let arguments = ["sync", "watch", "--format", "json"]
            guard let faketime = home.faketime else {
                return try PraykitProcess.Running(arguments, environment: home.environment)
            }
            return try PraykitProcess.Running(
                arguments, environment: home.environment.merging(FakeTime.environment(faketime)) { $1 })
        }

        @Test func aCutStreamAndAServerKilledWith500StreamsOpenLoseNoChange() async throws {
            let seed = SeededGenerator.seed(default: 0x37_C0_7)
            // Given: a server (its 500 streams below all come from 127.0.0.1), a laptop, and a desktop that
            // watches through a relay that can cut its stream
            let server = try await SyncServer.start(arguments: ["--max-connections-per-address", "0"])
            defer { server.stop() }
            let proxy = try StreamProxy(upstream: server.port, seed: seed)
            defer { proxy.stop() }
            let laptop = try Home("laptop")
            let desktop = try Home("desktop")
            try await laptop.login(server)
            try await desktop.login(server, url: proxy.url.absoluteString)
            let watch = try Self.watch(desktop)
            defer { watch.kill() }
            var events = try await SyncLiveProcessTests.wait(for: "connected", in: watch)
            #expect(events.contains { $0["event"] as? String == "connected" }, "\(events), seed \(seed)")
            // And 500 more streams, four for each of 125 devices
            let crowd = try StreamCrowd.streams(
                port: server.port, tokens: try Self.devices(125, store: server.storePath), perDevice: 4)
            defer { crowd.close() }
            #expect(try await crowd.wait { $0.began == 500 }, "\(crowd.began) of 500 streams began")
            // When: the desktop's stream is cut in the middle of the event of the laptop's change
            proxy.cutNextEvent()
            #expect(try await laptop.record("fajr", "prayed", on: "2026-12-01") == 0)
            // Then: the watch notices, opens its stream again, and the pull of the reconnect brings it
            events = try await SyncLiveProcessTests.wait(for: "arrived", in: watch)
            #expect(proxy.cuts == 1, "seed \(seed)")
            #expect(events.contains { $0["event"] as? String == "disconnected" }, "\(events), seed \(seed)")
            #expect(events.filter { $0["event"] as? String == "connected" }.count == 2, "\(events), seed \(seed)")
            #expect(try await desktop.statuses(on: "2026-12-01")["fajr"] == "prayed", "seed \(seed)")
            // When: the server is killed with the 500 streams and the desktop's open, the laptop records
            // while it is down (kept in its outbox), and the server starts again
            try await server.crash()
            #expect(try await crowd.wait { $0.ended == 500 }, "\(crowd.ended) of 500 streams ended")
            #expect(try await laptop.record("dhuhr", "prayed", on: "2026-12-01") == 0)
            try await server.restart()
            #expect(try await laptop.syncNow() == 0)
            // Then: the watch is back, and the change made while the server was down arrives
            events = try await SyncLiveProcessTests.wait(for: "arrived", count: 2, in: watch)
            #expect(events.filter { $0["event"] as? String == "connected" }.count >= 3, "\(events)")
            #expect(try await desktop.statuses(on: "2026-12-01")["dhuhr"] == "prayed", "\(events)")
            // SIGTERM ends the watch cleanly.
            kill(watch.process.processIdentifier, SIGTERM)
            let ended = try await watch.wait(deadline: 120)
            #expect(!watch.wasKilled && ended.status == 0, "\(ended.stderr)")
            #expect(!(ended.stdout + ended.stderr + server.stop()).contains("pkd_"))
        }

        @Test(.tags(.faketime), .needsFaketime)
        func twoThousandConnectionsFromOneAddressLeaveAWatchSixHoursOffUnaffected() async throws {
            // Given: a server that keeps idle connections for ten minutes, a laptop, and a desktop whose
            // clock is six hours behind, watching
            let server = try await SyncServer.start(arguments: ["--timeout", "600"])
            defer { server.stop() }
            let laptop = try Home("laptop")
            let desktop = try Home("desktop", faketime: "-6h")
            try await laptop.login(server)
            try await desktop.login(server)
            let watch = try Self.watch(desktop)
            defer { watch.kill() }
            var events = try await SyncLiveProcessTests.wait(for: "connected", in: watch)
            #expect(events.contains { $0["event"] as? String == "connected" }, "\(events)")
            // When: 2,000 connections come from 127.0.0.2 (the limit is 256 an address)
            let flood = try StreamCrowd.connections(port: server.port, count: 2_000, from: "127.0.0.2")
            defer { flood.close() }
            #expect(try await flood.wait { $0.ended >= 2_000 - 256 }, "\(flood.ended) of 2,000 refused")
            // Then: those past the limit were closed at once and the others kept
            #expect(flood.ended == 2_000 - 256, "\(flood.ended) of 2,000 refused")
            // And the desktop, from another address, still hears the laptop's change and pulls it
            #expect(try await laptop.record("asr", "prayed", on: "2026-12-01") == 0)
            events = try await SyncLiveProcessTests.wait(for: "arrived", in: watch)
            #expect(events.contains { $0["event"] as? String == "arrived" }, "\(events)")
            #expect(try await desktop.statuses(on: "2026-12-01")["asr"] == "prayed", "\(events)")
            #expect(!events.contains { $0["event"] as? String == "disconnected" }, "\(events)")
        }
    }
#endif
