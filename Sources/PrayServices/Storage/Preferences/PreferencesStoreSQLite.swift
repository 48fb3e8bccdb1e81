import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ``PreferencesStore`` in the SQLite database: one row per set key, its normalised text.
public struct PreferencesStoreSQLite: PreferencesStore {
    private let database: SQLiteDatabase
    private let log: LogManager
    private let clock: any PrayClock
    private let journal: SyncJournal

    /// Creates the store.
    /// - Parameters:
    ///   - database: The database; it is not created just to read preferences.
    ///   - log: The logger.
    ///   - clock: The clock (the container's) that stamps synced changes.
    ///   - journal: Sync's journal, which adds each change of a synced setting or of the place to the
    ///     outbox in the same transaction once sync is on.
    public init(
        database: SQLiteDatabase, log: LogManager, clock: any PrayClock = PrayClockSystem(),
        journal: SyncJournal = SyncJournal()
    ) {
        self.database = database
        self.log = log
        self.clock = clock
        self.journal = journal
    }
}

extension PreferencesStoreSQLite {
    /// The stored preferences; empty when the database does not exist yet.
    /// - Throws: ``StorageError``, or `invalidData` when a stored value no longer validates.
    public func preferences() throws -> Preferences {
        guard database.exists else { return Preferences() }
        return try database.read { connection in try Self.load(connection) }
    }

    /// Changes the preferences in one transaction.
    /// - Throws: What `change` throws (nothing is saved), or ``StorageError``.
    @discardableResult
    public func update(_ change: (inout Preferences) throws -> Void) throws -> Preferences {
        // The change runs between two short transactions' worth of work: read, change, then write
        // only if the stored values are still the ones read (another process may have written).
        for _ in 0..<5 {
            let before = try preferences()
            var changed = before
            try change(&changed)
            let after = changed
            let stamp = clock.now()
            let saved = try database.write { [journal] connection -> Preferences? in
                guard try Self.load(connection) == before else { return nil }
                try Self.store(after, replacing: before, connection)
                try journal.preferencesChanged(from: before, to: after, now: stamp, connection)
                return after
            }
            if let saved {
                log.debug("Preferences saved", metadata: ["storage.keys": "\(saved.values.count)"])
                return saved
            }
        }
        throw StorageError(kind: .busy, message: "the preferences kept changing under this update", path: database.path)
    }

    /// The preferences now, then after every committed change; read on ``workQueue``, so that making
    /// the stream on the main actor never waits for the database.
    public func preferencesSequence() -> AsyncStream<Preferences> {
        database.observe { [self] in try preferences() }
    }

    /// The database's serial queue, where ``PreferencesStore/async`` runs.
    public var workQueue: WorkQueue { database.workQueue }
}

// MARK: - Helpers

extension PreferencesStoreSQLite {
    static func load(_ connection: SQLiteConnection) throws -> Preferences {
        let statement = try connection.prepare("SELECT key, value FROM preferences")
        var stored: [String: String] = [:]
        while try statement.step() {
            if let key = statement.text(0), let value = statement.text(1) { stored[key] = value }
        }
        do {
            return try Preferences(storedValues: stored)
        } catch {
            throw StorageError(
                kind: .invalidData,
                message: "a stored setting is not valid (\(error.message)); set or unset it again",
                path: connection.path
            )
        }
    }

    static func store(_ preferences: Preferences, replacing old: Preferences, _ connection: SQLiteConnection) throws {
        let delete = try connection.prepare("DELETE FROM preferences WHERE key = ?")
        for key in old.values.keys where preferences[key] == nil {
            try delete.run([.text(key.rawValue)])
        }
        let upsert = try connection.prepare(
            "INSERT INTO preferences (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        )
        for (key, value) in preferences.values where old[key] != value {
            try upsert.run([.text(key.rawValue), .text(value)])
        }
    }
}
