#if canImport(CPostgres)
    import Foundation
    import PrayCore
    import Synchronization

    /// The sync server's store in a PostgreSQL database (SYNC.md §5), shared by every `praykit serve`
    /// behind a load balancer: the same tables and the same answers as ``SyncStoreSQLite`` (both pass
    /// one contract suite).
    ///
    /// A few connections (libpq, loaded on first use) serve the process's threads. Every change runs
    /// in one transaction at READ COMMITTED. A push first locks the user's row, whose version counter
    /// it then advances (`UPDATE … RETURNING version`), so the pushes of one user take turns and commit
    /// in the order of their versions, and a pull never skips a version committed late; rows are
    /// written with `INSERT … ON CONFLICT … DO UPDATE … WHERE sync_rows.hlc < excluded.hlc`. A push
    /// that meets a serialization failure, a deadlock or a lost connection runs again whole, which is
    /// safe: a mutation already applied is skipped as a retry. The schema is created at first use.
    ///
    /// ```swift
    /// let store = SyncStorePostgres(url: "postgresql:///praykit?host=/run/postgresql", log: log)
    /// let code = try store.addUser(named: "amina", now: Date())
    /// ```
    public final class SyncStorePostgres: SyncStore {
        /// The database's URL without its password, for messages and logs.
        public let location: String
        let pool: PostgresPool
        let limits: SyncStoreLimits
        let log: LogManager
        private let migrated = Mutex(false)

        /// Creates a handle on the database at `url`; nothing is opened until first use.
        /// - Parameters:
        ///   - url: A `postgres://` or `postgresql://` URL (libpq's form: `postgresql:///db?host=/socket`
        ///     for a Unix socket). It may hold a password, which no message or log line repeats.
        ///   - limits: Quotas and failure counts; the standard ones by default.
        ///   - connections: How many connections this process keeps at most (at least 1).
        ///   - log: The logger: pairings and revocations at `info`, never a token or a code.
        public init(url: String, limits: SyncStoreLimits = .standard, connections: Int = 4, log: LogManager) {
            location = SyncStoreLocation.postgreSQL(url: url).description
            pool = PostgresPool(conninfo: url, size: connections)
            self.limits = limits
            self.log = log
        }

        /// Runs `body` in one READ COMMITTED transaction, once the schema is there; again whole after
        /// a serialization failure or a deadlock, and after a lost connection when `idempotent`.
        func write<T: Sendable>(
            idempotent: Bool = false, _ body: @Sendable (PostgresConnection) throws -> T
        ) throws -> T {
            try migrateOnce()
            return try pool.transaction(idempotent: idempotent, body)
        }

        /// Runs `body` in one read-only snapshot (REPEATABLE READ), once the schema is there.
        func read<T: Sendable>(_ body: @Sendable (PostgresConnection) throws -> T) throws -> T {
            try migrateOnce()
            return try pool.transaction(
                "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", commit: false, idempotent: true, body)
        }

        private func migrateOnce() throws {
            try migrated.withLock { (done: inout Bool) throws in
                guard !done else { return }
                try Self.migrate(pool)
                done = true
            }
        }
    }

    // MARK: - Administration

    extension SyncStorePostgres {
        /// Adds a user and makes their first pairing code.
        /// - Throws: ``SyncServerError`` `bad_request` or `user_exists`; ``StorageError``.
        public func addUser(named name: String, now: Date) throws -> SyncPairingCode {
            try SyncServerRules.checkUserName(name)
            let limits = limits
            let code = try write { connection in
                // ON CONFLICT: two servers adding the same name at once give one user and one refusal.
                let inserted = try connection.query(
                    "INSERT INTO users (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING id",
                    [.text(name), .integer(SyncServerRules.milliseconds(now))])
                guard let userID = inserted.first?.int64(0) else { throw SyncServerRules.userExists(name) }
                return try Self.insertPairingCode(connection, user: name, userID: userID, limits: limits, now: now)
            }
            log.info("Sync user added", metadata: ["sync.user": name])
            return code
        }

        /// Makes a new pairing code for an existing user.
        /// - Throws: ``SyncServerError`` `not_found`; ``StorageError``.
        public func newPairingCode(forUser name: String, now: Date) throws -> SyncPairingCode {
            let limits = limits
            let code = try write { connection in
                guard
                    let userID = try connection.query("SELECT id FROM users WHERE name = $1", [.text(name)]).first?
                        .int64(0)
                else { throw SyncServerRules.unknownUser(name) }
                return try Self.insertPairingCode(connection, user: name, userID: userID, limits: limits, now: now)
            }
            log.info("Sync pairing code made", metadata: ["sync.user": name])
            return code
        }

        /// The users, by name.
        /// - Throws: ``StorageError``.
        public func users() throws -> [SyncUser] {
            try read { connection in
                try connection.query(
                    """
                    SELECT name, created_at, (SELECT COUNT(*) FROM devices WHERE user_id = users.id), row_count,
                        version
                    FROM users ORDER BY name
                    """
                ).map { row in
                    SyncUser(
                        name: row.text(0) ?? "", createdAt: SyncServerRules.date(milliseconds: row.int64(1)),
                        deviceCount: Int(row.int64(2)), rowCount: Int(row.int64(3)), version: row.int64(4))
                }
            }
        }

        /// Every device, by user, then creation.
        /// - Throws: ``StorageError``.
        public func devices() throws -> [SyncDevice] {
            try read { connection in
                try connection.query(
                    """
                    SELECT devices.id, users.name, devices.name, devices.created_at, devices.last_seen,
                        devices.revoked_at
                    FROM devices JOIN users ON users.id = devices.user_id
                    ORDER BY users.name, devices.created_at, devices.id
                    """
                ).map { row in
                    SyncDevice(
                        id: row.text(0) ?? "", user: row.text(1) ?? "", name: row.text(2) ?? "",
                        createdAt: SyncServerRules.date(milliseconds: row.int64(3)),
                        lastSeen: row.optionalInt64(4).map(SyncServerRules.date(milliseconds:)),
                        revokedAt: row.optionalInt64(5).map(SyncServerRules.date(milliseconds:)))
                }
            }
        }

        /// Revokes a device; revoking it again changes nothing.
        /// - Throws: ``SyncServerError`` `not_found`; ``StorageError``.
        public func revokeDevice(_ deviceID: String, now: Date) throws {
            let found = try write { connection in
                try !connection.query(
                    "UPDATE devices SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING id",
                    [.integer(SyncServerRules.milliseconds(now)), .text(deviceID)]
                ).isEmpty
            }
            guard found else { throw SyncServerRules.unknownDevice(deviceID) }
            log.info("Sync device revoked", metadata: ["sync.device": deviceID])
        }

        /// Stores the hash of a new code for `userID` and returns the code, shown once.
        private static func insertPairingCode(
            _ connection: PostgresConnection, user: String, userID: Int64, limits: SyncStoreLimits, now: Date
        ) throws -> SyncPairingCode {
            var random = SystemRandomNumberGenerator()
            let code = SyncServerRules.newPairingCode(using: &random)
            let stored = SyncServerRules.normalizedPairingCode(code) ?? code
            let expiresAt = now.addingTimeInterval(limits.pairingCodeLifetime)
            let milliseconds = SyncServerRules.milliseconds(now)
            // Codes spent or expired for a day are of no more use, even to count attempts.
            try connection.query(
                "DELETE FROM pairing_codes WHERE expires_at < $1", [.integer(milliseconds - 86_400_000)])
            try connection.query(
                """
                INSERT INTO pairing_codes (user_id, lookup, code_hash, created_at, expires_at)
                VALUES ($1, $2, $3, $4, $5)
                """,
                [
                    .integer(userID), .text(String(stored.prefix(SyncServerRules.pairingLookupLength))),
                    .text(SHA256.hexHash(stored)), .integer(milliseconds),
                    .integer(SyncServerRules.milliseconds(expiresAt)),
                ])
            return SyncPairingCode(user: user, code: code, expiresAt: expiresAt)
        }
    }
#endif
