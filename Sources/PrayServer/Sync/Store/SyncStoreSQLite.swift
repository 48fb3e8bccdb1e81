import PrayCore
// PrayServices for its SQLite layer only (SQLiteDatabase, SQLiteConnection, Schema.Migration): the
// store runs on the one the device's database uses (Package.swift).
import PrayServices
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The sync server's store in one SQLite file of its own (SYNC.md §5): users with their version
/// counters, devices with the SHA-256 of their tokens, hashed pairing codes, failure counts per
/// address, clients with their last mutation, the rows, and the payload hashes of recent mutations.
///
/// Every change runs in one `BEGIN IMMEDIATE` transaction, so pushes take turns and commit in the
/// order of the versions they take. The file is created 0600 in a folder created 0700, and a file
/// that belongs to another user or that others can read is refused, as is one whose schema is not the
/// one PrayKit made (an extra trigger, view, table or index: the internal `checkSchema(at:)`).
///
/// ```swift
/// let store = SyncStoreSQLite(path: "/var/lib/praykit/sync.sqlite", log: log)
/// let code = try store.addUser(named: "amina", now: Date())
/// print("Pairing code for amina: \(code.code)")
/// ```
public final class SyncStoreSQLite: SyncStore {
    /// The store's file.
    public let path: String
    let database: SQLiteDatabase
    let limits: SyncStoreLimits
    let log: LogManager
    /// The devices seen whose last-seen time waits to be written.
    let lastSeen = SyncLastSeen()
    private let checkedFile = Mutex(false)

    /// Creates a handle on the store at `path`; nothing is opened or created until first use.
    /// - Parameters:
    ///   - path: The store's SQLite file (its folder is created 0700 when missing).
    ///   - limits: Quotas and failure counts; the standard ones by default.
    ///   - log: The logger: pairings and revocations at `info`, never a token or a code.
    public init(path: String, limits: SyncStoreLimits = .standard, log: LogManager) {
        self.path = path
        self.limits = limits
        self.log = log
        database = SQLiteDatabase(path: path, log: log, migrations: Self.migrations)
    }

    /// The logic both stores share, over this file.
    private var engine: SyncStoreEngine<SyncStoreSQLite> { SyncStoreEngine(database: self, limits: limits, log: log) }

    /// Opens the store (creating it when missing), which brings its schema up to date: a SQLite store
    /// has one server, so it upgrades itself when opened.
    /// - Returns: The version before (0 for a new file) and after.
    /// - Throws: ``StorageError`` (`schemaTooNew` for a store of a newer PrayKit).
    package func migrateSchema() throws -> SyncSchemaChange {
        let existed = FileManager.default.fileExists(atPath: path)
        try checkFile()
        // Read before SQLiteDatabase opens the file, which migrates it.
        let before = existed ? Int(try SQLiteConnection(path: path).integer("PRAGMA user_version") ?? 0) : 0
        let after = try database.read { Int(try $0.integer("PRAGMA user_version") ?? 0) }
        return SyncSchemaChange(before: before, after: after)
    }

    /// Runs `body` on one snapshot of the checked file, on the caller's thread (`body` need not be
    /// `Sendable`: a copy to another database writes there as it reads here).
    /// - Throws: What `body` throws, or ``StorageError``.
    func snapshot<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try checkFile()
        return try database.snapshot(body)
    }

    private func checkFile() throws(StorageError) {
        try checkedFile.withLock { (checked: inout Bool) throws(StorageError) in
            guard !checked else { return }
            try Self.preparePrivateFile(path)
            // Before the store is migrated or written: a planted trigger would run at the first write.
            try Self.checkSchema(at: path)
            checked = true
        }
    }
}

// MARK: - Transactions

extension SyncStoreSQLite: SyncSQLDatabase {
    /// Nothing: a push's `BEGIN IMMEDIATE` already makes pushes take turns.
    var userLock: String { "" }

    /// Runs `body` in one immediate transaction on the checked file (a lost connection cannot happen
    /// to a file, so `idempotent` changes nothing).
    func write<T: Sendable>(idempotent: Bool, _ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try checkFile()
        return try database.write(body)
    }

    /// Runs `body` on one snapshot of the checked file: an administrator's command in another process
    /// (or another server) may write meanwhile.
    func read<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try checkFile()
        return try database.snapshot(body)
    }
}

// MARK: - SyncStore

extension SyncStoreSQLite {
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

    /// Revokes a device; revoking it again changes nothing.
    /// - Throws: ``SyncServerError`` `not_found`; ``StorageError``.
    public func revokeDevice(_ deviceID: String, now: Date) throws { try engine.revokeDevice(deviceID, now: now) }

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

    /// Applies a push in one transaction (SYNC.md §3); a refused push writes nothing.
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
