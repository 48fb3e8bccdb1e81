import Foundation
import PrayCore
import PrayMocks
import PrayServer
import Testing

@testable import PrayCLI

/// `praykit serve sync migrate` and `migrate-schema`, in-process: help, usage errors (64), runtime
/// errors (1) and what is printed, on a migrator mock; and `serve --sync-store postgres://…` refusing
/// at start a store whose schema is older or newer than its own, or that takes no writes, on a real
/// throwaway PostgreSQL.
@Suite struct ServeSyncMigrateCommandTests {
    static let postgres = "postgresql:///praykit?host=/run/postgresql"

    /// A dependency whose migrator is `migrator`.
    func dependency(_ migrator: SyncStoreMigratorMock) -> PrayDependencyMock {
        var dependency = CLI.dependency()
        dependency.storeMigrator = migrator
        return dependency
    }

    // MARK: - migrate

    @Test func migrateHelpSaysWhatIsKeptAndHowToRunIt() async {
        let help = await CLI.run(["serve", "sync", "migrate", "--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        for text in [
            "USAGE: praykit serve sync migrate --from <store> [<options>]", "--from <store>", "--to <store>",
            "--sync-store-file", "PRAYKIT_SYNC_DATABASE_URL",
            "keep their cursors", "Stop the server first", "one transaction", "~/.pgpass", "EXAMPLES:",
            "praykit serve sync migrate --from sqlite:/var/lib/praykit/sync.sqlite",
        ] {
            #expect(help.stdout.contains(text), "\(text): \(help.stdout)")
        }
        let group = await CLI.run(["serve", "sync", "--help"])
        #expect(group.stdout.contains("migrate-schema") && group.stdout.contains("migrate "), "\(group.stdout)")
    }

    @Test func migrateCopiesThroughTheContainerAndReportsTheCounts() async throws {
        // Given: a migrator that reports a copy, with progress
        let migrator = SyncStoreMigratorMock()
        migrator.onCopy { arguments in
            arguments.progress(SyncStoreCopyProgress(copied: 12_000, total: 12_400))
            var report = SyncStoreCopyReport()
            (report.users, report.devices, report.rows, report.clients) = (3, 7, 12_345, 1)
            (report.recentMutations, report.pairingCodes, report.failures) = (40, 2, 0)
            report.storeID = "0123abcd4567ef89"
            return report
        }
        // When
        let result = await CLI.run(
            ["serve", "sync", "migrate", "--from", "sqlite:/srv/sync.sqlite", "--to", Self.postgres],
            dependency: dependency(migrator))
        // Then: the locations as given, the counts grouped, the identity kept; no progress line off a terminal
        #expect(result.status == 0, "\(result.stderr)")
        let call = try #require(migrator.copyCalls.first)
        #expect(call.source == .sqlite(path: "/srv/sync.sqlite") && call.destination == .postgreSQL(url: Self.postgres))
        #expect(
            result.stdout.hasPrefix(
                "Copied 3 users, 7 devices, 12,345 rows, 1 client, 40 recent mutations, 2 pairing codes and 0 failure "
                    + "counts\nfrom sqlite:/srv/sync.sqlite to \(Self.postgres).\n"), "\(result.stdout)")
        #expect(result.stdout.contains("identity (0123abcd4567ef89): devices keep their cursors"))
        #expect(result.stdout.contains("praykit serve --sync-store '\(Self.postgres)'"))
        #expect(result.stderr.isEmpty)
    }

