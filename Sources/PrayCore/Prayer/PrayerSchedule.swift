#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The times of one civil day at one place: every ``Prayer`` either has a ``PrayerTime`` or an
/// ``PrayerTime/Unavailability`` saying why it has none.
///
/// ```swift
/// let schedule = response.schedules[0]
/// for time in schedule.times { print(time.prayer, time.date) }
/// if schedule[.isha] == nil { print(schedule.unavailability(of: .isha)!) }
/// ```
public struct PrayerSchedule: Hashable, Sendable {
    /// The civil day, in ``zone``.
    public let date: CivilDate
    /// The zone the day belongs to, by name.
    public let zone: TimeZoneName
    /// The zone the day belongs to, as Foundation's `TimeZone` (made when asked for).
    public var timeZone: TimeZone { zone.timeZone }
    /// The place.
    public let coordinates: Coordinates
    /// The night from this day's sunset to the next sunrise, when both exist (before adjustments).
    public var sunsetToSunrise: DateInterval? { nights.interval(0) }
    /// The night from this day's sunset to the next fajr, when both exist.
    public var sunsetToFajr: DateInterval? { nights.interval(1) }
    /// The night from this day's maghrib to the next fajr, when both exist.
    public var maghribToFajr: DateInterval? { nights.interval(2) }
    /// Where the times came from when ``PolarResolution`` filled a day without sunrise or sunset.
    public let polarBasis: PolarBasis?
    /// Congregation (iqama, jamat) times, where a mosque's published timetable gives them.
    public var congregationTimes: [Prayer: Date] { supplement?.congregationTimes ?? [:] }
    /// Ishraq, duha, zawal and the disliked times, when the request asked for them
    /// (``PrayerAPI/Request/extraTimes``) and the source calculates them.
    public var extraTimes: ExtraTimes? { supplement?.extraTimes }
    /// The mosque whose imported timetable gave some of this day's times (``PrayerServiceMosque``),
    /// or `nil` when none did.
    public var mosque: String? { supplement?.mosque }
    /// The Friday prayer's times a mosque's timetable gives for this day (empty when it gives none).
    public var jumuahTimes: [Date] { supplement?.jumuahTimes ?? [] }

    /// The times that exist, in ``Prayer/allCases`` order.
    @usableFromInline let storedTimes: [PrayerTime]
    private let nights: Nights
    /// What most days do not have, in one shared box: `nil` for a calculated day whose times all exist.
    /// A schedule is copied and destroyed as three references rather than six (a server writes 31 of
    /// them for a month).
    private let supplement: Supplement?

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
    ///   - congregationTimes: Congregation times from a published timetable.
    ///   - extraTimes: Ishraq, duha, zawal and the disliked times, if calculated.
    ///   - mosque: The mosque whose timetable gave some of the times, if any.
    ///   - jumuahTimes: The Friday prayer's times that mosque gives.
    public init(
        date: CivilDate, timeZone: TimeZone, coordinates: Coordinates,
        times: [PrayerTime], unavailable: [Prayer: PrayerTime.Unavailability] = [:],
        sunsetToSunrise: DateInterval? = nil, sunsetToFajr: DateInterval? = nil, maghribToFajr: DateInterval? = nil,
        polarBasis: PolarBasis? = nil, congregationTimes: [Prayer: Date] = [:], extraTimes: ExtraTimes? = nil,
        mosque: String? = nil, jumuahTimes: [Date] = []
    ) {
        self.init(
            date: date, zone: TimeZoneName(timeZone), coordinates: coordinates, times: times, unavailable: unavailable,
            sunsetToSunrise: sunsetToSunrise, sunsetToFajr: sunsetToFajr, maghribToFajr: maghribToFajr,
            polarBasis: polarBasis, congregationTimes: congregationTimes, extraTimes: extraTimes, mosque: mosque,
            jumuahTimes: jumuahTimes)
    }

