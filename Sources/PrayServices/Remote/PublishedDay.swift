import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One civil day of a published timetable: the instants it gives, by ``Prayer`` raw value, and the
/// congregation times. What the cache stores and the service turns into a ``PrayerSchedule``.
struct PublishedDay: Codable, Equatable, Sendable {
    /// Days from 1970-01-01.
    var day: Int
    /// Unix seconds by prayer name (`fajr`, …, and `asr2` for the Hanafi Asr where published).
    var times: [String: Double]
    /// Congregation times, Unix seconds by prayer name.
    var congregation: [String: Double]

    /// The order a published day must keep.
    static let sequence = ["imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha"]
    /// The times every published day must give.
    static let required = ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"]

    /// Checks that the required times are there and in order, and that they fall on the day in
    /// `zone`.
    /// - Throws: ``RemoteTimetableError`` saying what is wrong.
    func validate(in zone: TimeZone, label: String) throws(RemoteTimetableError) {
        let date = CivilDate(daysSince1970: day)
        for name in Self.required where times[name] == nil {
            throw RemoteTimetableError("\(label): \(date) has no \(name) time")
        }
        let ordered = Self.sequence.compactMap { times[$0] }
        guard zip(ordered, ordered.dropFirst()).allSatisfy({ $0 <= $1 }),
            (times["sunrise"] ?? 0) < (times["dhuhr"] ?? 0)
        else {
            throw RemoteTimetableError("\(label): the times of \(date) are out of order")
        }
        for name in Self.required {
            guard let instant = times[name] else { continue }
            let local = instant + Double(zone.offset(at: Date(timeIntervalSince1970: instant)))
            guard CivilDate.dayNumber(localSeconds: local) == day else {
                throw RemoteTimetableError("\(label): the \(name) time given for \(date) falls on another day")
            }
        }
    }
}

/// A response that cannot be used: malformed, incomplete, out of order, or for other days.
struct RemoteTimetableError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// ISO 8601 date-times with an offset: `2026-11-29T05:21:00+03:00`, `…Z`, seconds optional.
enum ISO8601Parser {
    static func date(_ text: String) -> Date? {
        let parts = text.split(separator: "T", maxSplits: 1)
        guard parts.count == 2, let day = try? CivilDate(parsing: String(parts[0])) else { return nil }
        var clock = Substring(parts[1])
        var offset = 0
        if clock.hasSuffix("Z") {
            clock = clock.dropLast()
        } else if let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = clock[clock.index(after: sign)...].split(separator: ":").compactMap { Int($0) }
            guard zone.count == 2 || zone.count == 3 else { return nil }
            offset = (zone[0] * 3600 + zone[1] * 60 + (zone.count == 3 ? zone[2] : 0)) * (clock[sign] == "-" ? -1 : 1)
            clock = clock[..<sign]
        } else {
            return nil
        }
        let fields = clock.split(separator: ":")
        guard fields.count == 2 || fields.count == 3, let hours = Int(fields[0]), let minutes = Int(fields[1]),
            (0...23).contains(hours), (0...59).contains(minutes)
        else { return nil }
        let seconds = fields.count == 3 ? Double(fields[2]) ?? -1 : 0
        guard (0..<61).contains(seconds) else { return nil }
        let local = Double(day.daysSince1970 * 86400 + hours * 3600 + minutes * 60) + seconds
        return Date(timeIntervalSince1970: local - Double(offset))
    }
}
