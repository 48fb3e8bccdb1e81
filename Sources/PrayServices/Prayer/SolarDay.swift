import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// An altitude of the sun's centre in degrees with its sine and cosine, computed once per request.
struct Altitude {
    let degrees: Double
    let sine: Double
    let cosine: Double

    init(_ degrees: Double) {
        self.degrees = degrees
        sine = sin(degrees * radiansPerDegree)
        cosine = cos(degrees * radiansPerDegree)
    }

    /// The altitude whose cotangent is `cotangent` (> 0), without calling atan, sin and cos twice.
    init(cotangent: Double) {
        let hypotenuse = (1 + cotangent * cotangent).squareRoot()
        degrees = atan(1 / cotangent) * degreesPerRadian
        sine = 1 / hypotenuse
        cosine = cotangent / hypotenuse
    }
}

/// A place on Earth as the solar calculations need it.
struct Observer {
    /// Geodetic latitude, degrees.
    let latitude: Double
    /// Longitude, degrees east.
    let longitude: Double
    let sinLatitude: Double
    let cosLatitude: Double
    /// The observer's distance from the Earth's centre in equatorial radii, ρ (SPA §3.10, eq. 38–40).
    let geocentricDistance: Double
    /// The dip of the horizon for the observer's elevation, degrees: 0.0347°·√h (DESIGN §5).
    let horizonDip: Double

    init(_ coordinates: Coordinates) {
        latitude = coordinates.latitude
        longitude = coordinates.longitude
        let phi = latitude * radiansPerDegree
        sinLatitude = sin(phi)
        cosLatitude = cos(phi)
        // SPA §3.10: u = atan(0.99664719·tan φ), x = cos u + E/6378140·cos φ, y = 0.99664719·sin u + …
        let u = atan(0.996_647_19 * tan(phi))
        let scaledElevation = coordinates.elevation / 6_378_140
        let x = cos(u) + scaledElevation * cosLatitude
        let y = 0.996_647_19 * sin(u) + scaledElevation * sinLatitude
        geocentricDistance = (x * x + y * y).squareRoot()
        horizonDip = Self.horizonDip(elevation: coordinates.elevation)
    }

    /// The dip of the horizon at `elevation` metres, degrees: 0.0347°·√h (DESIGN §5).
    static func horizonDip(elevation: Double) -> Double {
        0.0347 * max(0, elevation).squareRoot()
    }
}

/// One solar day at one place: the upper transit nearest a given instant, the lower transits either
/// side of it, and the instants at which the sun's centre crosses a given altitude.
///
/// Times are UT days from J2000.0. Altitudes are topocentric (as seen from the observer, SPA
/// §3.10–3.13) and geometric (no refraction): the convention of DESIGN §5. Events are solved as in
/// Meeus ch. 15 — an hour angle from cos H₀ = (sin h₀ − sin φ sin δ)/(cos φ cos δ), corrected with
/// the declination and right ascension interpolated at the new estimate until the change is below a
/// millisecond — with a bracketing solver as the fallback where that iteration fails (the days when
/// an event begins or stops happening). Whether the sun reaches an altitude is decided from the
/// day's real highest and lowest altitudes, not from |cos H₀| > 1 at one declination.
struct SolarDay {
    /// The sun crosses the meridian (hour angle 0), UT days from J2000.0.
    let transit: Double
    /// The lower transit (hour angle 180°) before ``transit``.
    let previousLowerTransit: Double
    /// The lower transit after ``transit``.
    let nextLowerTransit: Double
    /// The sun's geocentric declination at ``transit``, degrees.
    let transitDeclination: Double
    /// How fast the declination changes over the day, degrees per day.
    private let declinationRate: Double
    /// How fast the hour angle grows, degrees per day: 360.985647 less the right ascension's rate.
    private let hourAngleRate: Double
    private let nextLowerState: SolarEphemeris.State
    private let sinTransitDeclination: Double
    private let cosTransitDeclination: Double

    private let ephemeris: SolarEphemeris
    private let observer: Observer
    /// The sun's horizontal parallax for this observer, ξ·ρ in degrees (8.794″/R, SPA §3.12).
    private let parallax: Double
    private let highest: Double
    private let lowestBefore: Double
    private let lowestAfter: Double

