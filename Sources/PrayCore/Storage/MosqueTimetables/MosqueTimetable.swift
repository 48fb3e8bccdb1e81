#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One day of a mosque's own timetable: the adhan and iqama clock times it gives, and the Friday
/// prayer's times. A prayer it does not give is calculated.
///
/// ```swift
/// let day = MosqueDay(date: try CivilDate(parsing: "2026-12-04"), adhan: [.fajr: 6 * 60 + 5])
/// ```
public struct MosqueDay: Hashable, Sendable {
    /// The civil day, in the mosque's zone.
    public var date: CivilDate
    /// Adhan times (fajr, sunrise, dhuhr, asr, maghrib, isha), minutes after midnight; an isha after
    /// midnight counts on past 1440 (00:40 the next morning is 1480), as ``allowedMinutes(_:)`` says.
    public var adhan: [Prayer: Int]
    /// Iqama times of the five prayers, minutes after midnight (isha's past 1440 after midnight).
    public var iqama: [Prayer: Int]
    /// The Friday prayer's times, minutes after midnight, earliest first.
    public var jumuah: [Int]

    /// Creates a day.
    public init(date: CivilDate, adhan: [Prayer: Int] = [:], iqama: [Prayer: Int] = [:], jumuah: [Int] = []) {
        self.date = date
        self.adhan = adhan
        self.iqama = iqama
        self.jumuah = jumuah.sorted()
    }
}

extension MosqueDay: Codable {
    private enum CodingKeys: String, CodingKey { case date, adhan, iqama, jumuah }

    /// Decodes `{"date": "2026-12-04", "adhan": {"fajr": 365, …}, "iqama": {…}, "jumuah": [750]}` (minutes
    /// after midnight) and checks it with ``validate()``.
    /// - Throws: `DecodingError` for a malformed or invalid day.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func prayers(_ key: CodingKeys, allowed: [Prayer]) throws -> [Prayer: Int] {
            var result: [Prayer: Int] = [:]
            for (name, minutes) in try container.decodeIfPresent([String: Int].self, forKey: key) ?? [:] {
                guard let prayer = Prayer(rawValue: name), allowed.contains(prayer) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "'\(name)' is not a prayer of \(key.rawValue)")
                }
                result[prayer] = minutes
            }
            return result
        }
        self.init(
            date: try container.decode(CivilDate.self, forKey: .date),
            adhan: try prayers(.adhan, allowed: MosqueTimetableCSV.adhanColumns),
            iqama: try prayers(.iqama, allowed: MosqueTimetableCSV.iqamaColumns),
            jumuah: try container.decodeIfPresent([Int].self, forKey: .jumuah) ?? [])
        do {
            try validate()
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .adhan, in: container, debugDescription: error.message)
        }
    }

    /// Encodes the form ``init(from:)`` reads, prayers by name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(
            Dictionary(uniqueKeysWithValues: adhan.map { ($0.key.rawValue, $0.value) }), forKey: .adhan)
        try container.encode(
            Dictionary(uniqueKeysWithValues: iqama.map { ($0.key.rawValue, $0.value) }), forKey: .iqama)
        try container.encode(jumuah, forKey: .jumuah)
    }

    /// How late after midnight an isha may be, as a clock time: before 06:00. In the far north's
    /// summer (Scotland, Scandinavia) the night is short and isha falls after midnight; a timetable
    /// writes 00:40, which belongs to the next civil day, as the calculated isha does.
    public static let ishaAfterMidnight = 6 * 60

    /// The minutes a time of `prayer` may be: 0 to 1439, and for isha (adhan or iqama) up to
    /// ``ishaAfterMidnight`` past the next midnight (1440 to 1799).
    public static func allowedMinutes(_ prayer: Prayer) -> Range<Int> {
        prayer == .isha ? 0..<(1440 + ishaAfterMidnight) : 0..<1440
    }

    /// Checks the day: every time within the day (0 to 1439 minutes; isha up to 06:00 after
    /// midnight), the adhan times in the order fajr, sunrise, dhuhr, asr, maghrib, isha, each iqama
    /// at or after its adhan.
    /// - Throws: ``ValidationError`` (`times`) naming the day and the times out of order.
    public func validate() throws(ValidationError) {
        let all =
            (Array(adhan) + Array(iqama)).map { ($0.value, Self.allowedMinutes($0.key)) }
            + jumuah.map { ($0, 0..<1440) }
        if let bad = all.first(where: { !$0.1.contains($0.0) }) {
            throw ValidationError(
                field: "times",
                message: "\(date): \(bad.0) is not a minute of the day (0 to 1439, isha up to \(bad.1.upperBound - 1))")
        }
        let given = MosqueTimetableCSV.adhanColumns.compactMap { prayer in adhan[prayer].map { (prayer, $0) } }
        for (earlier, later) in zip(given, given.dropFirst()) where later.1 <= earlier.1 {
            throw ValidationError(
                field: "times",
                message:
                    "\(date): \(later.0) \(Self.clock(later.1)) is not after \(earlier.0) \(Self.clock(earlier.1)); "
                    + "a day's times must run fajr, sunrise, dhuhr, asr, maghrib, isha")
        }
        for (prayer, time) in iqama.sorted(by: { $0.key.ordinal < $1.key.ordinal }) {
            if let call = adhan[prayer], time < call {
                throw ValidationError(
                    field: "times",
                    message:
                        "\(date): \(prayer)_iqama \(Self.clock(time)) is before the \(prayer) adhan \(Self.clock(call))"
                )
            }
        }
    }

    /// `HH:MM` of minutes after midnight (an isha after midnight as the clock shows it, 00:40).
    static func clock(_ minutes: Int) -> String {
        IqamaSettings.Rule.fixed(minutesAfterMidnight: minutes % 1440).description
    }
}

