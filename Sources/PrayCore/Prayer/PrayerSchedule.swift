import Foundation

/// The times of one civil day at one place: every ``Prayer`` either has a ``PrayerTime`` or an
/// ``PrayerTime/Unavailability`` saying why it has none.
///
/// ```swift
/// let schedule = response.schedules[0]
/// for time in schedule.times { print(time.prayer, time.date) }
/// if schedule[.isha] == nil { print(schedule.unavailability(of: .isha)!) }
/// ```
public struct PrayerSchedule: Hashable, Sendable {
    /// The civil day, in ``timeZone``.
    public let date: CivilDate
    /// The zone the day belongs to.
    public let timeZone: TimeZone
    /// The place.
    public let coordinates: Coordinates
    /// The night from this day's sunset to the next sunrise, when both exist (before adjustments).
    public let sunsetToSunrise: DateInterval?
    /// The night from this day's sunset to the next fajr, when both exist.
    public let sunsetToFajr: DateInterval?
    /// The night from this day's maghrib to the next fajr, when both exist.
    public let maghribToFajr: DateInterval?
    /// Where the times came from when ``PolarResolution`` filled a day without sunrise or sunset.
    public let polarBasis: PolarBasis?

    private let slots: [Slot]

    /// Creates a schedule.
    /// - Parameters:
    ///   - date: The civil day.
    ///   - timeZone: The zone the day belongs to.
    ///   - coordinates: The place.
    ///   - times: The times that exist; any ``Prayer`` missing here is reported through
    ///     `unavailable`, or as ``PrayerTime/Unavailability/notConfigured`` if it is missing there too.
    ///   - unavailable: Why each missing time is missing.
    ///   - sunsetToSunrise: The night from sunset to the next sunrise.
    ///   - sunsetToFajr: The night from sunset to the next fajr.
    ///   - maghribToFajr: The night from maghrib to the next fajr.
    ///   - polarBasis: The latitude or day the times were taken from, if any.
    public init(
        date: CivilDate, timeZone: TimeZone, coordinates: Coordinates,
        times: [PrayerTime], unavailable: [Prayer: PrayerTime.Unavailability] = [:],
        sunsetToSunrise: DateInterval? = nil, sunsetToFajr: DateInterval? = nil, maghribToFajr: DateInterval? = nil,
        polarBasis: PolarBasis? = nil
    ) {
        var slots = Prayer.allCases.map { Slot.unavailable(unavailable[$0] ?? .notConfigured) }
        for time in times { slots[time.prayer.index] = .time(time) }
        self.date = date
        self.timeZone = timeZone
        self.coordinates = coordinates
        self.slots = slots
        self.sunsetToSunrise = sunsetToSunrise
        self.sunsetToFajr = sunsetToFajr
        self.maghribToFajr = maghribToFajr
        self.polarBasis = polarBasis
    }

    /// The time of `prayer`, or `nil` when it is unavailable this day.
    public subscript(prayer: Prayer) -> PrayerTime? {
        if case .time(let time) = slots[prayer.index] { return time }
        return nil
    }

    /// Why `prayer` has no time this day, or `nil` when it has one.
    public func unavailability(of prayer: Prayer) -> PrayerTime.Unavailability? {
        if case .unavailable(let reason) = slots[prayer.index] { return reason }
        return nil
    }

    /// The times that exist, in the order they happen.
    public var times: [PrayerTime] {
        Prayer.chronological.compactMap { self[$0] }.sorted { $0.date < $1.date }
    }

    /// The night measured as `measure`, when its two ends exist.
    public func night(_ measure: NightMeasure) -> DateInterval? {
        switch measure {
        case .sunsetToSunrise: sunsetToSunrise
        case .sunsetToFajr: sunsetToFajr
        case .maghribToFajr: maghribToFajr
        }
    }

    private enum Slot: Hashable, Sendable {
        case time(PrayerTime)
        case unavailable(PrayerTime.Unavailability)
    }
}

/// Where a polar day's times were taken from.
public enum PolarBasis: Hashable, Sendable, CustomStringConvertible {
    /// The times of this latitude (degrees), the nearest one where the sun rises and sets that day.
    case latitude(Double)
    /// The times of this day at the same place, the nearest one where the sun rises and sets.
    case day(CivilDate)

    /// `latitude 65.5` or `day 2026-07-29`.
    public var description: String {
        switch self {
        case .latitude(let latitude): "latitude \(latitude.formattedCompactly)"
        case .day(let day): "day \(day)"
        }
    }
}
