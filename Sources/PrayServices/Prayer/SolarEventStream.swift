import PrayCore

/// The sun's events of consecutive civil days at one place, each day solved from the previous one's
/// results, with days that have no sunrise or sunset filled by the request's ``PolarResolution``.
struct SolarEventStream {
    private let ephemeris: SolarEphemeris
    private let observer: Observer
    private let altitudes: EventAltitudes
    private let coordinates: Coordinates
    private let resolution: PolarResolution
    private var previousDay: SolarDay.Continuation?
    private var previousEvents: SolarEvents?
    /// An ephemeris reaching half a year either side, built the first time a day needs the nearest
    /// day with a sunrise.
    private var wideEphemeris: SolarEphemeris?

    init(request: PrayerAPI.Request, ephemeris: SolarEphemeris) {
        self.ephemeris = ephemeris
        observer = Observer(request.coordinates)
        altitudes = EventAltitudes(parameters: request.parameters, extraTimes: request.extraTimes, observer: observer)
        coordinates = request.coordinates
        resolution = request.parameters.polarResolution
    }

    /// Which of a day's events to solve.
    enum Scope {
        /// Every event.
        case all
        /// The day before the first day asked for: its sunset alone.
        case dayBefore
        /// The day after the last day asked for: its sunrise and fajr alone.
        case dayAfter
    }

    /// The events of `date`, whose local noon is `noon` (UT days from J2000.0). Successive calls must
    /// be for successive days to share work, but any order gives the right answer. A `scope` other
    /// than `.all` leaves out the events the neighbouring day does not give, unless a polar resolution
    /// may need the whole day to decide whether the sun rises.
    mutating func events(on date: CivilDate, noon: Double, scope: Scope = .all) -> SolarEvents {
        let day = SolarDay(ephemeris: ephemeris, observer: observer, near: noon, after: previousDay)
        let wanted =
            switch resolution == .unresolved ? scope : .all {
            case .all: altitudes
            case .dayBefore: altitudes.dayBefore
            case .dayAfter: altitudes.dayAfter
            }
        let events = SolarEvents(day, wanted, previous: previousEvents)
        (previousDay, previousEvents) = (day.continuation, events)
        guard !events.hasSunriseAndSunset else { return events }
        switch resolution {
        case .unresolved: return events
        case .nearestLatitude: return nearestLatitude(noon: noon, transit: events.transit) ?? events
        case .nearestDay: return nearestDay(date: date, noon: noon, transit: events.transit) ?? events
        }
    }

    // MARK: - Helpers

    /// The events of the latitude nearest this one, in steps of 0.5° towards the equator, where the sun
    /// rises and sets, moved to this day's transit (aqrab al-bilad).
    private func nearestLatitude(noon: Double, transit: Double) -> SolarEvents? {
        let step = coordinates.latitude < 0 ? -0.5 : 0.5
        var latitude = coordinates.latitude
        while abs(latitude) >= 0.5 {
            latitude -= step
            guard
                let place = try? Coordinates(
                    latitude: latitude, longitude: coordinates.longitude, elevation: coordinates.elevation
                )
            else { return nil }
            let day = SolarDay(ephemeris: ephemeris, observer: Observer(place), near: noon)
            let candidate = SolarEvents(day, altitudes)
            if candidate.hasSunriseAndSunset { return candidate.moved(toTransit: transit, basis: .latitude(latitude)) }
        }
        return nil
    }

    /// The events of the nearest day at this place (one day later, one earlier, two later, …, up to
    /// half a year) on which the sun rises and sets, moved to this day's transit (aqrab al-ayyam).
    private mutating func nearestDay(date: CivilDate, noon: Double, transit: Double) -> SolarEvents? {
        let ephemeris = wideEphemeris ?? SolarEphemeris(covering: (noon - 190)...(noon + 190))
        wideEphemeris = ephemeris
        for distance in 1...183 {
            for offset in [distance, -distance] {
                let shifted = noon + Double(offset)
                guard ephemeris.covers(shifted) else {
                    // A later day of a long request: move the window.
                    wideEphemeris = SolarEphemeris(covering: (noon - 190)...(noon + 190))
                    return nearestDay(date: date, noon: noon, transit: transit)
                }
                let day = SolarDay(ephemeris: ephemeris, observer: observer, near: shifted)
                let candidate = SolarEvents(day, altitudes)
                if candidate.hasSunriseAndSunset {
                    return candidate.moved(toTransit: transit, basis: .day(date.adding(days: offset)))
                }
            }
        }
        return nil
    }
}