    /// The degrees within which a day's extreme altitude is located exactly rather than taken at the
    /// transit. The drift of the declination moves the true extreme off the meridian by about
    /// (dδ/dt·sin(φ − δ))² / (2·cos φ·cos δ·(dH/dt)²): under 0.001° up to 80° of latitude, up to
    /// ~0.2° at the poles.
    private var edgeMargin: Double { abs(observer.latitude) > 80 ? 0.3 : 0.01 }
    /// Solutions stop improving below this change: 0.86 ms.
    private static let tolerance = 1e-8

    /// What the next solar day can take over from this one: its transit a day later is within a
    /// minute of the next, and its lower transit after is the next day's lower transit before.
    struct Continuation {
        let transit: Double
        let nextLowerTransit: Double
        let nextLowerState: SolarEphemeris.State
    }

    /// What the next solar day can take over from this one.
    var continuation: Continuation {
        Continuation(transit: transit, nextLowerTransit: nextLowerTransit, nextLowerState: nextLowerState)
    }

    /// Finds the solar day whose upper transit is nearest `approximateNoon`, starting from the day
    /// before's ``continuation`` when there is one.
    init(
        ephemeris: SolarEphemeris, observer: Observer, near approximateNoon: Double, after previous: Continuation? = nil
    ) {
        self.ephemeris = ephemeris
        self.observer = observer
        // The day before's transit, a day later, is within a minute of this one.
        let guess = previous.map { $0.transit + 1 } ?? approximateNoon
        let (transit, atTransit) = Self.solveHourAngle(
            0, from: abs(guess - approximateNoon) < 0.5 ? guess : approximateNoon, ephemeris, observer
        )
        self.transit = transit
        let before: SolarEphemeris.State
        if let previous, abs(previous.nextLowerTransit - (transit - 0.5)) < 0.1 {
            (previousLowerTransit, before) = (previous.nextLowerTransit, previous.nextLowerState)
        } else {
            (previousLowerTransit, before) = Self.solveHourAngle(180, from: transit - 0.5, ephemeris, observer)
        }
        let after: SolarEphemeris.State
        (nextLowerTransit, after) = Self.solveHourAngle(180, from: transit + 0.5, ephemeris, observer)
        nextLowerState = after
        transitDeclination = atTransit.declination
        let span = nextLowerTransit - previousLowerTransit
        declinationRate = (after.declination - before.declination) / span
        // α may step by 360° between the ephemeris' intervals: the difference is reduced.
        hourAngleRate = 360.985_647 - Self.normalized(after.rightAscension - before.rightAscension) / span
        parallax = 8.794 / 3600 / ephemeris.radius(at: transit) * observer.geocentricDistance
        // On the meridian the altitude is 90° − |φ − δ|, below the pole −90° + |φ + δ| (Meeus eq. 13.6
        // with H = 0 and 180°).
        highest = 90 - abs(observer.latitude - atTransit.declination)
        lowestBefore = abs(observer.latitude + before.declination) - 90
        lowestAfter = abs(observer.latitude + after.declination) - 90
        let delta = atTransit.declination * radiansPerDegree
        sinTransitDeclination = sin(delta)
        cosTransitDeclination = cos(delta)
    }

    /// The instant the sun's centre crosses topocentric altitude `altitude` (degrees) rising
    /// (`morning`) or setting, or `nil` when it does not reach that altitude on that side of the day.
    /// - Parameters:
    ///   - altitude: The altitude.
    ///   - morning: Whether the sun is rising.
    ///   - hint: The same event's offset from its transit on the day before, in days, if known.
    func time(altitude: Altitude, morning: Bool, hint: Double? = nil) -> Double? {
        // The sun as seen from the observer is lower than from the Earth's centre by the parallax in
        // altitude, p = ξ·ρ·cos h; solve for the geocentric altitude that shows as `altitude`.
        // sin(h + p) = sin h + p·cos h to 1e-9 (p < 0.003°).
        let shift = parallax * altitude.cosine
        let target = altitude.degrees + shift
        let sinTarget = altitude.sine + shift * radiansPerDegree * altitude.cosine
        var high = (time: transit, altitude: highest)
        var low =
            morning
            ? (time: previousLowerTransit, altitude: lowestBefore) : (time: nextLowerTransit, altitude: lowestAfter)
        let window = morning ? previousLowerTransit...transit : transit...nextLowerTransit
        if abs(high.altitude - target) < edgeMargin { high = extremum(in: window, maximum: true) }
        if abs(low.altitude - target) < edgeMargin { low = extremum(in: window, maximum: false) }
        guard low.altitude < target, target < high.altitude else { return nil }
        if let time = iterate(sinTarget: sinTarget, morning: morning, hint: hint), window.contains(time) {
            return time
        }
        return bisect(target: target, low.time, high.time)
    }

