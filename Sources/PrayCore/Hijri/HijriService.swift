#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Converts between the Gregorian and the Hijri calendars.
///
/// ```swift
/// let days = try hijri.days(for: HijriAPI.Request(date: try CivilDate(parsing: "2026-11-29")))
/// print(days[0].hijri, days[0].hijri.monthName)   // 1448-06-19 Jumada al-Akhirah
/// ```
///
/// The conversions are synchronous, for servers, tools and the command line. Code on the main actor
/// converts many days or a month through ``async``, which runs them on ``workQueue``.
public protocol HijriService: Sendable {
    /// Returns the Hijri date of each requested civil day.
    /// - Throws: ``HijriError`` for an offset outside −2…+2 or days beyond the calendar's range.
    func days(for request: HijriAPI.Request) throws -> [HijriDay]

    /// Returns the civil day of a Hijri date.
    /// - Throws: ``HijriError`` when the date does not exist in that calendar (the 30th of a 29-day
    ///   month) or is out of range.
    func day(of date: HijriDate, calendar: HijriCalendar, offset: Int) throws -> HijriDay

    /// Returns every day of a Hijri month with its civil date.
    /// - Throws: ``HijriError`` for a month out of range.
    func month(_ month: HijriMonth, of year: Int, calendar: HijriCalendar, offset: Int) throws -> [HijriDay]

    /// Returns the Islamic date at an instant at a place, where the day begins at maghrib: after that
    /// day's maghrib it is the next Hijri date.
    /// - Throws: What the prayer service throws, or ``HijriError``.
    func islamicDay(at instant: Date, place: HijriAPI.Place) async throws -> HijriAPI.IslamicDay

    /// Returns the first day strictly after `date` (a civil day) that is one of `kinds`.
    /// - Throws: ``HijriError`` when there is none within the calendar's range.
    func nextNotableDay(
        after date: CivilDate, kinds: Set<NotableDay.Kind>, calendar: HijriCalendar, offset: Int
    ) throws -> HijriDay

    /// Where ``async`` runs this service's conversions: ``WorkQueue/shared`` unless the service has a
    /// queue of its own.
    var workQueue: WorkQueue { get }
}

extension HijriService {
    /// Returns the first notable day of any kind strictly after `date`, in the Umm al-Qura calendar.
    /// - Throws: ``HijriError`` when there is none within the calendar's range.
    public func nextNotableDay(after date: CivilDate) throws -> HijriDay {
        try nextNotableDay(after: date, kinds: Set(NotableDay.Kind.allCases), calendar: .ummAlQura, offset: 0)
    }
}

/// The request and response types of ``HijriService``.
public enum HijriAPI {
    /// The day offsets a person may add for local sighting: −2…+2. Every part of PrayKit that takes
    /// an offset (the services, the preferences, the command line, the server) accepts these.
    public static let offsets: ClosedRange<Int> = -2...2

    /// A run of civil days to convert.
    public struct Request: Hashable, Sendable {
        /// The first civil day.
        public var date: CivilDate
        /// How many consecutive days.
        public var days: Int
        /// The calendar.
        public var calendar: HijriCalendar
        /// Days to add for local sighting, −2…+2.
        public var offset: Int

        /// The most days one request may ask for (about 164 years).
        public static let maximumDays = 60_000

        /// Creates a request.
        public init(date: CivilDate, days: Int = 1, calendar: HijriCalendar = .ummAlQura, offset: Int = 0) {
            self.date = date
            self.days = days
            self.calendar = calendar
            self.offset = offset
        }
    }

    /// Where and how the Islamic day's maghrib is found.
    public struct Place: Hashable, Sendable {
        /// The place.
        public var coordinates: Coordinates
        /// The zone of its civil days.
        public var timeZone: TimeZone
        /// The prayer parameters that set maghrib (sunset for most methods).
        public var parameters: CalculationParameters
        /// The calendar.
        public var calendar: HijriCalendar
        /// Days to add for local sighting, −2…+2.
        public var offset: Int

        /// Creates a place.
        public init(
            coordinates: Coordinates, timeZone: TimeZone,
            parameters: CalculationParameters = CalculationParameters(method: .muslimWorldLeague),
            calendar: HijriCalendar = .ummAlQura, offset: Int = 0
        ) {
            self.coordinates = coordinates
            self.timeZone = timeZone
            self.parameters = parameters
            self.calendar = calendar
            self.offset = offset
        }
    }

    /// The Islamic date at an instant.
    public struct IslamicDay: Hashable, Sendable {
        /// The Hijri day in effect, with the civil day whose daytime it names.
        public let day: HijriDay
        /// The civil day of the instant in the place's zone.
        public let civilDate: CivilDate
        /// That civil day's maghrib, if the sun gives one.
        public let maghrib: Date?
        /// Whether the instant is after maghrib, so the Hijri date is the next day's.
        public let isAfterMaghrib: Bool

        /// Creates a result.
        public init(day: HijriDay, civilDate: CivilDate, maghrib: Date?, isAfterMaghrib: Bool) {
            self.day = day
            self.civilDate = civilDate
            self.maghrib = maghrib
            self.isAfterMaghrib = isAfterMaghrib
        }
    }
}
