#if canImport(CPostgres)
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import PrayCore

    extension SyncStorePostgres {
        /// One step of the schema: its number and its statements, run in one transaction and then
        /// recorded in `schema_version`.
        package struct Migration: Sendable {
            /// The schema version this step makes.
            package let version: Int
            /// Its statements, in order.
            package let statements: [String]

            /// Creates a step (tests make synthetic ones to prove upgrades and refusals).
            package init(version: Int, statements: [String]) {
                self.version = version
                self.statements = statements
            }
        }

        /// The store's schema (SYNC.md §5), the same tables as ``SyncStoreSQLite``'s. Times are
        /// milliseconds since 1970; hashes are SHA-256 in hex; values are their wire JSON as text.
        /// Keys, names and stamps compare bytewise (`COLLATE "C"`), as in SQLite, so lists come in the
        /// same order and a stamp's text orders as the stamp does.
        package static let migrations = [
            Migration(
                version: 1,
                statements: [
                    "CREATE TABLE store (key TEXT COLLATE \"C\" PRIMARY KEY, value TEXT NOT NULL)",
                    """
                    CREATE TABLE users (
                        id BIGSERIAL PRIMARY KEY,
                        name TEXT COLLATE "C" NOT NULL UNIQUE,
                        created_at BIGINT NOT NULL,
                        version BIGINT NOT NULL DEFAULT 0,
                        row_count BIGINT NOT NULL DEFAULT 0
                    )
                    """,
                    """
                    CREATE TABLE devices (
                        id TEXT COLLATE "C" PRIMARY KEY,
                        user_id BIGINT NOT NULL REFERENCES users (id),
                        name TEXT NOT NULL,
                        token_lookup TEXT COLLATE "C" NOT NULL,
                        token_hash TEXT NOT NULL,
                        created_at BIGINT NOT NULL,
                        last_seen BIGINT,
                        revoked_at BIGINT
                    )
                    """,
                    "CREATE INDEX devices_by_token ON devices (token_lookup)",
                    "CREATE INDEX devices_by_user ON devices (user_id)",
                    """
                    CREATE TABLE pairing_codes (
                        id BIGSERIAL PRIMARY KEY,
                        user_id BIGINT NOT NULL REFERENCES users (id),
                        lookup TEXT COLLATE "C" NOT NULL,
                        code_hash TEXT NOT NULL,
                        created_at BIGINT NOT NULL,
                        expires_at BIGINT NOT NULL,
                        used_at BIGINT,
                        attempts INTEGER NOT NULL DEFAULT 0
                    )
                    """,
                    "CREATE INDEX pairing_codes_by_lookup ON pairing_codes (lookup)",
                    """
                    CREATE TABLE failures (
                        scope TEXT COLLATE "C" NOT NULL,
                        address TEXT COLLATE "C" NOT NULL,
                        window_start BIGINT NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (scope, address)
                    )
                    """,
                    "CREATE INDEX failures_by_start ON failures (window_start)",
                    """
                    CREATE TABLE clients (
                        id TEXT COLLATE "C" PRIMARY KEY,
                        device_id TEXT NOT NULL REFERENCES devices (id),
                        last_mutation_id BIGINT NOT NULL DEFAULT 0,
                        created_at BIGINT NOT NULL
                    )
                    """,
                    """
                    CREATE TABLE sync_rows (
                        user_id BIGINT NOT NULL REFERENCES users (id),
                        collection TEXT COLLATE "C" NOT NULL,
                        key TEXT COLLATE "C" NOT NULL,
                        value TEXT,
                        deleted SMALLINT NOT NULL CHECK (deleted IN (0, 1)),
                        hlc TEXT COLLATE "C" NOT NULL,
                        version BIGINT NOT NULL,
                        PRIMARY KEY (user_id, collection, key)
                    )
                    """,
                    "CREATE INDEX sync_rows_by_version ON sync_rows (user_id, version)",
                    """
                    CREATE TABLE recent_mutations (
                        client_id TEXT COLLATE "C" NOT NULL REFERENCES clients (id),
                        id BIGINT NOT NULL,
                        payload_hash TEXT NOT NULL,
                        PRIMARY KEY (client_id, id)
                    )
                    """,
                    // The store's identity, in every cursor: a cursor of another store is refused.
                    """
                    INSERT INTO store (key, value)
                    VALUES ('id', substr(md5(random()::text || clock_timestamp()::text), 1, 16))
                    """,
                ]),
            // Version 2, as SQLite's: the payload hashes carry their user and an order (`seq`, filled
            // for the rows there are), so that the store keeps a bounded number per user; clients are
            // found by device, to retire the oldest.
            Migration(
                version: 2,
                statements: [
                    "ALTER TABLE recent_mutations ADD COLUMN user_id BIGINT REFERENCES users (id)",
                    """
                    UPDATE recent_mutations SET user_id = devices.user_id
                    FROM clients JOIN devices ON devices.id = clients.device_id
                    WHERE clients.id = recent_mutations.client_id
                    """,
                    "DELETE FROM recent_mutations WHERE user_id IS NULL",
                    "ALTER TABLE recent_mutations ALTER COLUMN user_id SET NOT NULL",
                    "ALTER TABLE recent_mutations ADD COLUMN seq BIGSERIAL",
                    "CREATE INDEX recent_mutations_by_user_seq ON recent_mutations (user_id, seq)",
                    "CREATE INDEX clients_by_device ON clients (device_id, created_at)",
                ]),
            // Version 3, as SQLite's: spaces are rows of `users` with a kind and a public ID, `members`
            // the roles in mosque spaces, and a pairing code with a `space` an invitation.
            Migration(
                version: 3,
                statements: [
                    "ALTER TABLE users ADD COLUMN kind TEXT NOT NULL DEFAULT 'person'",
                    #"ALTER TABLE users ADD COLUMN space_id TEXT COLLATE "C""#,
                    "ALTER TABLE users ADD COLUMN title TEXT",
                    """
                    UPDATE users SET space_id = 's_' || substr(md5(random()::text || id::text || clock_timestamp()::text), 1, 16)
                    """,
                    "CREATE UNIQUE INDEX users_by_space ON users (space_id)",
                    """
                    CREATE TABLE members (
                        space BIGINT NOT NULL REFERENCES users (id),
                        member BIGINT NOT NULL REFERENCES users (id),
                        role TEXT NOT NULL,
                        added_at BIGINT NOT NULL,
                        PRIMARY KEY (space, member)
                    )
                    """,
                    "CREATE INDEX members_by_member ON members (member)",
                    "ALTER TABLE pairing_codes ADD COLUMN space BIGINT REFERENCES users (id)",
                    "ALTER TABLE pairing_codes ADD COLUMN role TEXT",
                    "CREATE INDEX pairing_codes_by_space ON pairing_codes (space)",
                ]),
            // Version 4, as SQLite's: the slug a mosque space's pages are published at (NULL while
            // they are not), unique on the server.
            Migration(
                version: 4,
                statements: [
                    #"ALTER TABLE users ADD COLUMN slug TEXT COLLATE "C""#,
                    "CREATE UNIQUE INDEX users_by_slug ON users (slug)",
                ]),
        ]

        /// The key of the advisory lock under which a server creates or upgrades the schema, so that
        /// servers starting together do it once ("pray" in ASCII).
        static let migrationLock = 0x7072_6179

        /// Makes sure the database is one a server can use, before its first use: a database without
        /// the schema gets it; one with an older schema is refused (servers share it, so the upgrade is
        /// the operator's step, ``upgrade(_:migrations:location:)``), and so is one with a newer schema
        /// or one that takes no writes (a hot standby).
        /// - Throws: ``StorageError``: `schemaTooOld`, `schemaTooNew`, `readOnly`; or the database's.
        static func prepare(_ pool: PostgresPool, migrations: [Migration], location: String) throws {
            _ = try pool.transaction(idempotent: true) { connection in
                try create(connection, migrations: migrations, location: location)
            }
        }

        /// Creates the schema when the database has none, in the transaction of `connection`, and
        /// checks it otherwise (see ``prepare(_:migrations:location:)``).
        /// - Returns: The version found (0: the schema was created).
        /// - Throws: ``StorageError``: `schemaTooOld`, `schemaTooNew`, `readOnly`; or the database's.
        @discardableResult
        static func create(_ connection: PostgresConnection, migrations: [Migration], location: String) throws
            -> Int
        {
            let current = try lockedVersion(connection, migrations: migrations, location: location)
            let latest = migrations.last?.version ?? 0
            if current == 0 {
                try apply(migrations, after: 0, connection)
            } else if current < latest {
                throw StorageError(
                    kind: .schemaTooOld,
                    message: "\(location) is at schema version \(current) and this PrayKit needs version \(latest); "
                        + "servers sharing a database do not upgrade it by themselves")
            }
            return current
        }

        /// Creates the schema or brings it up to date, in one transaction: the operator's step.
        /// - Returns: The version before (0 for none) and after.
        /// - Throws: ``StorageError``: `schemaTooNew`, `readOnly`; or the database's.
        static func upgrade(_ pool: PostgresPool, migrations: [Migration], location: String) throws
            -> SyncSchemaChange
        {
            try pool.transaction(idempotent: true) { connection in
                let current = try lockedVersion(connection, migrations: migrations, location: location)
                try apply(migrations, after: current, connection)
                return SyncSchemaChange(before: current, after: max(current, migrations.last?.version ?? 0))
            }
        }

        /// Refuses a database that takes no writes, takes the schema lock (servers starting together
        /// wait for each other) and returns the schema's version: 0 for none.
        /// - Throws: ``StorageError``: `readOnly`, `schemaTooNew`; or the database's.
        private static func lockedVersion(_ connection: PostgresConnection, migrations: [Migration], location: String)
            throws -> Int
        {
            // Before anything that writes: on a replica, the first write would fail with a message about
            // a transaction, not about the URL given.
            let state = try connection.query("SELECT pg_is_in_recovery(), current_setting('transaction_read_only')")
            if state.first?.text(0) == "t" {
                throw StorageError(
                    kind: .readOnly,
                    message: "\(location) is a read-only replica (in recovery): give the primary's URL, or list "
                        + "every host with target_session_attrs=read-write")
            }
            if state.first?.text(1) == "on" {
                throw StorageError(
                    kind: .readOnly,
                    message: "\(location) takes no writes (transaction_read_only is on, as "
                        + "default_transaction_read_only sets it): give a database that takes writes, or list every "
                        + "host with target_session_attrs=read-write")
            }
            try connection.query("SELECT pg_advisory_xact_lock($1)", [.integer(Int64(migrationLock))])
            guard try connection.query("SELECT to_regclass('schema_version') IS NOT NULL").first?.text(0) == "t" else {
                return 0
            }
            let current = Int(
                try connection.query("SELECT COALESCE(MAX(version), 0) FROM schema_version").first?.int64(0) ?? 0)
            let latest = migrations.last?.version ?? 0
            guard current <= latest else {
                throw StorageError(
                    kind: .schemaTooNew,
                    message:
                        "\(location) is at schema version \(current) and this PrayKit knows up to version \(latest)")
            }
            return current
        }

        /// Runs the steps after `current`, recording each.
        private static func apply(_ migrations: [Migration], after current: Int, _ connection: PostgresConnection)
            throws
        {
            try connection.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            for migration in migrations where migration.version > current {
                for statement in migration.statements { try connection.query(statement) }
                try connection.query(
                    "INSERT INTO schema_version (version) VALUES ($1)", [.integer(Int64(migration.version))])
            }
        }
    }
#endif