    @Test func migrateUsageErrorsCopyNothing() async {
        let cases: [([String], String)] = [
            (["--from", "sqlite:/srv/sync.sqlite"], "--to is required"),
            (["--to", Self.postgres], "Missing expected argument '--from <store>'"),
            (["--from", Self.postgres, "--to", Self.postgres], "--from must be a SQLite store"),
            (["--from", "sqlite:/a.sqlite", "--to", "sqlite:/b.sqlite"], "--to must be a PostgreSQL URL"),
            (["--from", "sqlite:/a.sqlite", "--to", "postgres://pray:s3cret@db/pray"], "~/.pgpass"),
            (["--from", "mysql://db", "--to", Self.postgres], "--from: "),
        ]
        for (arguments, message) in cases {
            let migrator = SyncStoreMigratorMock()
            let result = await CLI.run(["serve", "sync", "migrate"] + arguments, dependency: dependency(migrator))
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains("s3cret") && migrator.copyCalls.isEmpty)
        }
    }

    @Test func migrateRuntimeErrorsExitOne() async {
        let failures: [(any Error, String)] = [
            (
                SyncStoreError(
                    .notEmpty, message: "postgresql:///praykit already holds 2 users: … nothing was written"),
                "Error: postgresql:///praykit already holds 2 users"
            ),
            (
                StorageError(kind: .other, message: "PostgreSQL: cannot connect: No such file or directory"),
                "Error: nothing was copied: the database failed: PostgreSQL: cannot connect"
            ),
        ]
        for (error, message) in failures {
            let migrator = SyncStoreMigratorMock()
            migrator.onCopy { _ in throw error }
            let result = await CLI.run(
                ["serve", "sync", "migrate", "--from", "sqlite:/srv/sync.sqlite", "--to", Self.postgres],
                dependency: dependency(migrator))
            #expect(result.status == 1 && result.stdout.isEmpty, "\(result.stderr)")
            #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        }
    }

    @Test func thousandsAreGroupedWhateverTheLocale() {
        #expect(
            [0, 7, 999, 1_000, 12_345, 1_234_567, -4_321].map(ServeSyncMigrateCommand.grouped) == [
                "0", "7", "999", "1,000", "12,345", "1,234,567", "-4,321",
            ])
    }

    // MARK: - migrate-schema

    @Test func migrateSchemaHelpExplainsWhoUpgrades() async {
        let help = await CLI.run(["serve", "sync", "migrate-schema", "--help"])
        #expect(help.status == 0)
        for text in [
            "USAGE: praykit serve sync migrate-schema [<options>]", "--sync-store <store>", "no server upgrades it",
            "refuses to start and names this command", "EXAMPLES:",
            "praykit serve sync migrate-schema --sync-store 'postgresql:///praykit?host=/run/postgresql'",
        ] {
            #expect(help.stdout.contains(text), "\(text): \(help.stdout)")
        }
    }

    @Test(arguments: [
        (SyncSchemaChange(before: 0, after: 1), "schema version 1 (created)"),
        (SyncSchemaChange(before: 1, after: 2), "upgraded from 1 to 2"),
        (SyncSchemaChange(before: 2, after: 2), "already at version 2"),
    ])
    func migrateSchemaSaysWhatItDid(_ change: SyncSchemaChange, _ said: String) async throws {
        let migrator = SyncStoreMigratorMock()
        migrator.onMigrateSchema { _ in change }
        let result = await CLI.run(
            ["serve", "sync", "migrate-schema", "--sync-store", Self.postgres], dependency: dependency(migrator))
        #expect(result.status == 0 && result.stdout == "\(Self.postgres): \(said)\n", "\(result.stdout)")
        #expect(migrator.migrateSchemaCalls == [.postgreSQL(url: Self.postgres)])
    }

    @Test func migrateSchemaDefaultsToTheStandardStoreAndWordsErrors() async throws {
        let folder = try TestFolder("serve-sync-migrate-schema")
        let migrator = SyncStoreMigratorMock()
        migrator.onMigrateSchema { _ in
            throw StorageError(kind: .schemaTooNew, message: "postgresql:///praykit is at schema version 3 …")
        }
        let environment = ["TZ": "UTC", "XDG_DATA_HOME": folder.path("data")]
        let refused = await CLI.run(
            ["serve", "sync", "migrate-schema", "--sync-store", Self.postgres], dependency: dependency(migrator),
            environment: environment)
        #expect(refused.status == 1 && refused.stderr.contains("update praykit on this server"), "\(refused.stderr)")
        let usage = await CLI.run(["serve", "sync", "migrate-schema", "--sync-store", "x"])
        #expect(usage.status == 64)
        let ok = SyncStoreMigratorMock()
        ok.onMigrateSchema { _ in SyncSchemaChange(before: 1, after: 1) }
        _ = await CLI.run(["serve", "sync", "migrate-schema"], dependency: dependency(ok), environment: environment)
        #expect(ok.migrateSchemaCalls == [.sqlite(path: folder.path("data/praykit/sync-server.sqlite"))])
    }

    // MARK: - The server's start on PostgreSQL

    #if canImport(CPostgres)
        /// `serve --sync-store URL` on a dependency whose store for the URL knows `migrations`.
        func serve(_ url: String, migrations: [SyncStorePostgres.Migration]) async -> (CLI.Result, ServerServiceMock) {
            var (dependency, servers) = ServeCommandTests().dependency()
            dependency.syncStoreAt = { location in
                guard case .postgreSQL(let url) = location else { throw MockError(notConfigured: "SQLite") }
                return SyncStorePostgres(url: url, connections: 1, log: .silent, migrations: migrations)
            }
            return (await CLI.run(["serve", "--port", "0", "--sync-store", url], dependency: dependency), servers)
        }

        /// This release's PostgreSQL schema version.
        static let latest = SyncStorePostgres.migrations.last?.version ?? 0

        static let versionTwo =
            SyncStorePostgres.migrations + [
                SyncStorePostgres.Migration(
                    version: latest + 1, statements: ["ALTER TABLE users ADD COLUMN nickname TEXT"])
            ]

        /// The migrator of a release whose PostgreSQL schema has a version 2.
        struct VersionTwoMigrator: SyncStoreMigrator {
            func migrateSchema(at location: SyncStoreLocation) throws -> SyncSchemaChange {
                guard case .postgreSQL(let url) = location else { throw MockError(notConfigured: "SQLite") }
                return try SyncStorePostgres(url: url, connections: 1, log: .silent, migrations: versionTwo)
                    .migrateSchema()
            }

            func copy(
                from source: SyncStoreLocation, to destination: SyncStoreLocation,
                progress: @escaping @Sendable (SyncStoreCopyProgress) -> Void
            ) throws -> SyncStoreCopyReport {
                throw MockError(notConfigured: "copy")
            }
        }

        @Test(.tags(.postgres), .needsPostgreSQL)
        func serveCreatesAnEmptyDatabaseButRefusesOlderNewerAndReadOnlyOnes() async throws {
            try await PostgresCluster.with { cluster in
                // An empty database: the schema is created and the server starts
                let url = try cluster.newDatabase()
                let (created, started) = await serve(url, migrations: SyncStorePostgres.migrations)
                #expect(created.status == 0 && started.startCalls.count == 1, "\(created.stderr)")
                // A server of a release with version 2: refused, naming the versions and the command
                let (older, notStarted) = await serve(url, migrations: Self.versionTwo)
                #expect(older.status == 1 && notStarted.startCalls.isEmpty, "\(older.stderr)")
                let (old, new) = (Self.latest, Self.latest + 1)
                #expect(
                    older.stderr.contains("schema version \(old) and this PrayKit needs version \(new)"),
                    "\(older.stderr)")
                #expect(
                    older.stderr.contains("'praykit serve sync migrate-schema --sync-store \(url)'"), "\(older.stderr)")
                // The operator upgrades with the command named (of the release with version 2); then
                // that release's server starts
                var dependency = CLI.dependency()
                dependency.storeMigrator = VersionTwoMigrator()
                let upgraded = await CLI.run(
                    ["serve", "sync", "migrate-schema", "--sync-store", url], dependency: dependency)
                #expect(
                    upgraded.status == 0 && upgraded.stdout == "\(url): upgraded from \(old) to \(new)\n", "\(upgraded)"
                )
                let (_, newer) = await serve(url, migrations: Self.versionTwo)
                #expect(newer.startCalls.count == 1)
                // A server of the older release now finds a newer schema: refused, naming both
                let (tooNew, refused) = await serve(url, migrations: SyncStorePostgres.migrations)
                #expect(tooNew.status == 1 && refused.startCalls.isEmpty)
                #expect(
                    tooNew.stderr.contains("schema version \(new) and this PrayKit knows up to version \(old)"),
                    "\(tooNew.stderr)")
                #expect(tooNew.stderr.contains("update praykit"), "\(tooNew.stderr)")
                // A database that takes no writes: refused, saying what to give
                let readOnly = try cluster.newDatabase()
                try cluster.execute(
                    "ALTER DATABASE \(PostgresCluster.database(of: readOnly)) SET default_transaction_read_only = on",
                    in: readOnly)
                let (replica, none) = await serve(readOnly, migrations: SyncStorePostgres.migrations)
                #expect(replica.status == 1 && none.startCalls.isEmpty)
                #expect(
                    replica.stderr.hasPrefix("Error: the sync store: \(readOnly) takes no writes"), "\(replica.stderr)")
            }
        }
    #endif
}
