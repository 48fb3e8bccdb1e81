import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ``MosqueTimetableStore`` in the SQLite database: a `mosque` row per name and a `mosque_day` row
/// per day (its times as JSON). An import replaces a mosque's days in one transaction.
public struct MosqueTimetableStoreSQLite: MosqueTimetableStore {
    let database: SQLiteDatabase
    let log: LogManager
    let clock: any PrayClock
    let journal: SyncJournal

    /// Creates the store.
    /// - Parameters:
    ///   - database: The database; it is not created just to read.
    ///   - log: The logger.
    ///   - clock: The clock (the container's) that stamps imports (and their sync stamps).
    ///   - journal: Sync's journal: once sync is on, an import puts each month of the mosque's
    ///     timetable (a `mosque` row) and deletes the months it no longer has, in the import's
    ///     transaction; a removal deletes every month.
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

extension MosqueTimetableStoreSQLite {
    /// The database's serial queue, where the store's `async` view runs.
    public var workQueue: WorkQueue { database.workQueue }

    /// Stores `timetable`, replacing the mosque of that name and all its days, in one transaction.
    /// - Throws: ``StorageError``.
    public func replace(_ timetable: MosqueTimetable) throws {
        let date = clock.now()
        try database.write { [journal] connection in
            let before = try Self.months(of: timetable.name, connection)
            try Self.store(timetable, importedAt: PrayerLogEntry.milliseconds(date), connection)
            let after = Self.syncRows(of: timetable)
            let gone = before.subtracting(after.map(\.key)).sorted().map { (key: $0, value: SyncValue?.none) }
            try journal.changed(.mosque, after + gone, now: date, connection)
        }
        log.notice("Mosque timetable imported", metadata: ["mosque.days": "\(timetable.days.count)"])
    }

    /// The mosques kept, by name.
    /// - Throws: ``StorageError``.
    public func mosques() throws -> [MosqueSummary] {
        guard database.exists else { return [] }
        return try database.read { connection in
            let statement = try connection.prepare(
                "SELECT m.name, m.latitude, m.longitude, m.elevation, m.time_zone, min(d.day), max(d.day), "
                    + "count(d.day), m.imported_at FROM mosque m JOIN mosque_day d ON d.mosque = m.name "
                    + "GROUP BY m.name ORDER BY m.name")
            var summaries: [MosqueSummary] = []
            while try statement.step() {
                summaries.append(
                    MosqueSummary(
                        name: statement.text(0) ?? "", coordinates: try Self.coordinates(statement, from: 1),
                        timeZone: statement.text(4) ?? "", first: CivilDate(daysSince1970: Int(statement.int64(5))),
                        last: CivilDate(daysSince1970: Int(statement.int64(6))), days: Int(statement.int64(7)),
                        importedAt: Date(timeIntervalSince1970: Double(statement.int64(8)) / 1000)))
            }
            return summaries
        }
    }

    /// The mosque named `name` with its days from `first` through `last`.
    /// - Throws: ``StorageError``; `invalidData` for a stored day that does not read.
    public func timetable(named name: String, from first: CivilDate, through last: CivilDate) throws
        -> MosqueTimetable?
    {
        guard database.exists else { return nil }
        return try database.read { connection in try Self.load(name: name, from: first, through: last, connection) }
    }

    /// Removes the mosque named `name` and its days, with its settings and notices.
    /// - Throws: ``ValidationError`` for a mosque this device follows (it is left, not removed),
    ///   ``StorageError``.
    @discardableResult
    public func remove(named name: String) throws -> Bool {
        guard database.exists else { return false }
        let date = clock.now()
        return try database.write { [journal] connection in
            let space = try SyncSpaces.space(named: name, connection)
            if let space, !space.isGone {
                throw ValidationError(
                    field: "mosque",
                    message: "\(name) is a mosque this device follows: its timetable is the mosque's; leave the mosque "
                        + "to stop following it")
            }
            let months = try Self.months(of: name, connection)
            let statement = try connection.prepare("DELETE FROM mosque WHERE name = ?")
            try statement.run([.text(name)])
            let removed = try connection.integer("SELECT changes()") ?? 0 > 0
            try MosqueSpaceRows.removeAll(mosque: name, connection)
            // A copy of a mosque no longer updated was never the person's data: nothing to delete there.
            if space == nil {
                try journal.changed(.mosque, months.sorted().map { (key: $0, value: nil) }, now: date, connection)
            }
            try connection.prepare("DELETE FROM sync_spaces WHERE name = ?").run([.text(name)])
            return removed
        }
    }
}

// MARK: - In a transaction

extension MosqueTimetableStoreSQLite {
    /// Stores `timetable` in the caller's transaction, replacing the mosque of that name and its days.
    static func store(_ timetable: MosqueTimetable, importedAt: Int64, _ connection: SQLiteConnection) throws {
        let rows = try timetable.days.map { day in (day.date.daysSince1970, try StoredDay(day).json()) }
        try connection.prepare("DELETE FROM mosque WHERE name = ?").run([.text(timetable.name)])
        try insertMosque(
            name: timetable.name, coordinates: timetable.coordinates, timeZone: timetable.timeZone,
            importedAt: importedAt, connection)
        let day = try connection.prepare("INSERT INTO mosque_day (mosque, day, times) VALUES (?, ?, ?)")
        for (number, json) in rows { try day.run([.text(timetable.name), .integer(Int64(number)), .text(json)]) }
    }

