#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The sun's geocentric apparent position by the NREL Solar Position Algorithm.
///
/// I. Reda and A. Andreas, "Solar position algorithm for solar radiation applications", Solar Energy
/// 76 (2004) 577–589, with the 2007 corrigendum; section numbers below are the paper's. Uncertainty
/// ±0.0003° for the years −2000…6000. The two hot loops (the Earth's periodic terms and nutation)
/// are written so that consecutive days cost a fraction of a full evaluation: see ``EarthSeries`` and
/// ``NutationSeries``.
enum SolarPositionAlgorithm {
    /// The sun's apparent position at one instant of Terrestrial Time.
    struct Position: Equatable, NodeValue {
        /// Not a position: a node of a block not computed yet (``NodeBlock``).
        static let unset = Position(rightAscension: .nan, declination: .nan, radius: .nan, equationOfEquinoxes: .nan)

        /// Geocentric apparent right ascension α, degrees in [0, 360) (§3.9, eq. 28).
        var rightAscension: Double
        /// Geocentric apparent declination δ, degrees (§3.9, eq. 29).
        var declination: Double
        /// Earth–sun distance R in astronomical units (§3.2, eq. 10–11).
        var radius: Double
        /// The nutation correction to sidereal time, Δψ·cos ε, degrees (§3.8, eq. 23).
        var equationOfEquinoxes: Double
    }

    /// The J2000.0 epoch as a Julian day.
    static let j2000 = 2_451_545.0

    /// The position at Julian Ephemeris Day `jde`, with every periodic term evaluated afresh.
    static func position(julianEphemerisDay jde: Double) -> Position {
        let jce = (jde - j2000) / 36525
        return position(earth: EarthSeries(millennia: jce / 10), nutation: NutationSeries(julianEphemerisCentury: jce))
    }

    /// The position from Earth and nutation series already evaluated at the same instant.
    static func position(earth: EarthSeries, nutation: NutationSeries) -> Position {
        let jce = nutation.julianEphemerisCentury
        let jme = jce / 10
        let (longitude, latitude, radius) = earth.heliocentric()
        // §3.3, eq. 13–14: geocentric longitude Θ and latitude β, degrees.
        let theta = longitude * degreesPerRadian + 180
        let beta = -latitude * degreesPerRadian
        let (deltaPsi, deltaEpsilon) = nutation.nutation()
        // §3.5, eq. 24: true obliquity ε = ε0/3600 + Δε, with ε0 from U = JME/10 (arc-seconds).
        let u = jme / 10
        var epsilon0 = 2.45
        for coefficient in [5.79, 27.87, 7.12, -39.05, -249.67, -51.38, 1999.25, -1.55, -4680.93, 84381.448] {
            epsilon0 = epsilon0 * u + coefficient
        }
        let epsilon = epsilon0 / 3600 + deltaEpsilon
        // §3.6–3.7, eq. 25–26: aberration Δτ and apparent longitude λ.
        let lambda = theta + deltaPsi - 20.4898 / (3600 * radius)
        let lambdaRad = lambda * radiansPerDegree
        let epsilonRad = epsilon * radiansPerDegree
        let betaRad = beta * radiansPerDegree
        let sinLambda = sin(lambdaRad)
        let cosEpsilon = cos(epsilonRad)
        let sinEpsilon = sin(epsilonRad)
        // §3.9, eq. 28–29.
        var alpha = atan2(sinLambda * cosEpsilon - tan(betaRad) * sinEpsilon, cos(lambdaRad)) * degreesPerRadian
        if alpha < 0 { alpha += 360 }
        let delta = asin(sin(betaRad) * cosEpsilon + cos(betaRad) * sinEpsilon * sinLambda) * degreesPerRadian
        return Position(
            rightAscension: alpha, declination: delta, radius: radius,
            equationOfEquinoxes: deltaPsi * cosEpsilon
        )
    }

    /// Nutation in longitude Δψ and obliquity Δε in degrees (§3.4, eq. 15–22) at `jce`.
    static func nutation(julianEphemerisCentury jce: Double) -> (longitude: Double, obliquity: Double) {
        NutationSeries(julianEphemerisCentury: jce).nutation()
    }
}

let degreesPerRadian = 180 / Double.pi
let radiansPerDegree = Double.pi / 180
