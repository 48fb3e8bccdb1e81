#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The operator's steps on a sync server's store that are not serving (SYNC.md §5): bringing its
/// schema up to date, and moving a store from SQLite to PostgreSQL without anyone syncing afresh.
///
/// ```swift
/// let migrator = dependency.syncStoreMigrator()
/// let change = try migrator.migrateSchema(at: .postgreSQL(url: "postgresql:///praykit?host=/run/postgresql"))
/// let report = try migrator.copy(
///     from: .sqlite(path: "/var/lib/praykit/sync.sqlite"),
///     to: .postgreSQL(url: "postgresql:///praykit?host=/run/postgresql"), progress: { _ in })
/// print("Copied \(report.users) users and \(report.rows) rows")
/// ```
public protocol SyncStoreMigrator: Sendable {
    /// Creates the schema of the store at `location`, or upgrades it to this version's.
    ///
    /// A PostgreSQL store is never upgraded by a server that starts (several servers share it, and
    /// the step is the operator's); this is how it is. A SQLite store upgrades itself when opened,
    /// so this opens it and says what happened.
    /// - Parameter location: The store.
    /// - Returns: The schema version before (0 for none) and after.
    /// - Throws: ``StorageError`` (`schemaTooNew` for a store of a newer PrayKit, `readOnly` for a
    ///   read-only database or replica); ``SyncStoreError`` (`unsupported`) for a kind of store this
    ///   build does not have.
    func migrateSchema(at location: SyncStoreLocation) throws -> SyncSchemaChange

    /// Copies a whole store — its identity (the part of every cursor that names the store), users
    /// with their version counters, devices, pairing codes, clients, recent mutations, rows with their
    /// versions and failure counts — so that devices keep their tokens and cursors and nobody syncs
    /// afresh.
    ///
    /// The source is read in one snapshot; the destination is written in one transaction, so it ends
    /// either with the whole copy or unchanged. Its schema is created when missing.
    /// - Parameters:
    ///   - source: A SQLite store (`sqlite:PATH`) that exists.
    ///   - destination: A PostgreSQL store with no users.
    ///   - progress: Called now and then with what was copied so far, from the copying thread.
    /// - Returns: How many of each were copied.
    /// - Throws: ``SyncStoreError``: `invalidLocation` for a missing source or a destination that
    ///   holds users (then nothing was written), `unsupported` for another pair of kinds.
    ///   ``StorageError`` for a failure of either database (then nothing was written).
    func copy(
        from source: SyncStoreLocation, to destination: SyncStoreLocation,
        progress: @escaping @Sendable (SyncStoreCopyProgress) -> Void
    ) throws -> SyncStoreCopyReport
}

/// What creating or upgrading a store's schema did.
public struct SyncSchemaChange: Hashable, Sendable {
    /// The version found: 0 when the store had no schema.
    public let before: Int
    /// The version now.
    public let after: Int

    /// Creates a change.
    public init(before: Int, after: Int) {
        self.before = before
        self.after = after
    }

    /// Whether the schema was made from nothing.
    public var created: Bool { before == 0 && after > 0 }
    /// Whether an existing schema was upgraded.
    public var upgraded: Bool { before > 0 && after > before }
}

/// How far a copy of a store got: records of every table together.
public struct SyncStoreCopyProgress: Hashable, Sendable {
    /// The records copied so far.
    public let copied: Int
    /// The records to copy in all.
    public let total: Int

    /// Creates a progress report.
    public init(copied: Int, total: Int) {
        self.copied = copied
        self.total = total
    }
}

/// What a copy of a store copied.
public struct SyncStoreCopyReport: Hashable, Sendable {
    /// The users, with their version counters and row counts.
    public var users = 0
    /// The devices, revoked ones included.
    public var devices = 0
    /// The pairing codes and invitations, spent and expired ones included.
    public var pairingCodes = 0
    /// The memberships of mosque spaces.
    public var members = 0
    /// The clients, with their last mutation IDs.
    public var clients = 0
    /// The payload hashes of recent mutations.
    public var recentMutations = 0
    /// The rows, tombstones included, with their versions.
    public var rows = 0
    /// The failure counts per address (pairing and tokens).
    public var failures = 0
    /// The store's identity, which every cursor carries.
    public var storeID = ""

    /// Creates an empty report.
    public init() {}
}
