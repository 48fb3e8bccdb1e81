import Foundation

/// The sun's apparent position over a run of days: NREL SPA evaluated once per day at 0h TT and
/// interpolated in between.
///
/// This is the scheme of SPA's own Appendix A.2 and of Meeus, *Astronomical Algorithms* (2nd ed.),
/// ch. 15: α and δ at three consecutive 0h TT, interpolated with Meeus eq. 3.3,
/// y = y₂ + n/2·(a + b + n·c). Over a day the interpolation error is below 0.03″ (the third
/// difference of α and δ), far below SPA's own ±0.0003°. Days share their nodes: day N at 24h is day
/// N+1 at 0h, so a timetable of many days costs one SPA evaluation per day, and that evaluation
/// steps its series from the previous day's (``EarthSeries``, ``NutationSeries``).
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

    /// One node and the coefficients of Meeus eq. 3.3 centred on it: y = y₀ + n·(y₁ + n·y₂).
    private struct Node {
        var alpha: (Double, Double, Double)
        var delta: (Double, Double, Double)
        var equinoxes: (Double, Double, Double)
        var radius: Double
        /// ΔT in days.
        var deltaT: Double
    }

    private let firstNode: Int
    private let nodes: [Node]

    /// Evaluates SPA at every node needed for instants in `range` (UT days from J2000.0).
    init(covering range: ClosedRange<Double>) {
        // ΔT moves an instant by less than 0.01 day; two spare nodes on each side leave room for it
        // and for the three-point stencil.
        let first = Int((range.lowerBound + 0.5).rounded(.down)) - 2
        let last = Int((range.upperBound + 0.5).rounded(.up)) + 2
        var positions: [SolarPositionAlgorithm.Position] = []
        positions.reserveCapacity(last - first + 1)
        let firstCentury = (Double(first) - 0.5) / 36525
        var earth = EarthSeries(millennia: firstCentury / 10)
        var nutation = NutationSeries(julianEphemerisCentury: firstCentury)
        for k in first...last {
            if k > first {
                earth.advanceOneDay()
                nutation.advanceOneDay()
            }
            var position = SolarPositionAlgorithm.position(earth: earth, nutation: nutation)
            // Keep α continuous across 0/360 so that differences between nodes are small.
            if let previous = positions.last?.rightAscension {
                position.rightAscension += 360 * ((previous - position.rightAscension) / 360).rounded()
            }
            positions.append(position)
        }
        func coefficients(_ before: Double, _ y0: Double, _ after: Double) -> (Double, Double, Double) {
            (y0, (after - before) / 2, (after - 2 * y0 + before) / 2)
        }
        firstNode = first
        nodes = positions.indices.map { i in
            let (before, now, after) = (positions[max(0, i - 1)], positions[i], positions[min(positions.count - 1, i + 1)])
            return Node(
                alpha: coefficients(before.rightAscension, now.rightAscension, after.rightAscension),
                delta: coefficients(before.declination, now.declination, after.declination),
                equinoxes: coefficients(before.equationOfEquinoxes, now.equationOfEquinoxes, after.equationOfEquinoxes),
                radius: now.radius,
                // Node k is 0h TT of the day that starts k days after 2000-01-01 0h.
                deltaT: DeltaT.seconds(decimalYear: 2000 + Double(first + i) / 365.2425) / 86400
            )
        }
    }

    /// The sun at `day` (UT days from J2000.0).
    func state(at day: Double) -> State {
        let (node, n) = node(for: day)
        // Greenwich mean sidereal time, SPA §3.8 eq. 12 (Meeus eq. 12.4), plus the equation of the
        // equinoxes for apparent sidereal time.
        let centuries = day / 36525
        let meanSidereal =
            280.460_618_37 + 360.985_647_366_29 * day
            + centuries * centuries * (0.000_387_933 - centuries / 38_710_000)
        return State(
            rightAscension: node.alpha.0 + n * (node.alpha.1 + n * node.alpha.2),
            declination: node.delta.0 + n * (node.delta.1 + n * node.delta.2),
            siderealTime: meanSidereal + node.equinoxes.0 + n * (node.equinoxes.1 + n * node.equinoxes.2)
        )
    }

    /// The Earth–sun distance in AU at `day` (the nearest node's: R changes by 3e-4 a day, 0.003″ of
    /// parallax).
    func radius(at day: Double) -> Double {
        node(for: day).node.radius
    }

    /// The node nearest a UT instant and the interpolation factor n ∈ [−0.5, 0.5].
    private func node(for day: Double) -> (node: Node, n: Double) {
        // Positions from the first node, so truncation rounds (no libm call).
        let fromFirst = day + 0.5 - Double(firstNode)
        let approximate = nodes[clamped(Int(fromFirst + 0.5))]
        let x = fromFirst + approximate.deltaT
        let index = clamped(Int(x + 0.5))
        return (nodes[index], x - Double(index))
    }

    private func clamped(_ index: Int) -> Int {
        precondition(index >= 1 && index < nodes.count - 1, "SolarEphemeris asked for a day it does not cover")
        return index
    }
}
