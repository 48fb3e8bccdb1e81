import Foundation

/// One day of a mosque's own timetable: the adhan and iqama clock times it gives, and the Friday
/// prayer's times. A prayer it does not give is calculated.
///
/// ```swift
/// let day = MosqueDay(date: try CivilDate(parsing: "2026-12-04"), adhan: [.fajr: 6 * 60 + 5])
/// ```
public struct MosqueDay: Hashable, Sendable {
    /// The civil day, in the mosque's zone.
    public var date: CivilDate
    /// Adhan times (fajr, sunrise, dhuhr, asr, maghrib, isha), minutes after midnight.
    public var adhan: [Prayer: Int]
    /// Iqama times of the five prayers, minutes after midnight.
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

    /// Checks a mosque name: 1 to 100 characters, no control characters.
    /// - Throws: ``ValidationError`` (`mosque`).
    public static func validate(name: String) throws(ValidationError) {
        guard !name.isEmpty, name.count <= 100, name.trimmingCharacters(in: .whitespaces) == name,
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ValidationError(
                field: "mosque",
                message: "a mosque name must be 1 to 100 characters without leading or trailing spaces, got '\(name)'")
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

    /// Creates a summary.
    public init(name: String, coordinates: Coordinates, timeZone: String, first: CivilDate, last: CivilDate, days: Int)
    {
        self.name = name
        self.coordinates = coordinates
        self.timeZone = timeZone
        self.first = first
        self.last = last
        self.days = days
    }
}
