import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One synced collection's home on a device (DESIGN §1): the store that keeps it in the database
/// conforms, in its `+Sync.swift` file beside the store, and says how sync and backups reach its rows.
/// The sync client, the first login and the backups loop over ``SyncedCollections/all``; adding a
/// collection is its own folder (its store, its value type and validator in PrayCore) and one line in
/// that list and in ``SyncCollection/all``.
///
/// Every function works inside a transaction the caller holds.
protocol SyncedCollection: Sendable {
    /// The collections whose rows it keeps (the preferences keep three: `pref`, `place`, `hijri-start`).
    static var collections: [SyncCollection] { get }

    /// Whether its rows at the first login follow the login's ``SyncLogin/Preference`` (the settings:
    /// the server's values first, or this device's); the others are always queued at login.
    static var followsLoginPreference: Bool { get }

    /// Whether a backup's export streams it entry by entry (the log) rather than holding it in memory.
    static var isStreamedInBackups: Bool { get }

    /// Every row it keeps now, in a stable order, each with when it was recorded where it knows (a first
    /// login stamps those rows from that time, so an older one never replaces a newer one on the server).
    static func rows(_ connection: SQLiteConnection) throws -> [SyncedRow]

    /// The value this device keeps for `key` of `collection` now, or `nil` when it has none (what a
    /// pulled row would replace: kept in the conflicts list when the server had not seen it).
    static func value(_ collection: SyncCollection, key: String, _ connection: SQLiteConnection) throws -> SyncValue?

    /// Writes a pulled row — a put, or for a tombstone a delete — already checked by its validator.
    static func apply(_ row: SyncRow, _ connection: SQLiteConnection) throws

    /// Adds what it keeps to a backup.
    static func export(_ connection: SQLiteConnection, into data: inout UserData) throws

    /// Replaces what it keeps with the backup's (keeping it when the backup holds none of it, a backup
    /// made before PrayKit kept it); under sync, a put for every row in the backup and a delete for every
    /// row it lacks, through `restore.journal`.
    static func restore(_ data: UserData, _ restore: SyncedRestore, _ connection: SQLiteConnection) throws
}

extension SyncedCollection {
    /// Only the settings follow the login's preference.
    static var followsLoginPreference: Bool { false }
    /// Only the log streams.
    static var isStreamedInBackups: Bool { false }
}

/// A row a collection keeps, as sync sends it.
struct SyncedRow {
    /// The row's collection.
    var collection: SyncCollection
    /// The row's key.
    var key: String
    /// The row's value.
    var value: SyncValue
    /// When it was recorded, where the collection keeps that.
    var recordedAt: Date?
}

/// What an import hands each collection.
struct SyncedRestore {
    /// Sync's journal, for the outbox entries of the import.
    var journal: SyncJournal
    /// The stamp of the import.
    var now: Date
    /// The settings that keep their stored values.
    var kept: Set<Preferences.Key>
}

/// The synced collections of a device, registered once.
enum SyncedCollections {
    /// Every home, in the order a first login, a backup and an import go through them: the collections
    /// recorded with a time first, so that the rows stamped "now" come after them.
    static let all: [any SyncedCollection.Type] = [
        PrayerLogStoreSQLite.self, QadaStoreSQLite.self, FastStoreSQLite.self, MosqueTimetableStoreSQLite.self,
        PreferencesStoreSQLite.self, MosqueSpaceRows.self,
    ]

    /// The home of each collection.
    private static let homes: [SyncCollection: any SyncedCollection.Type] = {
        var homes: [SyncCollection: any SyncedCollection.Type] = [:]
        for home in all {
            for collection in home.collections { homes[collection] = home }
        }
        return homes
    }()

    /// The home that keeps `collection`'s rows, or `nil` for one no home keeps (a programming error,
    /// caught by a test).
    static func home(of collection: SyncCollection) -> (any SyncedCollection.Type)? { homes[collection] }
}