    /// The altitude of the sun's centre at which Asr begins: cot h = factor + tan|φ − δ|, with δ the
    /// declination at transit; `nil` when the sun does not rise (|φ − δ| ≥ 90°).
    func asrAltitude(shadowFactor: Double) -> Altitude? {
        let zenithDistance = abs(observer.latitude - transitDeclination)
        guard zenithDistance < 90 else { return nil }
        return Altitude(cotangent: shadowFactor + tan(zenithDistance * radiansPerDegree))
    }

    // MARK: - Helpers

    /// Meeus ch. 15: the event's hour angle at the declination of the current estimate, moved to
    /// until the estimate stops changing. `nil` when cos H₀ leaves [−1, 1] or it does not settle.
    ///
    /// The declination of the first estimate is extrapolated from the transit with the day's rate, at
    /// the hour angle of `hint` (the same event's offset from transit the day before, in days) or of
    /// the transit's declination, so the estimate is within a second or so. Each correction leaves
    /// an error of r·|step|, where r = |dH₀/dδ·dδ/dt| / (dH/dt) is how much the target hour angle
    /// moves with the estimate (about 1/1000 at middle latitudes); the loop stops once that is below
    /// ``tolerance``. While δ stays close to the last exact evaluation, the target hour angle is moved
    /// along dH₀/dδ instead of calling acos again.
    private func iterate(sinTarget: Double, morning: Bool, hint: Double?) -> Double? {
        let sign = morning ? -1.0 : 1.0
        /// The event's hour angle (degrees) at `declination`, and its derivative dH/dδ.
        func hourAngle(declination: Double) -> (angle: Double, slope: Double)? {
            // sin and cos of δ from those at transit: δ differs by less than 0.5° within the day, so
            // the series of the angle-sum formulas to the fifth power is exact to rounding.
            let e = (declination - transitDeclination) * radiansPerDegree
            let e2 = e * e
            let sinE = e * (1 - e2 / 6 * (1 - e2 / 20))
            let cosE = 1 - e2 / 2 * (1 - e2 / 12 * (1 - e2 / 30))
            let sinDelta = sinTransitDeclination * cosE + cosTransitDeclination * sinE
            let cosDelta = cosTransitDeclination * cosE - sinTransitDeclination * sinE
            let denominator = observer.cosLatitude * cosDelta
            let cosH0 = (sinTarget - observer.sinLatitude * sinDelta) / denominator
            guard abs(cosH0) < 1 else { return nil }
            // Differentiating the cosine formula: dH₀/dδ = (sin φ·cos δ − cos H₀·cos φ·sin δ) /
            // (cos φ·cos δ·sin H₀).
            let sinH0 = (1 - cosH0 * cosH0).squareRoot()
            let slope =
                (observer.sinLatitude * cosDelta - cosH0 * observer.cosLatitude * sinDelta) / (denominator * sinH0)
            return (sign * acos(cosH0) * degreesPerRadian, sign * slope)
        }
        let offset: Double
        if let hint {
            offset = hint
        } else {
            guard let first = hourAngle(declination: transitDeclination) else { return nil }
            offset = first.angle / hourAngleRate
        }
        var reference = transitDeclination + declinationRate * offset
        guard var exact = hourAngle(declination: reference) else { return nil }
        var time = transit + exact.angle / hourAngleRate
        let ratio = abs(exact.slope * declinationRate) / hourAngleRate
        for _ in 0..<12 {
            let state = ephemeris.state(at: time)
            // Linear in δ only while the curvature of H₀(δ) cannot matter: a change Δδ with
            // Δδ·(1 + |dH₀/dδ|) below 0.02° leaves an error near ½·(dH₀/dδ)²·Δδ², under 0.02″.
            if abs(state.declination - reference) * (1 + abs(exact.slope)) > 0.02 {
                guard let fresh = hourAngle(declination: state.declination) else { return nil }
                (exact, reference) = (fresh, state.declination)
            }
            let target = exact.angle + exact.slope * (state.declination - reference)
            let step =
                Self.normalized(target - (state.siderealTime + observer.longitude - state.rightAscension))
                / hourAngleRate
            time += step
            if abs(step) < Self.tolerance || (ratio < 0.5 && abs(step) * ratio / (1 - ratio) < Self.tolerance) {
                return time
            }
        }
        return nil
    }

