import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Published days kept in the database, so that a month or year is fetched once and served while
/// the network is down.
struct TimetableCache: Sendable {
    let database: SQLiteDatabase

    /// A cached day and when it was fetched.
    struct Entry: Sendable {
        let day: PublishedDay
        let fetchedAt: Date
    }

    /// The cached days of `provider` at `place` from `first` through `last` (days from 1970-01-01).
    func entries(provider: String, place: String, from first: Int, through last: Int) throws -> [Int: Entry] {
        guard database.exists else { return [:] }
        return try database.read { connection in
            let statement = try connection.prepare(
                "SELECT day, times, fetched_at FROM remote_timetable WHERE provider = ? AND place = ? AND day BETWEEN ? AND ?"
            )
            try statement.bind([.text(provider), .text(place), .integer(Int64(first)), .integer(Int64(last))])
            var entries: [Int: Entry] = [:]
            let decoder = JSONDecoder()
            while try statement.step() {
                guard let text = statement.text(1),
                    let day = try? decoder.decode(PublishedDay.self, from: Data(text.utf8))
                else {
                    continue  // an unreadable row is as good as missing: it is fetched again
                }
                entries[day.day] = Entry(
                    day: day, fetchedAt: Date(timeIntervalSince1970: Double(statement.int64(2)) / 1000))
            }
            return entries
        }
    }

    /// Stores `days` (already validated), replacing what was cached for them, in one transaction.
    func store(_ days: [PublishedDay], provider: String, place: String, fetchedAt: Date) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let rows = try days.map { day in (day.day, String(decoding: try encoder.encode(day), as: UTF8.self)) }
        let stamp = Int64((fetchedAt.timeIntervalSince1970 * 1000).rounded(.down))
        try database.write { connection in
            let statement = try connection.prepare(
                "INSERT INTO remote_timetable (provider, place, day, times, fetched_at) VALUES (?, ?, ?, ?, ?) "
                    + "ON CONFLICT (provider, place, day) DO UPDATE SET times = excluded.times, fetched_at = excluded.fetched_at"
            )
            for (day, text) in rows {
                try statement.run([.text(provider), .text(place), .integer(Int64(day)), .text(text), .integer(stamp)])
            }
        }
    }
}
