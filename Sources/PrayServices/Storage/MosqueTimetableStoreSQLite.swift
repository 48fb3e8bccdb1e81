import Foundation
import PrayCore

/// ``MosqueTimetableStore`` in the SQLite database: a `mosque` row per name and a `mosque_day` row
/// per day (its times as JSON). An import replaces a mosque's days in one transaction.
public struct MosqueTimetableStoreSQLite: MosqueTimetableStore {
    private let database: SQLiteDatabase
    private let log: LogManager
    private let now: @Sendable () -> Date

    /// Creates the store.
    /// - Parameters:
    ///   - database: The database; it is not created just to read.
    ///   - log: The logger.
    ///   - now: The clock that stamps imports.
    public init(database: SQLiteDatabase, log: LogManager, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.log = log
        self.now = now
    }
}

extension MosqueTimetableStoreSQLite {
    /// Stores `timetable`, replacing the mosque of that name and all its days, in one transaction.
    /// - Throws: ``StorageError``.
    public func replace(_ timetable: MosqueTimetable) throws {
        let rows = try timetable.days.map { day in (day.date.daysSince1970, try StoredDay(day).json()) }
        let stamp = Int64((now().timeIntervalSince1970 * 1000).rounded(.down))
        try database.write { connection in
            let delete = try connection.prepare("DELETE FROM mosque WHERE name = ?")
            try delete.run([.text(timetable.name)])
            let insert = try connection.prepare(
                "INSERT INTO mosque (name, latitude, longitude, elevation, time_zone, imported_at) "
                    + "VALUES (?, ?, ?, ?, ?, ?)")
            let coordinates = timetable.coordinates
            try insert.run([
                .text(timetable.name), .real(coordinates.latitude), .real(coordinates.longitude),
                .real(coordinates.elevation), .text(timetable.timeZone), .integer(stamp),
            ])
            let day = try connection.prepare("INSERT INTO mosque_day (mosque, day, times) VALUES (?, ?, ?)")
            for (number, json) in rows { try day.run([.text(timetable.name), .integer(Int64(number)), .text(json)]) }
        }
        log.notice("Mosque timetable imported", metadata: ["mosque.days": "\(timetable.days.count)"])
    }

    /// The mosques kept, by name.
    /// - Throws: ``StorageError``.
    public func mosques() throws -> [MosqueSummary] {
        guard database.exists else { return [] }
        return try database.read { connection in
            let statement = try connection.prepare(
                "SELECT m.name, m.latitude, m.longitude, m.elevation, m.time_zone, min(d.day), max(d.day), count(d.day) "
                    + "FROM mosque m JOIN mosque_day d ON d.mosque = m.name GROUP BY m.name ORDER BY m.name")
            var summaries: [MosqueSummary] = []
            while try statement.step() {
                summaries.append(
                    MosqueSummary(
                        name: statement.text(0) ?? "", coordinates: try Self.coordinates(statement, from: 1),
                        timeZone: statement.text(4) ?? "", first: CivilDate(daysSince1970: Int(statement.int64(5))),
                        last: CivilDate(daysSince1970: Int(statement.int64(6))), days: Int(statement.int64(7))))
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
        return try database.read { connection -> MosqueTimetable? in
            let mosque = try connection.prepare(
                "SELECT latitude, longitude, elevation, time_zone FROM mosque WHERE name = ?")
            try mosque.bind([.text(name)])
            guard try mosque.step() else { return nil }
            let coordinates = try Self.coordinates(mosque, from: 0)
            let zone = mosque.text(3) ?? ""
            let statement = try connection.prepare(
                "SELECT day, times FROM mosque_day WHERE mosque = ? AND day BETWEEN ? AND ? ORDER BY day")
            try statement.bind([
                .text(name), .integer(Int64(first.daysSince1970)), .integer(Int64(last.daysSince1970)),
            ])
            var days: [MosqueDay] = []
            while try statement.step() {
                let date = CivilDate(daysSince1970: Int(statement.int64(0)))
                guard let day = StoredDay.day(statement.text(1) ?? "", date: date) else {
                    throw StorageError(
                        kind: .invalidData, message: "the stored times of \(name) on \(date) do not read",
                        path: database.path)
                }
                days.append(day)
            }
            return MosqueTimetable(name: name, coordinates: coordinates, timeZone: zone, days: days)
        }
    }

    /// Removes the mosque named `name` and its days.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func remove(named name: String) throws -> Bool {
        guard database.exists else { return false }
        return try database.write { connection in
            let statement = try connection.prepare("DELETE FROM mosque WHERE name = ?")
            try statement.run([.text(name)])
            return try connection.integer("SELECT changes()") ?? 0 > 0
        }
    }
}

// MARK: - Helpers

extension MosqueTimetableStoreSQLite {
    private static func coordinates(_ statement: SQLiteStatement, from column: Int32) throws -> Coordinates {
        try Coordinates(
            latitude: statement.double(column), longitude: statement.double(column + 1),
            elevation: statement.double(column + 2))
    }

    /// A day's times as stored: minutes after midnight by stable prayer name.
    private struct StoredDay: Codable {
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
                    guard let prayer = Prayer(rawValue: name), (0..<1440).contains(minutes) else { return nil }
                    result[prayer] = minutes
                }
                return result
            }
            guard let adhan = prayers(stored.adhan), let iqama = prayers(stored.iqama) else { return nil }
            return MosqueDay(date: date, adhan: adhan, iqama: iqama, jumuah: stored.jumuah)
        }
    }
}