/// A mosque's imported timetable: its name, where it is (the place its times apply to) and its days.
public struct MosqueTimetable: Hashable, Sendable {
    /// The name the user gave the mosque.
    public var name: String
    /// Where the mosque is: its times apply to requests within ``MosqueTimetable/radiusKilometers``.
    public var coordinates: Coordinates
    /// The IANA zone its clock times are in.
    public var timeZone: String
    /// The days, in date order.
    public var days: [MosqueDay]

    /// How near a place must be to the mosque for its times to replace the calculated ones: 50 km.
    public static let radiusKilometers = 50.0

    /// Creates a timetable.
    public init(name: String, coordinates: Coordinates, timeZone: String, days: [MosqueDay]) {
        self.name = name
        self.coordinates = coordinates
        self.timeZone = timeZone
        self.days = days.sorted { $0.date < $1.date }
    }

    /// Checks a mosque name: 1 to 100 characters, no control or bidirectional formatting characters
    /// (C0, DEL, C1, the line and paragraph separators, the bidirectional marks, embeddings, overrides
    /// and isolates: a name comes from files and other devices).
    /// - Throws: ``ValidationError`` (`mosque`).
    public static func validate(name: String) throws(ValidationError) {
        guard !name.isEmpty, name.count <= 100, name.trimmingWhitespace() == name,
            !name.unicodeScalars.contains(where: \.isControlCharacter)
        else {
            throw ValidationError(
                field: "mosque",
                message: "a mosque name must be 1 to 100 characters without leading or trailing spaces or control "
                    + "characters, got '\(name.escapingControlCharacters())'")
        }
    }
}

/// What a store keeps of a mosque, for a list: its name, place and the days it covers.
public struct MosqueSummary: Hashable, Sendable {
    /// The mosque's name.
    public var name: String
    /// Where it is.
    public var coordinates: Coordinates
    /// The zone of its clock times.
    public var timeZone: String
    /// Its first day.
    public var first: CivilDate
    /// Its last day.
    public var last: CivilDate
    /// How many days it gives.
    public var days: Int
    /// When it was imported (here, or on the device sync brought it from), when the store knows.
    public var importedAt: Date?

    /// Creates a summary.
    public init(
        name: String, coordinates: Coordinates, timeZone: String, first: CivilDate, last: CivilDate, days: Int,
        importedAt: Date? = nil
    ) {
        self.name = name
        self.coordinates = coordinates
        self.timeZone = timeZone
        self.first = first
        self.last = last
        self.days = days
        self.importedAt = importedAt
    }
}

extension MosqueTimetable: Codable {
    private enum CodingKeys: String, CodingKey { case name, latitude, longitude, elevation, timeZone, days }

    /// Decodes `{"name", "latitude", "longitude", "elevation", "timeZone", "days": [MosqueDay]}` and
    /// checks it: a valid name, place and zone, valid days, none given twice.
    /// - Throws: `DecodingError` for a malformed or invalid timetable.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let zone = try container.decode(String.self, forKey: .timeZone)
        let days = try container.decode([MosqueDay].self, forKey: .days)
        do {
            try Self.validate(name: name)
            guard TimeZoneName(zone) != nil else { throw TimeZoneName.unknown(zone) }
            let coordinates = try Coordinates(
                latitude: try container.decode(Double.self, forKey: .latitude),
                longitude: try container.decode(Double.self, forKey: .longitude),
                elevation: try container.decodeIfPresent(Double.self, forKey: .elevation) ?? 0)
            guard Set(days.map(\.date)).count == days.count else {
                throw ValidationError(field: "days", message: "the mosque '\(name)' gives a day twice")
            }
            self.init(name: name, coordinates: coordinates, timeZone: zone, days: days)
        } catch let error as ValidationError {
            throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: error.message)
        }
    }

    /// Encodes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(coordinates.latitude, forKey: .latitude)
        try container.encode(coordinates.longitude, forKey: .longitude)
        try container.encode(coordinates.elevation, forKey: .elevation)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(days, forKey: .days)
    }
}
