#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Computes or fetches the prayer times of a run of civil days at one place.
///
/// `PrayerServiceAstronomical` calculates them; other implementations serve published timetables.
/// Apps receive one from their ``PrayKitDependency`` and tests pass a mock.
public protocol PrayerService: Sendable {
    /// Returns the schedule of each requested day.
    /// - Throws: ``ValidationError`` for a request that cannot be served as asked, ``PrayError`` when
    ///   the times cannot be produced.
    func prayerTimes(for request: PrayerAPI.Request) async throws -> PrayerAPI.Response
}

/// Calculates prayer times synchronously, on the caller's thread — for a server or a tool that
/// answers many requests on threads of its own and must not hop to Swift's thread pool for each.
///
/// `PrayerServiceAstronomical` (PrayServices) is one; the container gives it as
/// ``PrayKitDependency/prayerCalculator()``.
///
/// ```swift
/// let schedules = try dependency.prayerCalculator().schedules(for: request)
/// ```
public protocol PrayerCalculator: Sendable {
    /// Returns the schedule of each requested day, in order.
    /// - Throws: ``ValidationError`` for a bad request, ``PrayError`` for a date the calculation does
    ///   not support.
    func schedules(for request: PrayerAPI.Request) throws -> [PrayerSchedule]
}

/// The request and response of ``PrayerService``.
public enum PrayerAPI {
    /// The days, the place and the parameters.
    ///
    /// ```swift
    /// let request = PrayerAPI.Request(
    ///     coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
    ///     timeZone: TimeZone(identifier: "Asia/Riyadh")!,
    ///     date: try CivilDate(parsing: "2026-11-29"),
    ///     parameters: CalculationParameters(method: .ummAlQura)
    /// )
    /// ```
    public struct Request: Hashable, Sendable {
        /// The place.
        public var coordinates: Coordinates
        /// The zone whose civil days are asked for, by name: its offsets come from the system's tz
        /// database where it has the zone.
        public var zone: TimeZoneName {
            didSet { zone = zone.withoutLocal }
        }
        /// The zone whose civil days are asked for, as Foundation's `TimeZone` (made when asked for).
        public var timeZone: TimeZone {
            get { zone.timeZone }
            set { zone = TimeZoneName(newValue) }
        }
        /// The first day.
        public var date: CivilDate
        /// How many consecutive days, from ``date``.
        public var days: Int
        /// How the times are calculated.
        public var parameters: CalculationParameters
        /// The Hijri calendar the person follows, which says which days are Ramadan (the Umm
        /// al-Qura method's isha is 120 minutes after maghrib then); Umm al-Qura by default.
        public var hijriCalendar: HijriCalendar = .ummAlQura
        /// The person's Hijri day offset for local sighting (−2…2), applied to ``hijriCalendar``.
        public var hijriOffset: Int = 0
        /// Months whose first day was announced (the `hijri-starts` preference): within them the
        /// days count from the announced day and ``hijriOffset`` does not apply.
        public var hijriMonthStarts = HijriMonthStarts()
        /// Whether to calculate the times between the prayers too (ishraq, duha, zawal and the
        /// disliked times: ``PrayerSchedule/extraTimes``), and how; `nil` (the default) leaves them out.
        public var extraTimes: ExtraTimeSettings?

        /// The most days one request may ask for: 100 years.
        public static let maximumDays = 36_525

        /// Creates a request.
        public init(
            coordinates: Coordinates, timeZone: TimeZone, date: CivilDate, days: Int = 1,
            parameters: CalculationParameters
        ) {
            self.init(
                coordinates: coordinates, zone: TimeZoneName(timeZone), date: date, days: days, parameters: parameters)
        }

        /// Creates a request for a zone by name (``TimeZoneName``): no Foundation zone is made for it.
        public init(
            coordinates: Coordinates, zone: TimeZoneName, date: CivilDate, days: Int = 1,
            parameters: CalculationParameters
        ) {
            self.coordinates = coordinates
            self.zone = zone.withoutLocal
            self.date = date
            self.days = days
            self.parameters = parameters
        }

        /// The civil days asked for, up to 9999-12-31 (``CivilDate/last``) for a request that runs past it
        /// (which ``validate()`` refuses).
        public var dates: [CivilDate] {
            let count = min(max(0, days), CivilDate.last.daysSince1970 - date.daysSince1970 + 1)
            return (0..<count).map { date.adding(days: $0) }
        }

        /// Checks the day count and the parameters.
        /// - Throws: ``ValidationError`` for a day count outside 1…``maximumDays`` or an unusable
        ///   parameter.
        public func validate() throws(ValidationError) {
            guard HijriAPI.offsets.contains(hijriOffset) else {
                throw ValidationError(
                    field: "hijri-offset", message: "hijri-offset must be between -2 and 2, got \(hijriOffset)")
            }
            guard (1...Self.maximumDays).contains(days) else {
                throw ValidationError(
                    field: "days", message: "days must be between 1 and \(Self.maximumDays), got \(days)"
                )
            }
            guard date.daysSince1970 + days - 1 <= CivilDate(daysSince1970: 2_932_896).daysSince1970 else {
                throw ValidationError(field: "days", message: "the requested days run past the year 9999")
            }
            try parameters.validate()
            try extraTimes?.validate()
            // A twilight time must be while the sun is below the horizon: fajr, isha or imsak at a
            // smaller depression than sunrise's would fall inside the day. (A maghrib angle that small
            // — Kemenag's 1° on a hill — only meets sunset: maghrib is then held back to it, marked.)
            // Each angle checked by a call (no array of them made for every request).
            let depression = coordinates.sunriseDepression
            func checkTwilight(_ name: String, _ angle: Double?) throws(ValidationError) {
                guard let angle, angle <= depression else { return }
                throw ValidationError(
                    field: name,
                    message:
                        "\(name) must be more than \(depression.formattedCompactly)° (the sun's depression at sunrise "
                        + "and sunset here), got \(angle.formattedCompactly)°: that time would fall in daylight"
                )
            }
            try checkTwilight("fajr-angle", parameters.fajrAngle)
            try checkTwilight("isha-angle", parameters.ishaInterval == nil ? parameters.ishaAngle : nil)
            try checkTwilight("imsak-angle", parameters.imsak.angle)
        }
    }

    /// The schedules and where they came from.
    public struct Response: Hashable, Sendable {
        /// One schedule per requested day, in order.
        public let schedules: [PrayerSchedule]
        /// Where the times came from.
        public let source: Source

        /// Creates a response.
        public init(schedules: [PrayerSchedule], source: Source) {
            self.schedules = schedules
            self.source = source
        }
    }

    /// Where a response's times came from.
    public enum Source: Hashable, Sendable, CustomStringConvertible {
        /// Calculated from the sun's position.
        case calculated
        /// Fetched just now from a published timetable.
        case remote(provider: String, fetchedAt: Date)
        /// Served from the local cache of a published timetable, fetched earlier.
        case cache(provider: String, fetchedAt: Date)

        /// `calculated`, `aladhan` or `aladhan (cached)`.
        public var description: String {
            switch self {
            case .calculated: "calculated"
            case .remote(let provider, _): provider
            case .cache(let provider, _): "\(provider) (cached)"
            }
        }
    }
}
