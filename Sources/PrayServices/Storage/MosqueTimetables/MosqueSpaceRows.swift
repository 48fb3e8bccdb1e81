import Foundation
import PrayCore

/// A mosque's settings, notices and announced month starts, kept by the mosque's name here
/// (`mosque_space_rows`), and the home on this device of the rows of the mosque spaces it follows
/// (SYNC.md §8): a `mosque-month` row is a month of the mosque's timetable (``MosqueTimetableStoreSQLite``),
/// the others are rows of that table. Their keys here are `<space ID>/<key>` (``SyncSpaces``).
enum MosqueSpaceRows: SyncedCollection {
    static var collections: [SyncCollection] { [.mosqueMonth, .mosqueSettings, .notice] }

    /// None: a space's rows are never the person's own, so a first login queues none of them.
    static func rows(_ connection: SQLiteConnection) throws -> [SyncedRow] { [] }

    static func value(_ collection: SyncCollection, key: String, _ connection: SQLiteConnection) throws -> SyncValue? {
        guard let (space, key) = SyncSpaces.split(collection, key),
            let mosque = try SyncSpaces.space(id: space, connection)?.localName
        else { return nil }
        if collection == .mosqueMonth {
            let (year, month) = try month(key)
            return try MosqueTimetableStoreSQLite.value(
                .mosque, key: SyncRules.mosqueKey(name: mosque, year: year, month: month), connection
            )?.payload(as: SyncMosqueValue.self).map { .mosqueMonth(SyncMosqueMonthValue($0)) }
        }
        return try read(mosque: mosque, collection, key: key, connection)
    }

    static func apply(_ row: SyncRow, _ connection: SQLiteConnection) throws {
        guard let (space, key) = SyncSpaces.split(row.collection, row.key),
            let mosque = try SyncSpaces.space(id: space, connection)?.localName
        else { return }
        if row.collection == .mosqueMonth {
            let (year, month) = try month(key)
            try MosqueTimetableStoreSQLite.applyMonth(
                name: mosque, year: year, month: month, row.value?.payload(as: SyncMosqueMonthValue.self)?.month,
                importedAt: row.hlc.milliseconds, connection)
        } else {
            try write(mosque: mosque, row.collection, key: key, value: row.value, connection)
        }
    }

    /// Backups keep a followed mosque's timetable with the other mosques' (``MosqueTimetableStoreSQLite``);
    /// its settings and notices are the mosque's, pulled again after a restore.
    static func export(_ connection: SQLiteConnection, into data: inout UserData) throws {}

    static func restore(_ data: UserData, _ restore: SyncedRestore, _ connection: SQLiteConnection) throws {}

    /// The year and month of a `mosque-month` key.
    static func month(_ key: String) throws(ValidationError) -> (year: Int, month: Int) {
        let (_, year, month) = try SyncRules.parseMosqueKey("m/" + key)
        return (year, month)
    }

    // MARK: - The table

    /// The value of the mosque's row of `collection` and `key`, if any.
    static func read(mosque: String, _ collection: SyncCollection, key: String, _ connection: SQLiteConnection) throws
        -> SyncValue?
    {
        let statement = try connection.prepare(
            "SELECT value FROM mosque_space_rows WHERE mosque = ? AND collection = ? AND key = ?")
        try statement.bind([.text(mosque), .text(collection.rawValue), .text(key)])
        guard try statement.step(), let text = statement.text(0) else { return nil }
        return try? SyncValue(collection, json: Data(text.utf8))
    }

    /// The mosque's rows of `collection`, by key; a row that no longer reads is left out.
    static func list(mosque: String, _ collection: SyncCollection, _ connection: SQLiteConnection) throws
        -> [(key: String, value: SyncValue)]
    {
        let statement = try connection.prepare(
            "SELECT key, value FROM mosque_space_rows WHERE mosque = ? AND collection = ? ORDER BY key")
        try statement.bind([.text(mosque), .text(collection.rawValue)])
        var rows: [(key: String, value: SyncValue)] = []
        while try statement.step() {
            guard let key = statement.text(0), let text = statement.text(1),
                let value = try? SyncValue(collection, json: Data(text.utf8))
            else { continue }
            rows.append((key, value))
        }
        return rows
    }

    /// Writes (or, with `nil`, removes) the mosque's row of `collection` and `key`.
    static func write(
        mosque: String, _ collection: SyncCollection, key: String, value: SyncValue?, _ connection: SQLiteConnection
    ) throws {
        if let value {
            try connection.prepare(
                "INSERT INTO mosque_space_rows (mosque, collection, key, value) VALUES (?, ?, ?, ?) "
                    + "ON CONFLICT (mosque, collection, key) DO UPDATE SET value = excluded.value"
            ).run([
                .text(mosque), .text(collection.rawValue), .text(key),
                .text(String(decoding: try value.jsonData(), as: UTF8.self)),
            ])
        } else {
            try connection.prepare("DELETE FROM mosque_space_rows WHERE mosque = ? AND collection = ? AND key = ?")
                .run([.text(mosque), .text(collection.rawValue), .text(key)])
        }
    }

    /// Removes every row of the mosque.
    static func removeAll(mosque: String, _ connection: SQLiteConnection) throws {
        try connection.prepare("DELETE FROM mosque_space_rows WHERE mosque = ?").run([.text(mosque)])
    }
}
