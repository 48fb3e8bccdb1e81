import Foundation

/// The sun's apparent position over a run of days: NREL SPA evaluated once per day at 0h TT and
/// interpolated in between.
///
/// This is the scheme of SPA's own Appendix A.2 and of Meeus, *Astronomical Algorithms* (2nd ed.),
/// ch. 15: α and δ at three consecutive 0h TT, interpolated with Meeus eq. 3.3,
/// y = y₂ + n/2·(a + b + n·c). Over a day the interpolation error is below 0.03″ (the third
/// difference of α and δ), far below SPA's own ±0.0003°. Days share their nodes: day N at 24h is day
/// N+1 at 0h, so a timetable of many days costs one SPA evaluation per day.
///
/// Instants are UT days from J2000.0 (JD − 2451545.0). Node `k` sits at JDE = 2451544.5 + k.
struct SolarEphemeris {
    /// The sun at one instant.
    struct State {
        /// Geocentric apparent right ascension, degrees (not reduced to 0…360).
        var rightAscension: Double
        /// Geocentric apparent declination, degrees.
        var declination: Double
        /// Greenwich apparent sidereal time, degrees (not reduced).
        var siderealTime: Double
    }

    private let firstNode: Int
    private var alpha: [Double] = []
    private var delta: [Double] = []
    private var radius: [Double] = []
    private var equinoxes: [Double] = []
    private var deltaT: [Double] = []

    /// The instants (UT days from J2000.0) this ephemeris can answer for.
    let coverage: ClosedRange<Double>

    /// Evaluates SPA at every node needed for instants in `range` (UT days from J2000.0).
    init(covering range: ClosedRange<Double>) {
        // A ΔT of a few minutes moves an instant by less than 0.01 day; two spare nodes on each side
        // leave room for that and for the three-point stencil.
        firstNode = Int((range.lowerBound + 0.5).rounded(.down)) - 2
        let lastNode = Int((range.upperBound + 0.5).rounded(.up)) + 2
        coverage = range
        let count = lastNode - firstNode + 1
        alpha.reserveCapacity(count)
        delta.reserveCapacity(count)
        radius.reserveCapacity(count)
        equinoxes.reserveCapacity(count)
        deltaT.reserveCapacity(count)
        let firstJCE = (Double(firstNode) - 0.5) / 36525
        var series = EarthSeries(millennia: firstJCE / 10)
        for k in firstNode...lastNode {
            if k > firstNode { series.advanceOneDay() }
            let jce = (Double(k) - 0.5) / 36525
            let position = SolarPositionAlgorithm.position(julianEphemerisCentury: jce, earth: series)
            // Keep α continuous across 0/360 so that differences between nodes are small.
            var rightAscension = position.rightAscension
            if let previous = alpha.last {
                rightAscension += 360 * ((previous - rightAscension) / 360).rounded()
            }
            alpha.append(rightAscension)
            delta.append(position.declination)
            radius.append(position.radius)
            equinoxes.append(position.equationOfEquinoxes)
            // Node k is 0h TT of the day that starts k days after 2000-01-01 0h.
            deltaT.append(DeltaT.seconds(decimalYear: 2000 + Double(k) / 365.2425))
        }
    }

    /// The sun at `day` (UT days from J2000.0).
    func state(at day: Double) -> State {
        let (index, n) = node(for: day)
        let rightAscension = interpolate(alpha, index, n)
        let declination = interpolate(delta, index, n)
        let equationOfEquinoxes = interpolate(equinoxes, index, n)
        // Greenwich mean sidereal time, SPA §3.8 eq. 12 (Meeus eq. 12.4), plus the equation of the
        // equinoxes for apparent sidereal time.
        let centuries = day / 36525
        let meanSidereal =
            280.460_618_37 + 360.985_647_366_29 * day
            + centuries * centuries * (0.000_387_933 - centuries / 38_710_000)
        return State(
            rightAscension: rightAscension, declination: declination,
            siderealTime: meanSidereal + equationOfEquinoxes
        )
    }

    /// The Earth–sun distance in AU at `day`.
    func radius(at day: Double) -> Double {
        let (index, n) = node(for: day)
        return interpolate(radius, index, n)
    }

    /// The central node and the interpolation factor n ∈ [−0.5, 0.5] for a UT instant.
    private func node(for day: Double) -> (Int, Double) {
        let approximate = clamp(Int((day + 0.5).rounded()))
        let x = day + deltaT[approximate - firstNode] / 86400 + 0.5
        let k = clamp(Int(x.rounded()))
        return (k - firstNode, x - Double(k))
    }

    private func clamp(_ k: Int) -> Int {
        precondition(
            k - 1 >= firstNode && k + 1 < firstNode + alpha.count,
            "SolarEphemeris asked for a day it does not cover"
        )
        return k
    }

    /// Meeus eq. 3.3 on the nodes index−1, index, index+1.
    private func interpolate(_ values: [Double], _ index: Int, _ n: Double) -> Double {
        let a = values[index] - values[index - 1]
        let b = values[index + 1] - values[index]
        return values[index] + n / 2 * (a + b + n * (b - a))
    }
}
