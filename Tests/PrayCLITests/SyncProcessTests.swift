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
    @Suite(.tags(.process, .binary, .server), .serialized, .needsMicroHTTPD) struct SyncProcessTests {
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
            // An opening of qada on both homes (the later wins; the same count), so that make-ups fit.
            for home in [laptop, desktop] {
                let result = try await home.run(["qada", "set", "all", "500", "--date", "2026-11-01"])
                #expect(result.status == 0, "\(result.stderr)")
            }
            proxy.setFaults([.resetBeforeForwarding: 0.15, .delay: 0.1, .dropAnswer: 0.2, .forwardTwice: 0.2])
            var outputs: [String] = []
            for step in 0..<24 {
                let home = Bool.random(using: &random) ? laptop : desktop
                let day = Self.days.randomElement(using: &random)!
                let prayer = Prayer.obligatory.randomElement(using: &random)!.rawValue
                let arguments: [String]
                // The first four steps announce a month's start, import a mosque's timetable, record
                // make-ups and a fast, so that every seed has them to compare.
                let choice = Int.random(in: 0..<14, using: &random)
                switch step < 4 ? 10 + step : choice {
                case 0..<5:
                    let status = ["prayed", "late", "missed", "qada"].randomElement(using: &random)!
                    arguments =
                        ["log", "record", "--prayer", prayer, "--status", status, "--date", day]
                        + (Bool.random(using: &random) ? ["--note", "step \(step)"] : [])
                case 5..<7: arguments = ["log", "delete", "--prayer", prayer, "--date", day]
                case 7..<9:
                    let method = ["umm-al-qura", "mwl", "egyptian", "isna", "karachi"].randomElement(using: &random)!
                    arguments = ["config", "set", "method", method]
                case 10:
                    // An announced start of Ramadan 1448 (the calendar's is 2027-02-08; a day later would make
                    // Sha'ban 31 days long).
                    let start = ["2027-02-07", "2027-02-08"].randomElement(using: &random)!
                    arguments = ["hijri", "set-start", "1448-09", start]
                case 11:
                    // The mosque's timetable for some days of the plan, imported again with other times.
                    let fajr = Int.random(in: 10...59, using: &random)
                    let rows = Self.days.prefix(Int.random(in: 1...9, using: &random)).map { "\($0),06:\(fajr),12:00" }
                    let file = home.folder.path("mosque-\(step).csv")
                    try Data((["date,fajr,dhuhr"] + rows).joined(separator: "\n").utf8).write(
                        to: URL(fileURLWithPath: file))
                    arguments = [
                        "timetable", "import", file, "--mosque", "East London Mosque", "--lat", "51.5176", "--lon",
                        "-0.0654", "--tz", "Europe/London",
                    ]
                case 12:
                    // Make-ups of a prayer the opening (set on both homes before) owes plenty of.
                    arguments = ["qada", "record", prayer, String(Int.random(in: 1...3, using: &random))]
                case 13:
                    // A fast made up on one of the days (none of them in Ramadan).
                    arguments = ["fast", "record", "--date", day, "--status", "made-up"]
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
            // The mosque, chosen on the laptop, is the desktop's too (its times are compared below).
            let chosen = try await laptop.run(["config", "set", "mosque", "East London Mosque"])
            #expect(chosen.status == 0, "\(chosen.stderr)")
            for home in [desktop, laptop] {
                let result = try await home.run(["sync", "now"])
                #expect(result.status == 0, "\(result.stderr)")
            }
            let state = try await laptop.syncedState()
            #expect(try await desktop.syncedState() == state, "seed \(seed)")
            #expect(state.log.contains("\"prayer\""), "the plan left entries to compare: \(state.log)")
            // The mosque's fajr (06:10 to 06:59) replaced the calculated one (05:48 on 2026-11-20).
            #expect(state.kept.contains("1448-09") && state.kept.contains("T06:"), "\(state.kept)")
            #expect(state.kept.contains("\"made-up/"), "the plan left make-ups to compare: \(state.kept)")
            #expect(state.kept.contains("\"status\": \"made-up\""), "the plan left a fast to compare: \(state.kept)")
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

        @Test(.tags(.faketime), .needsFaketime) func clocksSixHoursOffUnderFaketimeKeepCausalOrder() async throws {
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
#endif
