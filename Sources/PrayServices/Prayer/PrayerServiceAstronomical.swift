import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Calculates prayer times from the sun's position: NREL SPA positions, topocentric geometric
/// altitudes, and the conventions of DESIGN §5 (sunrise and sunset at −0.8333° lowered by the horizon
/// dip, fajr and isha at −angle, Asr by the shadow ratio with the declination at transit).
///
/// Accuracy: every event within 2 s of root-found NREL SPA times up to ±65° of latitude, 1900–2100
/// (see the test suite's `spa-reference.json`). Speed: one SPA evaluation per day, shared between
/// consecutive days.
///
/// ```swift
/// let service = PrayerServiceAstronomical(log: .silent)
/// let schedules = try service.schedules(for: request)
/// print(schedules[0][.fajr]?.date as Any)
/// ```
public struct PrayerServiceAstronomical: PrayerService, PrayerCalculator {
    private let log: LogManager

    /// The years this service calculates for. ΔT, and with it the hour of every event, is only
    /// modelled for these years.
    public static let supportedYears: ClosedRange<Int> = 1000...3000

    /// Creates the service.
    /// - Parameter log: The logger; summaries of rules applied go to `notice`.
    public init(log: LogManager) {
        self.log = log
    }
}

extension PrayerServiceAstronomical {
    /// Calculates the schedules of the request's days.
    /// - Throws: ``ValidationError`` for a bad request, ``PrayError`` for a date outside
    ///   ``supportedYears``.
    public func prayerTimes(for request: PrayerAPI.Request) throws -> PrayerAPI.Response {
        PrayerAPI.Response(schedules: try schedules(for: request), source: .calculated)
    }

    /// Calculates the schedules of the request's days, synchronously.
    /// - Throws: ``ValidationError`` for a bad request, ``PrayError`` for a date outside
    ///   ``supportedYears``.
    public func schedules(for request: PrayerAPI.Request) throws -> [PrayerSchedule] {
        try request.validate()
        let last = request.date.adding(days: request.days - 1)
        guard Self.supportedYears.contains(request.date.year), Self.supportedYears.contains(last.year) else {
            throw PrayError(
                .unsupportedDate,
                message: "prayer times are calculated for the years \(Self.supportedYears.lowerBound)"
                    + "–\(Self.supportedYears.upperBound); "
                    + (Self.supportedYears.contains(request.date.year)
                        ? "the days asked run to \(last), past them" : "\(request.date.year) is outside them")
            )
        }
        // Every event of the days asked for, and of the day before and after (their nights), lies
        // within 1.6 days of 12:00 UTC of its civil day shifted by the zone's offset (≤ 14 h).
        let firstNoon = Double(request.date.daysSince1970) - 10957
        let ephemeris = SolarEphemeris(covering: (firstNoon - 3.2)...(firstNoon + Double(request.days) + 2.2))
        var clock = ZoneClock(zone: request.zone)
        var stream = SolarEventStream(request: request, ephemeris: ephemeris)
        /// The events of the nearest civil day from `date` in `direction` that the zone has.
        func events(
            from date: CivilDate, direction: Int, scope: SolarEventStream.Scope = .all
        ) -> (CivilDate, SolarEvents) {
            var date = date
            for _ in 0..<3 {
                if let noon = clock.instant(of: date, hour: 12) {
                    return (date, stream.events(on: date, noon: daysFromJ2000(noon), scope: scope))
                }
                date = date.adding(days: direction)
            }
            // No zone skips three days in a row; fall back to UTC noon.
            return (date, stream.events(on: date, noon: Double(date.daysSince1970) - 10957, scope: scope))
        }
        // The days either side give only their night's edges: the day before its sunset, the day
        // after its sunrise and fajr.
        var previous = events(from: request.date.adding(days: -1), direction: -1, scope: .dayBefore).1
        var (currentDate, current) = events(from: request.date, direction: 1)
        // The builder's clock made from this one, which has found the zone's period of the first day:
        // made before, it looked the same period up again to round that day's times.
        var builder = PrayerScheduleBuilder(request: request, clock: clock)
        var schedules: [PrayerSchedule] = []
        schedules.reserveCapacity(request.days)
        // The days one after another rather than `request.dates`, an array made for each request, or
        // the first day plus an offset, which past the month's 28th day counts the days since 1970.
        var date = request.date
        for _ in 0..<request.days {
            let tomorrow = date.adding(days: 1)
            defer { date = tomorrow }
            guard date == currentDate else {
                // A day the zone skipped: nothing happens on it.
                schedules.append(PrayerSchedule(skipped: date, request: request))
                continue
            }
            let (nextDate, next) = events(from: tomorrow, direction: 1, scope: date == last ? .dayAfter : .all)
            schedules.append(try builder.schedule(date: date, previous: previous, current: current, next: next))
            (previous, current, currentDate) = (current, next, nextDate)
        }
        builder.logSummary(to: log, request: request)
        return schedules
    }
}

extension PrayerSchedule {
    /// The schedule of a civil day the zone does not have.
    fileprivate init(skipped date: CivilDate, request: PrayerAPI.Request) {
        let reasons = Dictionary(
            uniqueKeysWithValues: Prayer.allCases.map { ($0, PrayerTime.Unavailability.dayNotInZone) })
        self.init(
            date: date, zone: request.zone, coordinates: request.coordinates, times: [], unavailable: reasons
        )
    }
}