    /// Creates a schedule in a zone given by name (``TimeZoneName``): no Foundation zone is made for it.
    /// The other parameters are those of the initializer that takes a `TimeZone`.
    public init(
        date: CivilDate, zone: TimeZoneName, coordinates: Coordinates,
        times: [PrayerTime], unavailable: [Prayer: PrayerTime.Unavailability] = [:],
        sunsetToSunrise: DateInterval? = nil, sunsetToFajr: DateInterval? = nil, maghribToFajr: DateInterval? = nil,
        polarBasis: PolarBasis? = nil, congregationTimes: [Prayer: Date] = [:], extraTimes: ExtraTimes? = nil,
        mosque: String? = nil, jumuahTimes: [Date] = []
    ) {
        // One time per prayer, the last one given winning, kept in `allCases` order.
        var storedTimes = times
        if !storedTimes.indices.dropFirst().allSatisfy({
            storedTimes[$0 - 1].prayer.ordinal < storedTimes[$0].prayer.ordinal
        }) {
            var latest = [Prayer: PrayerTime]()
            for time in times { latest[time.prayer] = time }
            storedTimes = Prayer.allCases.compactMap { latest[$0] }
        }
        self.date = date
        self.zone = zone.withoutLocal
        self.coordinates = coordinates
        self.storedTimes = storedTimes
        nights = Nights(sunsetToSunrise, sunsetToFajr, maghribToFajr)
        self.polarBasis = polarBasis
        supplement = Supplement.make(
            unavailable: unavailable.isEmpty
                ? unavailable : unavailable.filter { entry in !storedTimes.contains { $0.prayer == entry.key } },
            congregationTimes: congregationTimes, extraTimes: extraTimes, mosque: mosque, jumuahTimes: jumuahTimes)
    }

    /// A night's start and end in Unix seconds.
    package typealias Bounds = (start: Double, end: Double)

    /// Creates a schedule as the engine builds one: `times` one per prayer in ``Prayer/allCases`` order,
    /// `unavailable` only for the prayers missing from them, the nights in Unix seconds. Nothing is
    /// checked, reordered or converted (the public initializers do that for times from elsewhere): a
    /// server builds one for every day it answers.
    package init(
        calculated date: CivilDate, zone: TimeZoneName, coordinates: Coordinates, times: [PrayerTime],
        unavailable: [Prayer: PrayerTime.Unavailability],
        nights: (sunsetToSunrise: Bounds?, sunsetToFajr: Bounds?, maghribToFajr: Bounds?),
        polarBasis: PolarBasis?, extraTimes: ExtraTimes?
    ) {
        self.date = date
        self.zone = zone.withoutLocal
        self.coordinates = coordinates
        storedTimes = times
        self.nights = Nights(bounds: nights.sunsetToSunrise, nights.sunsetToFajr, nights.maghribToFajr)
        self.polarBasis = polarBasis
        supplement = Supplement.make(
            unavailable: unavailable, congregationTimes: [:], extraTimes: extraTimes, mosque: nil, jumuahTimes: [])
    }

    /// The time of `prayer`, or `nil` when it is unavailable this day.
    @inlinable public subscript(prayer: Prayer) -> PrayerTime? {
        // The times are kept in the order of `Prayer.allCases`: on a day that has them all, a time's
        // place is its ordinal. Otherwise by index: `first(where:)` copies each time it passes out of
        // the array to test it, and a server reads every time of every day it writes.
        let ordinal = prayer.ordinal
        if ordinal < storedTimes.count, storedTimes[ordinal].prayer == prayer { return storedTimes[ordinal] }
        return storedTimes.firstIndex { $0.prayer == prayer }.map { storedTimes[$0] }
    }

    /// Why `prayer` has no time this day, or `nil` when it has one.
    public func unavailability(of prayer: Prayer) -> PrayerTime.Unavailability? {
        guard self[prayer] == nil else { return nil }
        return supplement?.unavailable[prayer] ?? .notConfigured
    }

    /// The times that exist, in the order they happen.
    public var times: [PrayerTime] {
        storedTimes.sorted { ($0.date, $0.prayer.chronologicalOrder) < ($1.date, $1.prayer.chronologicalOrder) }
    }

