import Foundation

/// The sun's geocentric apparent position by the NREL Solar Position Algorithm.
///
/// I. Reda and A. Andreas, "Solar position algorithm for solar radiation applications", Solar Energy
/// 76 (2004) 577–589, with the 2007 corrigendum; section numbers below are the paper's. Uncertainty
/// ±0.0003° for the years −2000…6000. The two hot loops (the Earth's periodic terms and nutation)
/// are written so that consecutive days cost a fraction of a full evaluation: see ``EarthSeries`` and
/// ``NutationSeries``.
enum SolarPositionAlgorithm {
    /// The sun's apparent position at one instant of Terrestrial Time.
    struct Position: Equatable {
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

/// The nutation series of NREL SPA (§3.4, Table A4.3) at one instant, able to step a day at a time
/// by rotation like ``EarthSeries``.
///
/// Each term's argument is an integer combination of the five fundamental arguments X0…X4, cubic
/// polynomials of time whose curvature is tiny: over ``EarthSeries/refreshInterval`` days a constant
/// daily step leaves an error below 1e-5° in an argument, 1e-6″ in the nutation.
struct NutationSeries {
    private(set) var julianEphemerisCentury: Double
    private var terms: PeriodicSeries
    private var stepsSinceRefresh = 0

    /// One day in Julian centuries.
    static let day = 1.0 / 36525

    /// Evaluates every term at `jce` (Julian ephemeris centuries from J2000.0).
    init(julianEphemerisCentury jce: Double) {
        julianEphemerisCentury = jce
        let now = Self.arguments(jce)
        let tomorrow = Self.arguments(jce + Self.day)
        terms = PeriodicSeries(arguments: now, steps: zip(tomorrow, now).map { $0 - $1 })
    }

    /// Moves every term one day (of TT) later.
    mutating func advanceOneDay() {
        stepsSinceRefresh += 1
        guard stepsSinceRefresh < EarthSeries.refreshInterval else {
            self = NutationSeries(julianEphemerisCentury: julianEphemerisCentury + Self.day)
            return
        }
        julianEphemerisCentury += Self.day
        terms.advance()
    }

    /// Δψ and Δε in degrees (eq. 18–22): Σ(a + b·JCE)·sin, Σ(c + d·JCE)·cos, in 0.0001″.
    func nutation() -> (longitude: Double, obliquity: Double) {
        let jce = julianEphemerisCentury
        var sumPsi = 0.0
        var sumEpsilon = 0.0
        let coefficients = Self.coefficients
        terms.sines.withUnsafeBufferPointer { sines in
            terms.cosines.withUnsafeBufferPointer { cosines in
                coefficients.withUnsafeBufferPointer { k in
                    for i in 0..<sines.count {
                        sumPsi += (k[4 * i] + k[4 * i + 1] * jce) * sines[i]
                        sumEpsilon += (k[4 * i + 2] + k[4 * i + 3] * jce) * cosines[i]
                    }
                }
            }
        }
        return (sumPsi / 36_000_000, sumEpsilon / 36_000_000)
    }

    /// The argument Σ Y_ij·X_j of every term in radians (eq. 15–17).
    private static func arguments(_ jce: Double) -> [Double] {
        let t2 = jce * jce
        let t3 = t2 * jce
        // §3.4.1–3.4.5: mean elongation of the moon, mean anomalies of sun and moon, the moon's
        // argument of latitude and the longitude of its ascending node, degrees.
        let x = [
            297.85036 + 445_267.111480 * jce - 0.0019142 * t2 + t3 / 189_474,
            357.52772 + 35999.050340 * jce - 0.0001603 * t2 - t3 / 300_000,
            134.96298 + 477_198.867398 * jce + 0.0086972 * t2 + t3 / 56250,
            93.27191 + 483_202.017538 * jce - 0.0036825 * t2 + t3 / 327_270,
            125.04452 - 1934.136261 * jce + 0.0020708 * t2 + t3 / 450_000,
        ]
        return SolarPositionAlgorithm.nutationTerms.map { term in
            zip(term.multipliers, x).reduce(0) { $0 + Double($1.0) * $1.1 } * radiansPerDegree
        }
    }

    /// a, b, c, d of each term, flattened.
    private static let coefficients: [Double] = SolarPositionAlgorithm.nutationTerms.flatMap { [$0.a, $0.b, $0.c, $0.d] }
}

let degreesPerRadian = 180 / Double.pi
let radiansPerDegree = Double.pi / 180
