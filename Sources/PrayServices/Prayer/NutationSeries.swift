#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The nutation series of NREL SPA (§3.4, Table A4.3) at one instant, able to step a fixed number of
/// days ahead by rotation like ``EarthSeries``.
///
/// Each term's argument is an integer combination of the five fundamental arguments X0…X4, cubic
/// polynomials of time whose curvature is tiny: over ``PeriodicSeries/refreshInterval`` steps a constant
/// step leaves an error below 1e-4° in an argument, 1e-5″ in the nutation.
struct NutationSeries {
    private(set) var julianEphemerisCentury: Double
    private let stepDays: Double
    private var terms: PeriodicSeries

    /// Evaluates every term at `jce` (Julian ephemeris centuries from J2000.0), ready to advance by
    /// `stepDays` days at a time.
    init(julianEphemerisCentury jce: Double, stepDays: Double = 1) {
        julianEphemerisCentury = jce
        self.stepDays = stepDays
        let now = Self.arguments(jce)
        let next = Self.arguments(jce + stepDays / 36525)
        terms = PeriodicSeries(arguments: now, steps: zip(next, now).map { $0 - $1 })
    }

    /// Moves every term one step later.
    mutating func advance() {
        julianEphemerisCentury += stepDays / 36525
        if !terms.advance() {
            self = NutationSeries(julianEphemerisCentury: julianEphemerisCentury, stepDays: stepDays)
        }
    }

    /// Δψ and Δε in degrees (eq. 18–22): Σ(a + b·JCE)·sin, Σ(c + d·JCE)·cos, in 0.0001″.
    func nutation() -> (longitude: Double, obliquity: Double) {
        var a = 0.0
        var b = 0.0
        var c = 0.0
        var d = 0.0
        let table = Self.table
        terms.sines.withUnsafeBufferPointer { sines in
            terms.cosines.withUnsafeBufferPointer { cosines in
                for i in 0..<sines.count {
                    a += table.a[i] * sines[i]
                    b += table.b[i] * sines[i]
                    c += table.c[i] * cosines[i]
                    d += table.d[i] * cosines[i]
                }
            }
        }
        let jce = julianEphemerisCentury
        return ((a + b * jce) / 36_000_000, (c + d * jce) / 36_000_000)
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
        let terms = SolarPositionAlgorithm.nutationTerms
        let width = SolarPositionAlgorithm.nutationTermWidth
        return stride(from: 0, to: terms.count, by: width).map { i in
            let sum =
                terms[i] * x[0] + terms[i + 1] * x[1] + terms[i + 2] * x[2] + terms[i + 3] * x[3] + terms[i + 4] * x[4]
            return sum * radiansPerDegree
        }
    }

    /// The coefficients a, b, c, d of every term.
    private struct Table {
        let a: [Double]
        let b: [Double]
        let c: [Double]
        let d: [Double]
    }

    private static let table = Table(
        a: coefficients(5), b: coefficients(6), c: coefficients(7), d: coefficients(8))

    /// The number at `position` of every term of ``SolarPositionAlgorithm/nutationTerms``.
    private static func coefficients(_ position: Int) -> [Double] {
        let terms = SolarPositionAlgorithm.nutationTerms
        return stride(from: position, to: terms.count, by: SolarPositionAlgorithm.nutationTermWidth).map { terms[$0] }
    }
}
