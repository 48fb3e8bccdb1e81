#if canImport(CPostgres)
    import Foundation
    import PrayCore

    extension SyncStorePostgres {
        /// One step of the schema: its number and its statements, run in one transaction and then
        /// recorded in `schema_version`.
        struct Migration: Sendable {
            let version: Int
            let statements: [String]
        }

        /// The store's schema (SYNC.md §5), the same tables as ``SyncStoreSQLite``'s. Times are
        /// milliseconds since 1970; hashes are SHA-256 in hex; values are their wire JSON as text.
        /// Keys, names and stamps compare bytewise (`COLLATE "C"`), as in SQLite, so lists come in the
        /// same order and a stamp's text orders as the stamp does.
        static let migrations = [
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
                ])
        ]

        /// The key of the advisory lock under which a server creates or upgrades the schema, so that
        /// servers starting together do it once ("pray" in ASCII).
        static let migrationLock = 0x7072_6179

        /// Creates the schema or brings it up to date, in one transaction.
        /// - Throws: ``StorageError`` (`schemaTooNew` for a database of a newer PrayKit).
        static func migrate(_ pool: PostgresPool) throws {
            try pool.transaction(idempotent: true) { connection in
                try connection.query("SELECT pg_advisory_xact_lock($1)", [.integer(Int64(migrationLock))])
                try connection.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                let current =
                    try connection.query("SELECT COALESCE(MAX(version), 0) FROM schema_version").first?
                    .int64(0) ?? 0
                let latest = migrations.last?.version ?? 0
                guard current <= latest else {
                    throw StorageError(
                        kind: .schemaTooNew, message: "schema version \(current), this PrayKit knows \(latest)")
                }
                for migration in migrations where migration.version > current {
                    for statement in migration.statements { try connection.query(statement) }
                    try connection.query(
                        "INSERT INTO schema_version (version) VALUES ($1)", [.integer(Int64(migration.version))])
                }
            }
        }
    }
#endif