    /// The Illinois variant of regula falsi on altitude − target between two instants where it has
    /// opposite signs.
    private func bisect(target: Double, _ first: Double, _ second: Double) -> Double {
        var a = first
        var b = second
        var fa = Self.altitude(at: a, ephemeris, observer) - target
        var fb = Self.altitude(at: b, ephemeris, observer) - target
        var side = 0
        for _ in 0..<200 {
            let c = fb == fa ? (a + b) / 2 : (a * fb - b * fa) / (fb - fa)
            let fc = Self.altitude(at: c, ephemeris, observer) - target
            if fc == 0 || abs(b - a) < Self.tolerance { return c }
            if (fc > 0) == (fb > 0) {
                b = c
                fb = fc
                if side == -1 { fa /= 2 }
                side = -1
            } else {
                a = c
                fa = fc
                if side == 1 { fb /= 2 }
                side = 1
            }
            if abs(b - a) < Self.tolerance { return (a + b) / 2 }
        }
        return (a + b) / 2
    }

    /// The highest (or lowest) altitude in `window` and when it happens, by golden-section search.
    /// The altitude is unimodal over a half-day: it rises from the lower transit to the upper one.
    private func extremum(in window: ClosedRange<Double>, maximum: Bool) -> (time: Double, altitude: Double) {
        let sign = maximum ? 1.0 : -1.0
        func value(_ t: Double) -> Double { sign * Self.altitude(at: t, ephemeris, observer) }
        let ratio = (5.0.squareRoot() - 1) / 2
        var a = window.lowerBound
        var b = window.upperBound
        var c = b - ratio * (b - a)
        var d = a + ratio * (b - a)
        var fc = value(c)
        var fd = value(d)
        while b - a > 1e-6 {
            if fc > fd {
                b = d
                d = c
                fd = fc
                c = b - ratio * (b - a)
                fc = value(c)
            } else {
                a = c
                c = d
                fc = fd
                d = a + ratio * (b - a)
                fd = value(d)
            }
        }
        let candidates = [window.lowerBound, (a + b) / 2, window.upperBound]
        let best = candidates.max { value($0) < value($1) } ?? (a + b) / 2
        return (best, sign * value(best))
    }

    /// The geocentric altitude of the sun's centre at `time`, degrees (Meeus eq. 13.6).
    private static func altitude(at time: Double, _ ephemeris: SolarEphemeris, _ observer: Observer) -> Double {
        let state = ephemeris.state(at: time)
        return altitude(state, hourAngle: state.siderealTime + observer.longitude - state.rightAscension, observer)
    }

    /// The geocentric altitude of the sun's centre for a declination and hour angle, degrees.
    private static func altitude(_ state: SolarEphemeris.State, hourAngle: Double, _ observer: Observer) -> Double {
        let delta = state.declination * radiansPerDegree
        let sinAltitude =
            observer.sinLatitude * sin(delta) + observer.cosLatitude * cos(delta) * cos(hourAngle * radiansPerDegree)
        return asin(min(1, max(-1, sinAltitude))) * degreesPerRadian
    }

    /// The instant near `guess` at which the local hour angle is `target` degrees (0: upper transit,
    /// 180: lower transit), and the sun then, by Newton's method with the hour angle's rate
    /// 360.985647° − dα/dt. The rate changes by 0.1° a day at most, so a step of s leaves an error
    /// below 2e-4·s²: once a step is under 1e-3 day (86 s) the error left is far below a
    /// millisecond, and the state is moved along by the step instead of evaluated again.
    private static func solveHourAngle(
        _ target: Double, from guess: Double, _ ephemeris: SolarEphemeris, _ observer: Observer
    ) -> (Double, SolarEphemeris.State) {
        var time = guess
        var state = ephemeris.state(at: time)
        for _ in 0..<8 {
            let hourAngle = normalized(state.siderealTime + observer.longitude - state.rightAscension - target)
            let step = hourAngle / (360.985_647 - state.rightAscensionRate)
            time -= step
            if abs(step) < 1e-3 { return (time, state.advanced(by: -step)) }
            state = ephemeris.state(at: time)
        }
        return (time, state)
    }

    /// An angle in degrees reduced to (−180, 180].
    static func normalized(_ degrees: Double) -> Double {
        // Subtracting whole turns, counted by truncation: fmod and libm's round cost more than the
        // rest of an iteration.
        let turns = degrees / 360
        var value = degrees - 360 * Double(Int(turns + (turns < 0 ? -0.5 : 0.5)))
        if value <= -180 { value += 360 } else if value > 180 { value -= 360 }
        return value
    }
}
