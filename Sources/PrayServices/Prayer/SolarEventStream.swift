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

    /// The events of the latitude nearest this one, towards the equator, where the sun rises and sets
    /// (and stands high enough for Asr) that day, moved to this day's transit (aqrab al-bilad).
    ///
    /// The latitude is found to ``latitudePrecision``: steps of 0.5° bracket it, then bisection narrows
    /// the bracket. Searched that finely, the latitude follows the sun's declination, and the times
    /// follow it smoothly. At Tromsø (69.65° N) it is 69.6° on 18 May, the first day without a sunset,
    /// 65.73° at the June solstice (where the sun just touches the horizon at midnight) and 69.63° on
    /// 26 July, the last; in the polar night it is the latitude where the sun just stands high enough
    /// for Asr. From one borrowed day to the next the times change by at most 5–6 minutes, and into
    /// and out of the period by what the sun itself does where it only just sets (up to 34 minutes
    /// at Tromsø, as at a real place at 69.63° between 26 and 27 July). Steps of 0.5° alone (Adhan's
    /// `aqrabBalad`) stop anywhere 0–0.5° past that latitude, where the night lasts anything from
    /// nothing to two hours: maghrib jumped by 33 minutes every four or five days. Holding one
    /// latitude for the whole period would need the solstice's 65.73°, whose sunset on 18 May is at
    /// 22:24, 115 minutes before Tromsø's own the day before: jumps of 100 minutes at each end.
    private func nearestLatitude(noon: Double, transit: Double) -> SolarEvents? {
        let step = coordinates.latitude < 0 ? -0.5 : 0.5
        // The sun does not both rise and set at `without`; it does at `found`: the latitude lies between.
        var without = coordinates.latitude
        var found: (latitude: Double, events: SolarEvents)?
        while found == nil, abs(without) >= 0.5 {
            found = events(atLatitude: without - step, noon: noon).map { (without - step, $0) }
            if found == nil { without -= step }
        }
        guard var (latitude, borrowed) = found else { return nil }
        while abs(without - latitude) > Self.latitudePrecision {
            let middle = (latitude + without) / 2
            if let candidate = events(atLatitude: middle, noon: noon) {
                (latitude, borrowed) = (middle, candidate)
            } else {
                without = middle
            }
        }
        return borrowed.moved(toTransit: transit, basis: .latitude(latitude))
    }

    /// How closely ``nearestLatitude(noon:transit:)`` finds the latitude, degrees (about 11 cm). Where
    /// the sun just touches the horizon, a latitude ε degrees past the exact one moves sunset and
    /// sunrise by up to √(2ε·57.3°/(cos φ·cos δ)) of hour angle, at 4 minutes a degree: about 4 s for
    /// 10⁻⁶°, against 2 min for 10⁻³°.
    private static let latitudePrecision = 1e-6

    /// The events of the day near `noon` at this longitude and `latitude`, when the sun rises and sets
    /// there and stands high enough for Asr.
    private func events(atLatitude latitude: Double, noon: Double) -> SolarEvents? {
        guard
            let place = try? Coordinates(
                latitude: latitude, longitude: coordinates.longitude, elevation: coordinates.elevation)
        else { return nil }
        let day = SolarDay(ephemeris: ephemeris, observer: Observer(place), near: noon)
        let candidate = SolarEvents(day, altitudes)
        return candidate.hasSunriseAndSunset ? candidate : nil
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