    /// The night measured as `measure`, when its two ends exist.
    public func night(_ measure: NightMeasure) -> DateInterval? {
        switch measure {
        case .sunsetToSunrise: sunsetToSunrise
        case .sunsetToFajr: sunsetToFajr
        case .maghribToFajr: maghribToFajr
        }
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

extension PrayerSchedule {
    /// The three nights as start and end seconds, +∞ for a night that does not exist: 48 bytes
    /// instead of 72 for three optional intervals, in a value stored once per day.
    fileprivate struct Nights: Hashable, Sendable {
        private let first: (start: Double, end: Double)
        private let second: (start: Double, end: Double)
        private let third: (start: Double, end: Double)

        init(_ first: DateInterval?, _ second: DateInterval?, _ third: DateInterval?) {
            func bounds(_ interval: DateInterval?) -> (start: Double, end: Double) {
                guard let interval else { return (.infinity, .infinity) }
                return (interval.start.timeIntervalSince1970, interval.end.timeIntervalSince1970)
            }
            (self.first, self.second, self.third) = (bounds(first), bounds(second), bounds(third))
        }

        /// The nights from their ends in Unix seconds, kept as a `Date` keeps them (seconds from 2001,
        /// read back), so that a schedule made again from this one's intervals is equal to it.
        init(bounds first: Bounds?, _ second: Bounds?, _ third: Bounds?) {
            func kept(_ bounds: Bounds?) -> Bounds {
                guard let bounds else { return (.infinity, .infinity) }
                return (
                    Date(timeIntervalSince1970: bounds.start).timeIntervalSince1970,
                    Date(timeIntervalSince1970: bounds.end).timeIntervalSince1970
                )
            }
            (self.first, self.second, self.third) = (kept(first), kept(second), kept(third))
        }

        func interval(_ index: Int) -> DateInterval? {
            let bounds = index == 0 ? first : index == 1 ? second : third
            guard bounds.start.isFinite else { return nil }
            return DateInterval(
                start: Date(timeIntervalSince1970: bounds.start), end: Date(timeIntervalSince1970: bounds.end)
            )
        }

        static func == (lhs: Nights, rhs: Nights) -> Bool {
            lhs.first == rhs.first && lhs.second == rhs.second && lhs.third == rhs.third
        }

        func hash(into hasher: inout Hasher) {
            for bounds in [first, second, third] {
                hasher.combine(bounds.start)
                hasher.combine(bounds.end)
            }
        }
    }
}

extension PrayerSchedule {
    /// The parts of a schedule most days do not have: why missing times are missing, a mosque's times,
    /// the extra times. Immutable, compared and hashed by value.
    fileprivate final class Supplement: Hashable, Sendable {
        let unavailable: [Prayer: PrayerTime.Unavailability]
        let congregationTimes: [Prayer: Date]
        let extraTimes: ExtraTimes?
        let mosque: String?
        let jumuahTimes: [Date]

        /// The box of these parts, or `nil` when they are all empty.
        static func make(
            unavailable: [Prayer: PrayerTime.Unavailability], congregationTimes: [Prayer: Date],
            extraTimes: ExtraTimes?, mosque: String?, jumuahTimes: [Date]
        ) -> Supplement? {
            guard
                !unavailable.isEmpty || !congregationTimes.isEmpty || extraTimes != nil || mosque != nil
                    || !jumuahTimes.isEmpty
            else { return nil }
            return Supplement(
                unavailable: unavailable, congregationTimes: congregationTimes, extraTimes: extraTimes, mosque: mosque,
                jumuahTimes: jumuahTimes)
        }

        private init(
            unavailable: [Prayer: PrayerTime.Unavailability], congregationTimes: [Prayer: Date],
            extraTimes: ExtraTimes?, mosque: String?, jumuahTimes: [Date]
        ) {
            self.unavailable = unavailable
            self.congregationTimes = congregationTimes
            self.extraTimes = extraTimes
            self.mosque = mosque
            self.jumuahTimes = jumuahTimes
        }

        static func == (lhs: Supplement, rhs: Supplement) -> Bool {
            lhs === rhs
                || (lhs.unavailable == rhs.unavailable && lhs.congregationTimes == rhs.congregationTimes
                    && lhs.extraTimes == rhs.extraTimes && lhs.mosque == rhs.mosque
                    && lhs.jumuahTimes == rhs.jumuahTimes)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(unavailable)
            hasher.combine(congregationTimes)
            hasher.combine(extraTimes)
            hasher.combine(mosque)
            hasher.combine(jumuahTimes)
        }
    }
}
