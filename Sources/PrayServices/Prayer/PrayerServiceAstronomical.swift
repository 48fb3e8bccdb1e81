import Foundation
import PrayCore

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
public struct PrayerServiceAstronomical: PrayerService {
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
                    + "–\(Self.supportedYears.upperBound); \(request.date.year) is outside them"
            )
        }
        var clock = ZoneClock(timeZone: request.timeZone)
        // The day before and after each requested day are needed for the nights on either side.
        let civilDays = (-1...request.days).map { request.date.adding(days: $0) }
        let noons = civilDays.map { daysFromJ2000(clock.instant(of: $0, hour: 12)) }
        let ephemeris = SolarEphemeris(covering: (noons[0] - 1.6)...(noons[noons.count - 1] + 1.6))
        let observer = Observer(request.coordinates)
        let altitudes = EventAltitudes(parameters: request.parameters, observer: observer)
        var previous: SolarDay?
        var events: [SolarEvents] = []
        events.reserveCapacity(noons.count)
        for noon in noons {
            let day = SolarDay(ephemeris: ephemeris, observer: observer, near: noon, after: previous)
            events.append(SolarEvents(day, altitudes, previous: events.last))
            previous = day
        }
        if request.parameters.polarResolution != .unresolved {
            resolvePolarDays(&events, days: civilDays, noons: noons, request: request, altitudes: altitudes)
        }
        var builder = PrayerScheduleBuilder(request: request, clock: clock)
        var schedules: [PrayerSchedule] = []
        schedules.reserveCapacity(request.days)
        for index in 1...request.days {
            schedules.append(
                builder.schedule(
                    date: civilDays[index], previous: events[index - 1], current: events[index],
                    next: events[index + 1]
                )
            )
        }
        builder.logSummary(to: log, request: request)
        return schedules
    }
}

// MARK: - Helpers

extension PrayerServiceAstronomical {
    /// Replaces the events of days without sunrise or sunset by those of the nearest latitude or day
    /// that has both.
    private func resolvePolarDays(
        _ events: inout [SolarEvents], days: [CivilDate], noons: [Double], request: PrayerAPI.Request,
        altitudes: EventAltitudes
    ) {
        let coordinates = request.coordinates
        var wideEphemeris: SolarEphemeris?
        for index in events.indices where !events[index].hasSunriseAndSunset {
            let noon = noons[index]
            switch request.parameters.polarResolution {
            case .unresolved:
                return
            case .nearestLatitude:
                let ephemeris = SolarEphemeris(covering: (noon - 1.6)...(noon + 1.6))
                let sign = coordinates.latitude < 0 ? -1.0 : 1.0
                var latitude = coordinates.latitude
                while abs(latitude) > 0.5 {
                    latitude -= sign * 0.5
                    guard let place = try? Coordinates(latitude: latitude, longitude: coordinates.longitude,
                                                       elevation: coordinates.elevation) else { break }
                    let day = SolarDay(ephemeris: ephemeris, observer: Observer(place), near: noon)
                    let candidate = SolarEvents(day, altitudes)
                    if candidate.hasSunriseAndSunset {
                        events[index] = candidate.moved(toTransit: events[index].transit, basis: .latitude(latitude))
                        break
                    }
                }
            case .nearestDay:
                let ephemeris = wideEphemeris ?? SolarEphemeris(covering: (noons[0] - 186)...(noons[noons.count - 1] + 186))
                wideEphemeris = ephemeris
                let observer = Observer(coordinates)
                let transit = events[index].transit
                for distance in 1...183 {
                    let found = [distance, -distance].lazy.compactMap { offset -> SolarEvents? in
                        let day = SolarDay(ephemeris: ephemeris, observer: observer, near: noon + Double(offset))
                        let candidate = SolarEvents(day, altitudes)
                        guard candidate.hasSunriseAndSunset else { return nil }
                        return candidate.moved(toTransit: transit, basis: .day(days[index].adding(days: offset)))
                    }.first
                    if let found {
                        events[index] = found
                        break
                    }
                }
            }
        }
    }
}
