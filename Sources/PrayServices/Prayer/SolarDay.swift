import Foundation
import PrayCore

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
        horizonDip = 0.0347 * max(0, coordinates.elevation).squareRoot()
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

    private let ephemeris: SolarEphemeris
    private let observer: Observer
    /// The sun's horizontal parallax for this observer, ξ·ρ in degrees (8.794″/R, SPA §3.12).
    private let parallax: Double
    private let highest: Double
    private let lowestBefore: Double
    private let lowestAfter: Double

    /// The degrees within which a day's extreme altitude is located exactly rather than taken at the
    /// transit. The drift of the declination moves the true extreme by at most ~0.2° (at the poles).
    private static let edgeMargin = 0.25
    /// Solutions stop improving below this change: 0.86 ms.
    private static let tolerance = 1e-8

    /// Finds the solar day whose upper transit is nearest `approximateNoon`.
    init(ephemeris: SolarEphemeris, observer: Observer, near approximateNoon: Double) {
        self.ephemeris = ephemeris
        self.observer = observer
        let transit = Self.solveHourAngle(0, from: approximateNoon, ephemeris, observer)
        self.transit = transit
        previousLowerTransit = Self.solveHourAngle(180, from: transit - 0.5, ephemeris, observer)
        nextLowerTransit = Self.solveHourAngle(180, from: transit + 0.5, ephemeris, observer)
        transitDeclination = ephemeris.state(at: transit).declination
        parallax = 8.794 / 3600 / ephemeris.radius(at: transit) * observer.geocentricDistance
        highest = Self.altitude(at: transit, ephemeris, observer)
        lowestBefore = Self.altitude(at: previousLowerTransit, ephemeris, observer)
        lowestAfter = Self.altitude(at: nextLowerTransit, ephemeris, observer)
    }

    /// The instant the sun's centre crosses topocentric altitude `altitude` (degrees) rising
    /// (`morning`) or setting, or `nil` when it does not reach that altitude on that side of the day.
    func time(altitude: Double, morning: Bool) -> Double? {
        // The sun as seen from the observer is lower than from the Earth's centre by the parallax in
        // altitude, ξ·ρ·cos h; solve for the geocentric altitude that shows as `altitude`.
        let target = altitude + parallax * cos(altitude * radiansPerDegree)
        var high = (time: transit, altitude: highest)
        var low =
            morning ? (time: previousLowerTransit, altitude: lowestBefore) : (time: nextLowerTransit, altitude: lowestAfter)
        let window = morning ? previousLowerTransit...transit : transit...nextLowerTransit
        if abs(high.altitude - target) < Self.edgeMargin { high = extremum(in: window, maximum: true) }
        if abs(low.altitude - target) < Self.edgeMargin { low = extremum(in: window, maximum: false) }
        guard low.altitude < target, target < high.altitude else { return nil }
        if let time = iterate(target: target, morning: morning), window.contains(time) {
            return time
        }
        return bisect(target: target, low.time, high.time)
    }

    /// The altitude of the sun's centre at which Asr begins: cot h = factor + tan|φ − δ|, with δ the
    /// declination at transit; `nil` when the sun does not rise (|φ − δ| ≥ 90°).
    func asrAltitude(shadowFactor: Double) -> Double? {
        let zenithDistance = abs(observer.latitude - transitDeclination)
        guard zenithDistance < 90 else { return nil }
        return atan(1 / (shadowFactor + tan(zenithDistance * radiansPerDegree))) * degreesPerRadian
    }

    // MARK: - Helpers

    /// Meeus ch. 15: the event's hour angle at the declination of the current estimate, moved to
    /// until the estimate stops changing. `nil` when cos H₀ leaves [−1, 1] or it does not settle.
    private func iterate(target: Double, morning: Bool) -> Double? {
        let sinTarget = sin(target * radiansPerDegree)
        var time = transit
        var declination = transitDeclination
        var hourAngle = 0.0
        for _ in 0..<10 {
            let delta = declination * radiansPerDegree
            let cosH0 = (sinTarget - observer.sinLatitude * sin(delta)) / (observer.cosLatitude * cos(delta))
            guard abs(cosH0) <= 1 else { return nil }
            let h0 = acos(cosH0) * degreesPerRadian
            let step = ((morning ? -h0 : h0) - hourAngle) / 360
            time += step
            if abs(step) < Self.tolerance { return time }
            let state = ephemeris.state(at: time)
            declination = state.declination
            hourAngle = Self.normalized(state.siderealTime + observer.longitude - state.rightAscension)
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
        let delta = state.declination * radiansPerDegree
        let hourAngle = (state.siderealTime + observer.longitude - state.rightAscension) * radiansPerDegree
        let sinAltitude = observer.sinLatitude * sin(delta) + observer.cosLatitude * cos(delta) * cos(hourAngle)
        return asin(min(1, max(-1, sinAltitude))) * degreesPerRadian
    }

    /// The instant near `guess` at which the local hour angle is `target` degrees (0: upper transit,
    /// 180: lower transit). The hour angle grows by about 360° a day.
    private static func solveHourAngle(
        _ target: Double, from guess: Double, _ ephemeris: SolarEphemeris, _ observer: Observer
    ) -> Double {
        var time = guess
        for _ in 0..<8 {
            let state = ephemeris.state(at: time)
            let step = normalized(state.siderealTime + observer.longitude - state.rightAscension - target) / 360
            time -= step
            if abs(step) < tolerance { break }
        }
        return time
    }

    /// An angle in degrees reduced to (−180, 180].
    static func normalized(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value > 180 { value -= 360 } else if value <= -180 { value += 360 }
        return value
    }
}
