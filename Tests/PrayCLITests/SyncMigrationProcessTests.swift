import Foundation
import PrayCore
import PrayMocks
import Testing

// Real `praykit serve` and `praykit` processes on a real PostgreSQL: Linux only, where the server,
// curl and libpq are linked.
#if canImport(CCurl) && canImport(CPostgres)
    /// A server moved from SQLite to PostgreSQL with `praykit serve sync migrate` (SYNC.md §5): two
    /// homes that synced with `praykit serve --sync-store sqlite:…` go on syncing with the server
    /// started on the copy, at the same address, with their tokens and cursors: no home logs in again,
    /// no pull is refused as `cursor_expired`, and both converge. Nothing here measures time.
    @Suite(.tags(.process, .binary, .server, .postgres), .needsMicroHTTPD, .needsPostgreSQL)
    struct SyncMigrationProcessTests {
        @Test func homesKeepSyncingWithoutAResetWhenTheServerMovesToPostgreSQL() async throws {
            try await PostgresCluster.with { cluster in
                // Given: two homes syncing through a server on a SQLite store
                let server = try await SyncServer.start()
                defer { server.stop() }
                let (laptop, desktop) = try await Home.laptopAndDesktop(loggedInTo: server)
                #expect(try await laptop.record("fajr", "prayed", on: "2026-11-20") == 0)
                #expect(try await desktop.record("isha", "late", on: "2026-11-21") == 0)
                #expect(try await desktop.run(["config", "set", "madhab", "hanafi"]).status == 0)
                for home in [laptop, desktop, laptop] { #expect(try await home.syncNow() == 0) }
                let before = try await laptop.syncedState()
                #expect(try await desktop.syncedState() == before)
                // When: the server stops, its store is copied into PostgreSQL, and it starts on the copy
                // at the same address
                let sqliteLog = server.stop()
                let url = try cluster.newDatabase()
                let migrated = try await PraykitProcess.run(
                    ["serve", "sync", "migrate", "--from", "sqlite:" + server.storePath, "--to", url])
                #expect(migrated.status == 0, "\(migrated.stderr)")
                #expect(migrated.stdout.hasPrefix("Copied 1 user, 2 devices, "), "\(migrated.stdout)")
                let identity = try #require(
                    migrated.stdout.firstMatch(of: /identity \(([0-9a-f]+)\)/), "\(migrated.stdout)")
                #expect(
                    try cluster.execute("SELECT value FROM store WHERE key = 'id'", in: url)
                        == "\(identity.output.1)\n")
                try await server.restart(store: url)
                // And each home writes more and syncs
                var outputs: [String] = []
                for (home, prayer, day) in [(laptop, "dhuhr", "2026-11-22"), (desktop, "asr", "2026-11-23")] {
                    let result = try await home.run([
                        "log", "record", "--prayer", prayer, "--status", "qada", "--date", day,
                    ])
                    #expect(result.status == 0, "\(result.stderr)")
                    outputs.append(result.stderr)
                }
                for home in [laptop, desktop, laptop] {
                    let result = try await home.run(["sync", "now"])
                    #expect(result.status == 0, "\(home.name): \(result.stderr)")
                    outputs.append(result.stderr)
                }
                // Then: both homes hold the same log and settings, old and new entries alike
                let after = try await laptop.syncedState()
                #expect(try await desktop.syncedState() == after)
                for day in ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23"] {
                    #expect(after.log.contains("\"\(day)\""), "\(day): \(after.log)")
                }
                #expect(after.settings.contains("hanafi"))
                // And no home was told to start over: no 410, no "pulling everything again"
                let postgresLog = String(server.stop().dropFirst(sqliteLog.count))
                #expect(postgresLog.contains("http.path=/sync/v1/pull http.status=200"), "\(postgresLog)")
                #expect(postgresLog.contains("http.path=/sync/v1/push http.status=200"), "\(postgresLog)")
                #expect(!postgresLog.contains("http.status=410") && !postgresLog.contains("cursor_expired"))
                #expect(!postgresLog.contains("http.status=401"), "a token was refused: \(postgresLog)")
                #expect(
                    !outputs.contains { $0.contains("cursor expired") || $0.contains("log in again") }, "\(outputs)")
                for home in [laptop, desktop] {
                    let status = try await home.run(["sync", "status", "--format", "json"])
                    #expect(status.stdout.contains("\"unsynced\": 0,") && status.stdout.contains("\"failed\": 0,"))
                    #expect(status.stdout.contains("\"lastError\": null"), "\(status.stdout)")
                }
                // And the server's rows are the old ones plus the two new
                #expect(
                    try cluster.execute("SELECT COUNT(*) FROM sync_rows WHERE collection = 'log'", in: url) == "4\n")
            }
        }
    }
#endif
