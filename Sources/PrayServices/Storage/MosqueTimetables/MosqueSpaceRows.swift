import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

    /// Backups keep every mosque's settings, announced starts and notices (`mosqueDetails`), a
    /// followed mosque's as this device last had them, beside the timetables
    /// (``MosqueTimetableStoreSQLite``).
    static func export(_ connection: SQLiteConnection, into data: inout UserData) throws {
        let statement = try connection.prepare(
            "SELECT mosque, collection, key, value FROM mosque_space_rows ORDER BY mosque, collection, key")
        var details: [MosqueDetails] = []
        while try statement.step() {
            // A collection this version does not know (a newer one's) is not a backup's to keep.
            guard let name = statement.text(0),
                let collection = statement.text(1).flatMap(SyncCollection.init(rawValue:)),
                let key = statement.text(2), let text = statement.text(3)
            else { continue }
            // A row of a known collection that does not read is damage: said, not left out unseen.
            guard let value = try? SyncValue(collection, json: Data(text.utf8)) else {
                throw StorageError(
                    kind: .invalidData,
                    message: "the \(collection.rawValue) row \(key) of \(name) cannot be read; nothing was exported",
                    path: connection.path)
            }
            if details.last?.name != name { details.append(MosqueDetails(name: name)) }
            if let settings = value.payload(as: SyncMosqueSettingsValue.self) {
                details[details.count - 1].settings = settings
            } else if let start = value.payload(as: SyncHijriStartValue.self) {
                details[details.count - 1].hijriStarts[key] = start
            } else if let notice = value.payload(as: SyncNoticeValue.self) {
                details[details.count - 1].notices[key] = notice
            }
        }
        data.mosqueDetails = details
    }

    /// An import replaces the details of every mosque but those of the spaces this device follows (or
    /// followed, and keeps as a copy no longer updated): theirs are the mosque's, and stay as its space
    /// last gave them, as their timetables do. Nothing is journaled: a mosque's details outside a space
    /// stay on this device (``SyncJournal/changed(inMosque:_:key:value:now:_:)``).
    static func restore(_ data: UserData, _ restore: SyncedRestore, _ connection: SQLiteConnection) throws {
        guard let details = data.mosqueDetails else { return }
        let followed = Set(try SyncSpaces.all(connection).map(\.localName))
        let names = try connection.prepare("SELECT DISTINCT mosque FROM mosque_space_rows")
        var stored: [String] = []
        while try names.step() { stored += names.text(0).map { [$0] } ?? [] }
        for name in stored where !followed.contains(name) { try removeAll(mosque: name, connection) }
        for mosque in details where !followed.contains(mosque.name) {
            var rows: [(SyncCollection, String, SyncValue)] = []
            if let settings = mosque.settings { rows.append((.mosqueSettings, "settings", .mosqueSettings(settings))) }
            rows += mosque.hijriStarts.map { (.hijriStart, $0.key, .hijriStart($0.value)) }
            rows += mosque.notices.map { (.notice, $0.key, .notice($0.value)) }
            for (collection, key, value) in rows {
                try write(mosque: mosque.name, collection, key: key, value: value, connection)
            }
        }
    }

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
