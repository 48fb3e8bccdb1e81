import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Conflicts

extension SyncServiceHTTP {
    /// The local values a pulled row replaced before the server had them, oldest first; see
    /// ``SyncService/conflicts()``.
    /// - Throws: ``StorageError``.
    public func conflicts() throws -> [SyncConflict] {
        guard database.exists else { return [] }
        return try database.read { connection in try Self.conflicts(connection) }
    }

    /// Makes the conflict's local value the row's value again, as a new change; see
    /// ``SyncService/keepConflict(id:)``.
    /// - Throws: ``SyncError`` (`notLoggedIn`), ``StorageError``, ``ValidationError``.
    public func keepConflict(id: Int) throws {
        let now = clock.now()
        try database.write { [journal] connection in
            guard try SyncJournal.isOn(connection) else {
                throw SyncError(.notLoggedIn, message: "sync is not set up on this device: log in first")
            }
            guard let conflict = try Self.conflicts(connection).first(where: { $0.id == id }),
                let home = SyncedCollections.home(of: conflict.collection)
            else { throw Self.noConflict(id) }
            // The local value as a change of now: written, stamped after everything seen, and queued.
            try journal.append(conflict.collection, conflict.key, value: conflict.localValue, now: now, connection)
            guard let stamp = try SyncJournal.rowStamp(conflict.collection, conflict.key, connection) else { return }
            try home.apply(
                SyncRow(
                    collection: conflict.collection, key: conflict.key, hlc: stamp, deleted: conflict.localValue == nil,
                    value: conflict.localValue), connection)
            try connection.prepare("DELETE FROM sync_conflicts WHERE id = ?").run([.integer(Int64(id))])
        }
        notifyLocal()
    }

    /// Forgets a conflict; see ``SyncService/dismissConflict(id:)``.
    /// - Throws: ``StorageError``, ``ValidationError``.
    public func dismissConflict(id: Int) throws {
        guard database.exists else { throw Self.noConflict(id) }
        try database.write { connection in
            try connection.prepare("DELETE FROM sync_conflicts WHERE id = ?").run([.integer(Int64(id))])
            guard try connection.integer("SELECT changes()") ?? 0 > 0 else { throw Self.noConflict(id) }
        }
        notifyLocal()
    }

    /// Every conflict, oldest first; the winner is the row's value now (a later pull may have changed
    /// it again), and an entry whose values no longer read is left out.
    static func conflicts(_ connection: SQLiteConnection) throws -> [SyncConflict] {
        let statement = try connection.prepare(
            "SELECT id, collection, key, local_value, reason, at FROM sync_conflicts ORDER BY id")
        var conflicts: [SyncConflict] = []
        while try statement.step() {
            guard let collection = statement.text(1).flatMap(SyncCollection.init(rawValue:)),
                let reason = statement.text(4).flatMap(SyncConflict.Reason.init(rawValue:)),
                let home = SyncedCollections.home(of: collection)
            else { continue }
            let key = statement.text(2) ?? ""
            let local = try statement.text(3).map { try SyncValue(collection, json: Data($0.utf8)) }
            conflicts.append(
                SyncConflict(
                    id: Int(statement.int64(0)), collection: collection, key: key, localValue: local,
                    winningValue: try home.value(collection, key: key, connection), reason: reason,
                    at: Date(timeIntervalSince1970: Double(statement.int64(5)) / 1000)))
        }
        return conflicts
    }

    private static func noConflict(_ id: Int) -> ValidationError {
        ValidationError(field: "id", message: "there is no conflict \(id)")
    }
}
