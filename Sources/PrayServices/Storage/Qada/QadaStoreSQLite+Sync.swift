import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The prayers to make up in sync and backups: a `qada` row per entry, keyed by its id (SyncQadaValue in
// PrayCore holds the value and its rules).
extension QadaStoreSQLite: SyncedCollection {
    static var collections: [SyncCollection] { [.qada] }

    /// The `qada` row of an entry.
    static func syncRow(_ entry: QadaEntry) -> (key: String, value: SyncValue?) {
        (entry.id, .qada(SyncQadaValue(entry)))
    }

    static func rows(_ connection: SQLiteConnection) throws -> [SyncedRow] {
        try load(connection).map { entry in
            SyncedRow(
                collection: .qada, key: entry.id, value: .qada(SyncQadaValue(entry)), recordedAt: entry.recordedAt)
        }
    }

    static func value(_ collection: SyncCollection, key: String, _ connection: SQLiteConnection) throws -> SyncValue? {
        try load(connection, "WHERE id = ?", [.text(key)]).first.map { .qada(SyncQadaValue($0)) }
    }

    static func apply(_ row: SyncRow, _ connection: SQLiteConnection) throws {
        if let qada = row.value?.payload(as: SyncQadaValue.self) {
            try upsert([try QadaEntry(key: row.key, qada)], connection)
        } else {
            try delete(ids: [row.key], connection)
        }
    }

    static func export(_ connection: SQLiteConnection, into data: inout UserData) throws {
        data.qada = try load(connection)
    }

    static func restore(_ data: UserData, _ restore: SyncedRestore, _ connection: SQLiteConnection) throws {
        guard let qada = data.qada else { return }
        let before = try load(connection).map(\.id)
        try connection.execute("DELETE FROM qada_entry")
        try upsert(qada, connection)
        try restore.journal.replaced(.qada, before: before, after: qada.map(syncRow), now: restore.now, connection)
    }
}
