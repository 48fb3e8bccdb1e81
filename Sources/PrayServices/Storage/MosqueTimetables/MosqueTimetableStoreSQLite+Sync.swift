import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The mosques' imported timetables in sync and backups: a `mosque` row per mosque and month, keyed
// `<mosque name>/YYYY-MM`, the month's days with the mosque's place (SyncMosqueValue in PrayCore holds
// the value and its rules).
extension MosqueTimetableStoreSQLite: SyncedCollection {
    static var collections: [SyncCollection] { [.mosque] }

    /// The months of the person's own mosques: not those of the mosque spaces this device follows
    /// (they are the mosque's, in its space).
    static func rows(_ connection: SQLiteConnection) throws -> [SyncedRow] {
        let spaces = Set(try SyncSpaces.all(connection).map(\.localName))
        return try loadAll(connection).filter { !spaces.contains($0.name) }.flatMap(syncRows(of:)).compactMap { row in
            row.value.map { SyncedRow(collection: .mosque, key: row.key, value: $0, recordedAt: nil) }
        }
    }

    static func value(_ collection: SyncCollection, key: String, _ connection: SQLiteConnection) throws -> SyncValue? {
        let (name, year, month) = try SyncRules.parseMosqueKey(key)
        let first = try CivilDate(year: year, month: month, day: 1)
        let last = first.adding(days: CivilDate.daysIn(month: month, year: year) - 1)
        guard let timetable = try load(name: name, from: first, through: last, connection) else { return nil }
        return syncRows(of: timetable).first { $0.key == key }?.value
    }

    static func apply(_ row: SyncRow, _ connection: SQLiteConnection) throws {
        let (name, year, month) = try SyncRules.parseMosqueKey(row.key)
        try applyMonth(
            name: name, year: year, month: month, row.value?.payload(as: SyncMosqueValue.self),
            importedAt: row.hlc.milliseconds, connection)
    }

    static func export(_ connection: SQLiteConnection, into data: inout UserData) throws {
        data.mosques = try loadAll(connection)
    }

    /// An import replaces the person's own mosques: every month of every mosque in the file is put,
    /// every month it lacks deleted. The mosques of the spaces this device follows (or followed, and
    /// keeps as a copy no longer updated) are left as they are, whatever the file holds for their
    /// names: their timetables are the mosques', and an import must never send a space a deletion.
    static func restore(_ data: UserData, _ restore: SyncedRestore, _ connection: SQLiteConnection) throws {
        guard let mosques = data.mosques else { return }
        let spaces = Set(try SyncSpaces.all(connection).map(\.localName))
        let own = try loadAll(connection).filter { !spaces.contains($0.name) }
        let before = own.flatMap(syncRows(of:)).map(\.key)
        let remove = try connection.prepare("DELETE FROM mosque WHERE name = ?")
        for mosque in own { try remove.run([.text(mosque.name)]) }
        let restored = mosques.filter { !spaces.contains($0.name) }
        for mosque in restored {
            try store(mosque, importedAt: PrayerLogEntry.milliseconds(restore.now), connection)
        }
        let after = restored.flatMap(syncRows(of:))
        try restore.journal.replaced(.mosque, before: before, after: after, now: restore.now, connection)
    }

    /// The `mosque` rows of every mosque kept: one per month.
    static func syncRows(_ connection: SQLiteConnection) throws -> [(key: String, value: SyncValue?)] {
        try loadAll(connection).flatMap(syncRows(of:))
    }

    /// The `mosque` rows of a timetable: one per month, each with the mosque's place.
    static func syncRows(of timetable: MosqueTimetable) -> [(key: String, value: SyncValue?)] {
        let months = Dictionary(grouping: timetable.days) { $0.date.year * 100 + $0.date.month }
        return months.keys.sorted().map { month in
            let place = timetable.coordinates
            let value = SyncMosqueValue(
                latitude: place.latitude, longitude: place.longitude, elevation: place.elevation,
                timeZone: timetable.timeZone, days: months[month, default: []].sorted { $0.date < $1.date })
            return (SyncRules.mosqueKey(name: timetable.name, year: month / 100, month: month % 100), .mosque(value))
        }
    }

    /// Writes a pulled month of a mosque in the caller's transaction: its days replace the month's,
    /// and its place the mosque's; `nil` (a tombstone) removes the month, and the mosque with its last
    /// month.
    static func applyMonth(
        name: String, year: Int, month: Int, _ value: SyncMosqueValue?, importedAt: Int64,
        _ connection: SQLiteConnection
    ) throws {
        let first = try CivilDate(year: year, month: month, day: 1)
        let last = first.adding(days: CivilDate.daysIn(month: month, year: year) - 1)
        try connection.prepare("DELETE FROM mosque_day WHERE mosque = ? AND day BETWEEN ? AND ?").run([
            .text(name), .integer(Int64(first.daysSince1970)), .integer(Int64(last.daysSince1970)),
        ])
        if let value {
            try connection.prepare(
                "UPDATE mosque SET latitude = ?, longitude = ?, elevation = ?, time_zone = ?, imported_at = ? "
                    + "WHERE name = ?"
            ).run([
                .real(value.latitude), .real(value.longitude), .real(value.elevation), .text(value.timeZone),
                .integer(importedAt), .text(name),
            ])
            if try connection.integer("SELECT changes()") ?? 0 == 0 {
                try insertMosque(
                    name: name,
                    coordinates: try Coordinates(
                        latitude: value.latitude, longitude: value.longitude, elevation: value.elevation),
                    timeZone: value.timeZone, importedAt: importedAt, connection)
            }
            let insert = try connection.prepare("INSERT INTO mosque_day (mosque, day, times) VALUES (?, ?, ?)")
            for day in value.days {
                try insert.run([.text(name), .integer(Int64(day.date.daysSince1970)), .text(try StoredDay(day).json())])
            }
        } else {
            try connection.prepare(
                "DELETE FROM mosque WHERE name = ? AND NOT EXISTS (SELECT 1 FROM mosque_day WHERE mosque = ?)"
            ).run([.text(name), .text(name)])
        }
    }
}