    /// Every mosque with all its days, by name: what a backup holds.
    static func loadAll(_ connection: SQLiteConnection) throws -> [MosqueTimetable] {
        let names = try connection.prepare("SELECT name FROM mosque ORDER BY name")
        var result: [MosqueTimetable] = []
        var list: [String] = []
        while try names.step() { list.append(names.text(0) ?? "") }
        for name in list {
            if let timetable = try load(name: name, from: nil, through: nil, connection) { result.append(timetable) }
        }
        return result
    }

    /// The keys of the months a mosque has days in.
    static func months(of name: String, _ connection: SQLiteConnection) throws -> Set<String> {
        let statement = try connection.prepare("SELECT day FROM mosque_day WHERE mosque = ?")
        try statement.bind([.text(name)])
        var keys = Set<String>()
        while try statement.step() {
            let date = CivilDate(daysSince1970: Int(statement.int64(0)))
            keys.insert(SyncRules.mosqueKey(name: name, year: date.year, month: date.month))
        }
        return keys
    }

    static func insertMosque(
        name: String, coordinates: Coordinates, timeZone: String, importedAt: Int64, _ connection: SQLiteConnection
    ) throws {
        try connection.prepare(
            "INSERT INTO mosque (name, latitude, longitude, elevation, time_zone, imported_at) VALUES (?, ?, ?, ?, ?, ?)"
        ).run([
            .text(name), .real(coordinates.latitude), .real(coordinates.longitude), .real(coordinates.elevation),
            .text(timeZone), .integer(importedAt),
        ])
    }
}

// MARK: - Helpers

extension MosqueTimetableStoreSQLite {
    /// The mosque named `name` with its days from `first` through `last` (all when `nil`).
    static func load(
        name: String, from first: CivilDate?, through last: CivilDate?, _ connection: SQLiteConnection
    ) throws -> MosqueTimetable? {
        let mosque = try connection.prepare(
            "SELECT latitude, longitude, elevation, time_zone FROM mosque WHERE name = ?")
        try mosque.bind([.text(name)])
        guard try mosque.step() else { return nil }
        let coordinates = try Self.coordinates(mosque, from: 0)
        let zone = mosque.text(3) ?? ""
        let statement = try connection.prepare(
            "SELECT day, times FROM mosque_day WHERE mosque = ? AND day BETWEEN ? AND ? ORDER BY day")
        try statement.bind([
            .text(name), .integer(Int64(first?.daysSince1970 ?? Int(Int32.min))),
            .integer(Int64(last?.daysSince1970 ?? Int(Int32.max))),
        ])
        var days: [MosqueDay] = []
        while try statement.step() {
            let date = CivilDate(daysSince1970: Int(statement.int64(0)))
            guard let day = StoredDay.day(statement.text(1) ?? "", date: date) else {
                throw StorageError(
                    kind: .invalidData, message: "the stored times of \(name) on \(date) do not read",
                    path: connection.path)
            }
            days.append(day)
        }
        return MosqueTimetable(name: name, coordinates: coordinates, timeZone: zone, days: days)
    }

    private static func coordinates(_ statement: SQLiteStatement, from column: Int32) throws -> Coordinates {
        try Coordinates(
            latitude: statement.double(column), longitude: statement.double(column + 1),
            elevation: statement.double(column + 2))
    }

    /// A day's times as stored: minutes after midnight by stable prayer name.
    struct StoredDay: Codable {
        var adhan: [String: Int]
        var iqama: [String: Int]
        var jumuah: [Int]

        init(_ day: MosqueDay) {
            adhan = Dictionary(uniqueKeysWithValues: day.adhan.map { ($0.key.rawValue, $0.value) })
            iqama = Dictionary(uniqueKeysWithValues: day.iqama.map { ($0.key.rawValue, $0.value) })
            jumuah = day.jumuah
        }

        func json() throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }

        static func day(_ text: String, date: CivilDate) -> MosqueDay? {
            guard let stored = try? JSONDecoder().decode(StoredDay.self, from: Data(text.utf8)) else { return nil }
            func prayers(_ table: [String: Int]) -> [Prayer: Int]? {
                var result: [Prayer: Int] = [:]
                for (name, minutes) in table {
                    guard let prayer = Prayer(rawValue: name), MosqueDay.allowedMinutes(prayer).contains(minutes) else {
                        return nil
                    }
                    result[prayer] = minutes
                }
                return result
            }
            guard let adhan = prayers(stored.adhan), let iqama = prayers(stored.iqama) else { return nil }
            return MosqueDay(date: date, adhan: adhan, iqama: iqama, jumuah: stored.jumuah)
        }
    }
}
