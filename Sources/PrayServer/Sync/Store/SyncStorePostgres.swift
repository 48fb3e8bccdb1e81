#if canImport(CPostgres)
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
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
    /// safe: a mutation already applied is skipped as a retry.
    ///
    /// At first use the schema is created in a database without it. A database with an older schema
    /// is refused (servers share it: upgrading is the operator's step, ``SyncStoreMigratorSQL/migrateSchema(at:)``), and so are
    /// one with a newer schema and one that takes no writes (a hot-standby replica).
    ///
    /// ```swift
    /// let store = SyncStorePostgres(url: "postgresql:///praykit?host=/run/postgresql", log: log)
    /// let code = try store.addUser(named: "amina", now: Date())
    /// ```
    public final class SyncStorePostgres: SyncStore {
        /// The database's URL without its password, for messages and logs.
        public let location: String
        /// The database's URL as given, password and all: for the event listener's own connection,
        /// never for a message.
        let conninfo: String
        let pool: PostgresPool
        let limits: SyncStoreLimits
        let log: LogManager
        /// The devices seen whose last-seen time waits to be written.
        let lastSeen = SyncLastSeen()
        /// The schema's steps: ``migrations`` but in tests of upgrades.
        let migrations: [Migration]
        private let migrated = Mutex(false)

        /// Creates a handle on the database at `url`; nothing is opened until first use.
        /// - Parameters:
        ///   - url: A `postgres://` or `postgresql://` URL (libpq's form: `postgresql:///db?host=/socket`
        ///     for a Unix socket). It may hold a password, which no message or log line repeats.
        ///   - limits: Quotas and failure counts; the standard ones by default.
        ///   - connections: How many connections this process keeps at most (at least 1).
        ///   - log: The logger: pairings and revocations at `info`, never a token or a code.
        public convenience init(url: String, limits: SyncStoreLimits = .standard, connections: Int = 4, log: LogManager)
        {
            self.init(url: url, limits: limits, connections: connections, log: log, migrations: Self.migrations)
        }

        /// Creates a handle whose schema is `migrations` (tests use a synthetic later version).
        package init(
            url: String, limits: SyncStoreLimits = .standard, connections: Int = 4, log: LogManager,
            migrations: [Migration]
        ) {
            location = SyncStoreLocation.postgreSQL(url: url).description
            conninfo = url
            pool = PostgresPool(conninfo: url, size: connections)
            self.limits = limits
            self.log = log
            self.migrations = migrations
        }

        /// Creates the schema, or upgrades it to this version's: the operator's step, which a server
        /// never takes by itself.
        /// - Returns: The version before (0 for none) and after.
        /// - Throws: ``StorageError`` (`schemaTooNew`, `readOnly`, or the database's).
        package func migrateSchema() throws -> SyncSchemaChange {
            let change = try Self.upgrade(pool, migrations: migrations, location: location)
            migrated.withLock { $0 = true }
            if change.after != change.before {
                log.info(
                    "Sync store schema migrated",
                    metadata: [
                        "sync.store": location, "storage.from": "\(change.before)", "storage.to": "\(change.after)",
                    ])
            }
            return change
        }

        /// The logic both stores share, over this database.
        private var engine: SyncStoreEngine<SyncStorePostgres> {
            SyncStoreEngine(database: self, limits: limits, log: log)
        }

        private func migrateOnce() throws {
            try migrated.withLock { (done: inout Bool) throws in
                guard !done else { return }
                try Self.prepare(pool, migrations: migrations, location: location)
                done = true
            }
        }
    }

    // MARK: - Transactions

    extension SyncStorePostgres: SyncSQLDatabase {
        /// The user's row, locked by a push until its commit: at READ COMMITTED, nothing else makes
        /// the pushes of one user take turns.
        var userLock: String { " FOR UPDATE OF users" }

        /// Runs `body` in one READ COMMITTED transaction, once the schema is there; again whole after
        /// a serialization failure or a deadlock, and after a lost connection when `idempotent`.
        func write<T: Sendable>(idempotent: Bool, _ body: @Sendable (PostgresConnection) throws -> T) throws -> T {
            try naming {
                try migrateOnce()
                return try pool.transaction(idempotent: idempotent, body)
            }
        }

        /// Runs `body` in one read-only snapshot (REPEATABLE READ), once the schema is there.
        func read<T: Sendable>(_ body: @Sendable (PostgresConnection) throws -> T) throws -> T {
            try naming {
                try migrateOnce()
                return try pool.transaction(
                    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", commit: false, idempotent: true, body)
            }
        }

        /// Runs `body`, its ``StorageError``s naming this database (``location``, without a password).
        private func naming<T>(_ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch let error as StorageError where error.path == nil {
                throw StorageError(
                    kind: error.kind, code: error.code, message: error.message, sql: error.sql, path: location)
            }
        }
    }

    // MARK: - SyncStore

    extension SyncStorePostgres {
        /// Adds a user and makes their first pairing code.
        /// - Throws: ``SyncServerError`` `bad_request` or `user_exists`; ``StorageError``.
        public func addUser(named name: String, now: Date) throws -> SyncPairingCode {
            try engine.addUser(named: name, now: now)
        }

        /// Makes a new pairing code for an existing user.
        /// - Throws: ``SyncServerError`` `not_found`; ``StorageError``.
        public func newPairingCode(forUser name: String, now: Date) throws -> SyncPairingCode {
            try engine.newPairingCode(forUser: name, now: now)
        }

        /// The users, by name.
        /// - Throws: ``StorageError``.
        public func users() throws -> [SyncUser] { try engine.users() }

        /// Every device, by user, then creation.
        /// - Throws: ``StorageError``.
        public func devices() throws -> [SyncDevice] { try engine.devices() }

        /// Revokes a device; revoking it again changes nothing. Every server of the store then ends the
        /// device's event streams at once (a `NOTIFY`: docs/sync-protocol.md § Events), whichever process revoked it
        /// (a server for a device's logout, or the operator's `serve sync devices revoke`).
        /// - Throws: ``SyncServerError`` `not_found`; ``StorageError``.
        public func revokeDevice(_ deviceID: String, now: Date) throws {
            try engine.revokeDevice(deviceID, now: now)
            do {
                try eventRelay().publish(SyncEventNotice(.ended, origin: "", device: deviceID))
            } catch {
                // Revoked all the same: the servers' pings end its streams within one ping interval.
                log.warning(
                    "Event notice not sent to the servers", metadata: ["sync.device": deviceID, "error": "\(error)"])
            }
        }

        /// Redeems a pairing code once for a new device.
        /// - Throws: ``SyncServerError`` `bad_request`, `unauthorized` or `rate_limited`; ``StorageError``.
        public func pair(_ request: SyncAPI.PairRequest, address: String, now: Date) throws -> SyncAPI.PairResponse {
            try engine.pair(request, address: address, now: now)
        }

        /// Finds the device of a token.
        /// - Throws: ``SyncServerError`` `unauthorized` or `rate_limited`; ``StorageError``.
        public func authenticate(token: String, address: String, now: Date) throws -> SyncDeviceIdentity {
            try engine.authenticate(token: token, address: address, now: now)
        }

        /// Applies a push in one transaction (SYNC.md §3), run again whole after a serialization
        /// failure, a deadlock or a lost connection; a refused push writes nothing.
        /// - Throws: ``SyncServerError``; ``StorageError``.
        public func push(_ request: SyncAPI.PushRequest, from device: SyncDeviceIdentity, now: Date) throws
            -> SyncAPI.PushResponse
        {
            try engine.push(request, from: device, now: now)
        }

        /// A page of the user's rows after the cursor, never ending inside a version.
        /// - Throws: ``SyncServerError``; ``StorageError``.
        public func pull(_ request: SyncAPI.PullRequest, from device: SyncDeviceIdentity, now: Date) throws
            -> SyncAPI.PullResponse
        {
            try engine.pull(request, from: device, now: now)
        }

        /// Answers a device's request about spaces (protocol 2).
        /// - Throws: ``SyncServerError``; ``StorageError``.
        public func space(_ request: SyncSpaceRequest, from device: SyncDeviceIdentity, address: String, now: Date)
            throws -> SyncSpaceAnswer
        {
            try engine.space(request, from: device, address: address, now: now)
        }

        /// The version of every space the device may read, as pull cursors.
        /// - Throws: ``SyncServerError`` `unauthorized`; ``StorageError``.
        public func versions(for device: SyncDeviceIdentity) throws -> (personal: String?, versions: [String: String]) {
            try engine.versions(for: device)
        }

        /// Every mosque space, by name.
        /// - Throws: ``StorageError``.
        public func spaces() throws -> [SyncSpaceSummary] { try engine.spaces() }
        /// The members of the mosque space of `id`, for the operator; `nil` for no such mosque space.
        public func members(ofSpace id: String) throws -> [SyncAPI.Member]? { try engine.members(ofSpace: id) }

        /// The mosque space published at `slug`, with its rows when asked.
        /// - Throws: ``StorageError``.
        public func published(slug: String, rows: Bool) throws -> SyncPublishedSpace? {
            try engine.published(slug: slug, rows: rows)
        }
    }

    // MARK: - Event streams

    extension SyncStorePostgres: SyncEventRelaying {
        /// The servers of this database, told of each other's event streams with `LISTEN`/`NOTIFY`.
        func eventRelay() -> any SyncEventRelay { SyncEventRelayPostgres(store: self, log: log) }

        /// Sends `payload` on ``SyncEventNotice/channel`` to every server listening (on its own, outside
        /// any transaction: it leaves at once).
        /// - Throws: ``StorageError``.
        func notify(_ payload: String) throws {
            try naming {
                try pool.run("SELECT pg_notify($1, $2)", [.text(SyncEventNotice.channel), .text(payload)])
            }
        }

        /// The versions of `spaces` now, as pull cursors; spaces not found are left out.
        /// - Throws: ``StorageError``.
        func versions(ofSpaces spaces: Set<String>) throws -> [String: String] {
            // Only IDs of the form the store makes reach the array literal (its elements are not quoted).
            let ids = spaces.filter(SyncID.isSpaceID).sorted()
            guard !ids.isEmpty else { return [:] }
            let rows = try read { connection in
                let storeID = try connection.first("SELECT value FROM store WHERE key = 'id'")?.text(0) ?? ""
                let rows = try connection.rows(
                    "SELECT space_id, version FROM users WHERE space_id = ANY($1::text[])",
                    [.text("{" + ids.joined(separator: ",") + "}")])
                return rows.map { (space: $0.text(0) ?? "", version: $0.int64(1), storeID: storeID) }
            }
            var versions: [String: String] = [:]
            for row in rows { versions[row.space] = SyncServerRules.cursor(storeID: row.storeID, version: row.version) }
            return versions
        }
    }
#endif
