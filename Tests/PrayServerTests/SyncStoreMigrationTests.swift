#if canImport(CPostgres)
    import Foundation
    import PrayCore
    import PrayMocks
    @testable import PrayServer
    import Synchronization
    import Testing

    /// `SyncStoreMigratorSQL` on real stores: a SQLite store copied into a throwaway PostgreSQL database
    /// (every table equal, cursors and tokens kept, all or nothing), and schemas created, refused and
    /// upgraded (a synthetic version 2 stands for a later release).
    @Suite(.tags(.postgres), .needsPostgreSQL)
    struct SyncStoreMigrationTests {
        typealias Folder = SyncStoreSQLiteTests.Folder

        /// Every table of the schema, with the order that makes their rows comparable.
        static let tables = [
            "store": "key", "users": "id", "devices": "id", "pairing_codes": "id", "failures": "scope, address",
            "clients": "id", "sync_rows": "user_id, collection, key", "recent_mutations": "client_id, id",
        ]

        /// Every table's rows, as text, in a SQLite store.
        static func contents(_ store: SyncStoreSQLite) throws -> [String: [[String?]]] {
            try store.snapshot { connection in
                var contents: [String: [[String?]]] = [:]
                for (table, order) in tables {
                    contents[table] = try connection.rows("SELECT * FROM \(table) ORDER BY \(order)", []).map(\.columns)
                }
                return contents
            }
        }

        /// Every table's rows, as text, in a PostgreSQL store.
        static func contents(_ store: SyncStorePostgres) throws -> [String: [[String?]]] {
            try store.pool.transaction(idempotent: true) { connection in
                var contents: [String: [[String?]]] = [:]
                for (table, order) in tables {
                    contents[table] = try connection.query("SELECT * FROM \(table) ORDER BY \(order)").map(\.columns)
                }
                return contents
            }
        }

        /// Counts the progress reports of a copy.
        final class Reports: Sendable {
            let all = Mutex<[SyncStoreCopyProgress]>([])
        }

        /// A SQLite store with two users, three devices (one revoked), pushes of puts and deletes from
        /// two clients, a spent and a live pairing code, and a failed pairing; and a device's cursor
        /// after it pulled everything.
        static func populatedStore(_ path: String) throws -> (
            store: SyncStoreSQLite, phone: SyncDeviceIdentity, token: String, cursor: String
        ) {
            let store = SyncStoreSQLite(path: path, log: .silent)
            let contract = SyncStoreContract { _ in store }
            let now = SyncStoreContract.now
            let code = try store.addUser(named: "amina", now: now)
            let paired = try store.pair(.init(code: code.code, deviceName: "phone"), address: "192.0.2.7", now: now)
            let phone = try store.authenticate(token: paired.token, address: "192.0.2.7", now: now)
            let laptop = try contract.pairDevice(store, name: "laptop")
            let unused = try store.addUser(named: "bilal", now: now)
            let tablet = try contract.pairDevice(store, user: "bilal", name: "tablet")
            let live = try store.newPairingCode(forUser: "amina", now: now)
            // A wrong code that shares no first characters with the live ones: one failure, the address's
            // (one aimed at a live code would count for the code too).
            let wrong =
                ["AAAAA-AAAAA", "BBBBB-BBBBB", "CCCCC-CCCCC"].first { candidate in
                    ![live.code, unused.code].contains { $0.prefix(2) == candidate.prefix(2) }
                } ?? "AAAAA-AAAAA"
            _ = try? store.pair(.init(code: wrong, deviceName: "thief"), address: "198.51.100.1", now: now)
            let clientB = SyncStoreContract.clientB
            _ = try store.push(
                .init(
                    clientID: SyncStoreContract.clientA,
                    mutations: [
                        try SyncStoreContract.put(1, "2026-11-01/fajr", note: "first"),
                        try SyncStoreContract.put(2, "2026-11-02/isha", at: 5),
                    ]), from: phone, now: now)
            _ = try store.push(
                .init(
                    clientID: clientB,
                    mutations: [
                        try SyncStoreContract.delete(1, "2026-11-02/isha", at: 9, client: clientB),
                        try SyncStoreContract.put(2, "2026-11-03/asr", at: 10, status: .late, client: clientB),
                    ]), from: laptop, now: now)
            _ = try store.push(
                .init(
                    clientID: "c_cccccccccccccccccccccccccccccccc",
                    mutations: [try SyncStoreContract.put(1, client: "c_cccccccccccccccccccccccccccccccc")]),
                from: tablet, now: now)
            try store.revokeDevice(tablet.deviceID, now: now)
            let pulled = try contract.allRows(store, phone)
            return (store, phone, paired.token, try #require(pulled.pages.last).cursor)
        }

        @Test func aCopyKeepsTheSlugsOfPublishedMosques() throws {
            try PostgresCluster.with { cluster in
                // Given: a SQLite store with a mosque published at `elm`, and one not published
                let folder = try Folder()
                let path = folder.path()
                let source = SyncStoreSQLite(path: path, log: .silent)
                let contract = SyncStoreContract { _ in source }
                let amina = try contract.person(source, "amina")
                let elm = try contract.mosque(source, amina, "East London Mosque")
                _ = try contract.mosque(source, amina, "Masjid al-Noor")
                _ = try contract.publish(source, amina, elm.id, slug: "elm")
                let url = try cluster.newDatabase()
                // When: it is copied into PostgreSQL
                _ = try SyncStoreMigratorSQL(log: .silent).copy(
                    from: .sqlite(path: path), to: .postgreSQL(url: url), progress: { _ in })
                // Then: the mosque is published there at the same slug, and its slug stays its own
                let destination = SyncStorePostgres(url: url, connections: 1, log: .silent)
                #expect(try destination.published(slug: "elm", rows: false)?.id == elm.id)
                #expect(try destination.spaces().map(\.slug) == ["elm", nil])
                _ = try contract.mosque(destination, amina, "Another")
                let other = try #require(try destination.spaces().first { $0.name == "Another" })
                #expect(
                    contract.refusal { try contract.publish(destination, amina, other.id, slug: "elm") }?.code
                        == .slugTaken)
            }
        }

        @Test func aCopyHoldsEveryTableAsItWasAndDevicesKeepTheirCursors() throws {
            try PostgresCluster.with { cluster in
                // Given: a SQLite store in use, and a device's cursor after it pulled everything
                let folder = try Folder()
                let source = try Self.populatedStore(folder.path())
                let url = try cluster.newDatabase()
                let reports = Reports()
                // When: it is copied into an empty PostgreSQL database
                let report = try SyncStoreMigratorSQL(log: .silent).copy(
                    from: .sqlite(path: source.store.path), to: .postgreSQL(url: url),
                    progress: { progress in reports.all.withLock { $0.append(progress) } })
                // Then: every table holds the same rows, the identity included
                let destination = SyncStorePostgres(url: url, connections: 1, log: .silent)
                let before = try Self.contents(source.store)
                #expect(try Self.contents(destination) == before)
                #expect(
                    before["sync_rows"]?.count == 4 && before["failures"]?.count == 1, "\(before["failures"] ?? [])")
                #expect(
                    report.users == 2 && report.devices == 3 && report.rows == 4 && report.clients == 3
                        && report.pairingCodes == 5 && report.recentMutations == 5 && report.failures == 1,
                    "\(report)")
                #expect(report.storeID == before["store"]?.first?[1] && !report.storeID.isEmpty)
                // And progress went from nothing to every record
                let progress = reports.all.withLock { $0 }
                #expect(progress.first == SyncStoreCopyProgress(copied: 0, total: 23))
                #expect(progress.last == SyncStoreCopyProgress(copied: 23, total: 23))
                // And the device's token works, and its old cursor is valid there: nothing new to pull
                let now = SyncStoreContract.now
                let phone = try destination.authenticate(token: source.token, address: "192.0.2.7", now: now)
                #expect(phone == source.phone)
                let clientA = SyncStoreContract.clientA
                let nothing = try destination.pull(
                    .init(clientID: clientA, cursor: source.cursor), from: phone, now: now)
                #expect(nothing.rows.isEmpty && !nothing.hasMore && nothing.cursor == source.cursor)
                #expect(nothing.lastMutationID == 2)
                // When: the client pushes its next change to the new store
                let pushed = try destination.push(
                    .init(clientID: clientA, mutations: [try SyncStoreContract.put(3, "2026-11-04/dhuhr", at: 20)]),
                    from: phone, now: now)
                #expect(pushed.lastMutationID == 3 && pushed.rejected.isEmpty)
                // Then: a pull from the old cursor gives only that row
                let newer = try destination.pull(.init(clientID: clientA, cursor: source.cursor), from: phone, now: now)
                #expect(newer.rows.map(\.row.key) == ["2026-11-04/dhuhr"] && !newer.hasMore)
                // And new users and codes get IDs past the copied ones
                _ = try destination.addUser(named: "chidi", now: now)
                _ = try destination.newPairingCode(forUser: "amina", now: now)
                #expect(try destination.users().map(\.name) == ["amina", "bilal", "chidi"])
            }
        }

        @Test func aDestinationWithUsersIsRefusedAndNothingIsWritten() throws {
            try PostgresCluster.with { cluster in
                // Given: a SQLite store, and a PostgreSQL store in use with a user of its own
                let folder = try Folder()
                let source = try Self.populatedStore(folder.path())
                let url = try cluster.newDatabase()
                let destination = SyncStorePostgres(url: url, connections: 1, log: .silent)
                _ = try destination.addUser(named: "zara", now: SyncStoreContract.now)
                let before = try Self.contents(destination)
                // When
                do {
                    _ = try SyncStoreMigratorSQL(log: .silent).copy(
                        from: .sqlite(path: source.store.path), to: .postgreSQL(url: url), progress: { _ in })
                    Issue.record("a copy into a store with users went ahead")
                } catch let error as SyncStoreError {
                    // Then: refused, saying why
                    #expect(error.kind == .notEmpty && error.message.contains("already holds 1 user"), "\(error)")
                    #expect(error.message.contains("nothing was written"))
                }
                // And the destination is as it was
                #expect(try Self.contents(destination) == before)
            }
        }

        @Test func aMissingSourceIsRefusedAndNotCreated() throws {
            let folder = try Folder()
            let path = folder.path("missing.sqlite")
            #expect(
                throws: SyncStoreError(
                    .invalidLocation, message: "there is no sync store at \(path); nothing was copied")
            ) {
                try SyncStoreMigratorSQL(log: .silent).copy(
                    from: .sqlite(path: path), to: .postgreSQL(url: "postgresql:///none?host=/nonexistent"),
                    progress: { _ in })
            }
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(throws: SyncStoreError.self) {
                try SyncStoreMigratorSQL(log: .silent).copy(
                    from: .postgreSQL(url: "postgresql:///a"), to: .sqlite(path: path), progress: { _ in })
            }
        }

        // MARK: - Schemas

        /// This release's schema version.
        static let latest = SyncStorePostgres.migrations.last?.version ?? 0

        /// This release's versions and a synthetic next one, as a later release would add.
        static let versionTwo =
            SyncStorePostgres.migrations + [
                SyncStorePostgres.Migration(
                    version: latest + 1,
                    statements: [
                        "ALTER TABLE users ADD COLUMN nickname TEXT",
                        "CREATE TABLE announcements (id BIGSERIAL PRIMARY KEY, text TEXT NOT NULL)",
                    ])
            ]

        @Test func anEmptyDatabaseGetsItsSchemaAndAnUpToDateOneIsLeftAlone() throws {
            try PostgresCluster.with { cluster in
                let url = try cluster.newDatabase()
                let migrator = SyncStoreMigratorSQL(log: .silent)
                #expect(
                    try migrator.migrateSchema(at: .postgreSQL(url: url))
                        == SyncSchemaChange(before: 0, after: Self.latest))
                #expect(
                    try migrator.migrateSchema(at: .postgreSQL(url: url))
                        == SyncSchemaChange(before: Self.latest, after: Self.latest))
                // A server's store on another empty database creates the schema at first use
                let other = try cluster.newDatabase()
                #expect(try SyncStorePostgres(url: other, log: .silent).users().isEmpty)
                #expect(try cluster.execute("SELECT MAX(version) FROM schema_version", in: other) == "\(Self.latest)\n")
            }
        }

        @Test func anOlderSchemaIsRefusedAtFirstUseUntilItIsUpgraded() throws {
            try PostgresCluster.with { cluster in
                // Given: a database at this release's version with a user
                let url = try cluster.newDatabase()
                let (old, new) = (Self.latest, Self.latest + 1)
                _ = try SyncStorePostgres(url: url, log: .silent).addUser(named: "amina", now: SyncStoreContract.now)
                // When: a store of a release that knows the next version is first used
                let newer = SyncStorePostgres(url: url, connections: 1, log: .silent, migrations: Self.versionTwo)
                // Then: refused, naming both versions; nothing was changed
                do {
                    _ = try newer.users()
                    Issue.record("a store with an older schema was served")
                } catch let error as StorageError {
                    #expect(error.kind == .schemaTooOld, "\(error)")
                    #expect(
                        error.message.contains("schema version \(old)")
                            && error.message.contains("needs version \(new)"))
                }
                #expect(try cluster.execute("SELECT MAX(version) FROM schema_version", in: url) == "\(old)\n")
                // When: the operator upgrades it
                let change = try newer.migrateSchema()
                // Then: upgraded, the data kept, and the store serves
                #expect(change == SyncSchemaChange(before: old, after: new) && change.upgraded)
                #expect(try newer.users().map(\.name) == ["amina"])
                #expect(try cluster.execute("SELECT COUNT(*) FROM announcements", in: url) == "0\n")
                #expect(try newer.migrateSchema() == SyncSchemaChange(before: new, after: new))
                // And a store of the older release now finds a newer schema, and is refused naming both
                do {
                    _ = try SyncStorePostgres(url: url, log: .silent).users()
                    Issue.record("a store with a newer schema was served")
                } catch let error as StorageError {
                    #expect(error.kind == .schemaTooNew, "\(error)")
                    #expect(
                        error.message.contains("schema version \(new)")
                            && error.message.contains("up to version \(old)"))
                }
            }
        }

        @Test func versionOneIsUpgradedToTwoWithItsPayloadHashesAndTheirUsers() throws {
            try PostgresCluster.with { cluster in
                // Given: a database at version 1 (as the first release made it), with a user, a device, a
                // client and two payload hashes
                let url = try cluster.newDatabase()
                let first = SyncStorePostgres(
                    url: url, connections: 1, log: .silent,
                    migrations: SyncStorePostgres.migrations.filter { $0.version == 1 })
                #expect(try first.migrateSchema() == SyncSchemaChange(before: 0, after: 1))
                let client = SyncStoreContract.clientA
                _ = try cluster.execute(
                    """
                    INSERT INTO users (id, name, created_at) VALUES (7, 'amina', 0);
                    INSERT INTO devices (id, user_id, name, token_lookup, token_hash, created_at)
                        VALUES ('d_1', 7, 'phone', 'x', 'y', 0);
                    INSERT INTO clients (id, device_id, last_mutation_id, created_at) VALUES ('\(client)', 'd_1', 2, 0);
                    INSERT INTO recent_mutations (client_id, id, payload_hash) VALUES ('\(client)', 1, 'h1'), ('\(client)', 2, 'h2');
                    """, in: url)
                // When: the operator upgrades it
                let store = SyncStorePostgres(url: url, connections: 1, log: .silent)
                #expect(
                    try store.migrateSchema()
                        == SyncSchemaChange(before: 1, after: SyncStorePostgres.migrations.last?.version ?? 0))
                // Then: each hash has its user and an order; the client's retry is still checked
                let rows = try StoreRecords.rows(
                    store, "SELECT client_id, id, payload_hash, user_id FROM recent_mutations ORDER BY seq")
                #expect(rows == [[client, "1", "h1", "7"], [client, "2", "h2", "7"]])
                #expect(try store.users().map(\.name) == ["amina"])
            }
        }

        @Test func aDatabaseThatTakesNoWritesIsRefused() throws {
            try PostgresCluster.with { cluster in
                // Given: a database whose transactions are read-only (as on a replica)
                let url = try cluster.newDatabase()
                try cluster.execute(
                    "ALTER DATABASE \(PostgresCluster.database(of: url)) SET default_transaction_read_only = on",
                    in: url)
                // Then: refused at first use, saying what to give instead, and no schema was made
                do {
                    _ = try SyncStorePostgres(url: url, log: .silent).users()
                    Issue.record("a read-only database was served")
                } catch let error as StorageError {
                    #expect(error.kind == .readOnly, "\(error)")
                    #expect(error.message.contains("takes no writes"), "\(error)")
                    #expect(error.message.contains("target_session_attrs=read-write"), "\(error)")
                }
                #expect(
                    try cluster.execute("SELECT to_regclass('schema_version') IS NULL", in: url) == "t\n")
            }
        }

        @Test func aHotStandbyIsRefusedAsAReplica() throws {
            try PostgresCluster.with { cluster in
                // Given: a database with the schema, and a real hot standby of its cluster
                let url = try cluster.newDatabase()
                _ = try SyncStorePostgres(url: url, log: .silent).users()
                let replica = try cluster.startStandby(of: PostgresCluster.database(of: url))
                #expect(try cluster.execute("SELECT pg_is_in_recovery()", in: replica) == "t\n")
                // Then: a store given the standby's URL by mistake is refused at first use, saying why
                do {
                    _ = try SyncStorePostgres(url: replica, log: .silent).users()
                    Issue.record("a replica was served")
                } catch let error as StorageError {
                    #expect(error.kind == .readOnly, "\(error)")
                    #expect(error.message.contains("is a read-only replica (in recovery)"), "\(error)")
                    #expect(error.message.contains("give the primary's URL"), "\(error)")
                }
            }
        }

        @Test func aSQLiteStoreIsCreatedOrFoundUpToDate() throws {
            let folder = try Folder()
            let path = folder.path()
            let migrator = SyncStoreMigratorSQL(log: .silent)
            let latest = SyncStoreSQLite.migrations.last?.version ?? 0
            #expect(try migrator.migrateSchema(at: .sqlite(path: path)) == SyncSchemaChange(before: 0, after: latest))
            #expect(
                try migrator.migrateSchema(at: .sqlite(path: path)) == SyncSchemaChange(before: latest, after: latest))
        }
    }
#endif
