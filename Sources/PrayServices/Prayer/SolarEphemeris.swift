import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The sun's apparent position over a run of days: NREL SPA evaluated at nodes two days apart (0h
/// TT) and interpolated in between.
///
/// The scheme of SPA's Appendix A.2 and of Meeus, *Astronomical Algorithms* (2nd ed.), ch. 15 —
/// tabulate α and δ, interpolate (Meeus ch. 3) — with a cubic through four nodes instead of a
/// parabola through three. The interpolation error is bounded by the fourth difference: the
/// fastest terms of α and δ are the Moon's pull on the Earth (6.5″, 29.5 days) and the short
/// nutation (0.2″, 13.7 days), which leave at most 0.01″ at a two-day spacing — a thousandth of a
/// second of time, a hundredth of SPA's own ±0.0003°. Nodes are shared by every day between them,
/// and each node steps its series from the previous one (``EarthSeries``, ``NutationSeries``).
///
/// Instants are UT days from J2000.0 (JD − 2451545.0). Node `k` sits at JDE = 2451544.5 + 2k.
struct SolarEphemeris {
    /// The sun at one instant.
    struct State {
        /// Geocentric apparent right ascension, degrees (not reduced to 0…360).
        var rightAscension: Double
        /// Geocentric apparent declination, degrees.
        var declination: Double
        /// Greenwich apparent sidereal time, degrees (not reduced).
        var siderealTime: Double
        /// dα/dt, degrees per day.
        var rightAscensionRate: Double
        /// dδ/dt, degrees per day.
        var declinationRate: Double

        /// This state moved by `days` along its rates (for shifts of a fraction of a second).
        func advanced(by days: Double) -> State {
            State(
                rightAscension: rightAscension + rightAscensionRate * days,
                declination: declination + declinationRate * days,
                siderealTime: siderealTime + 360.985_647_366_29 * days,
                rightAscensionRate: rightAscensionRate, declinationRate: declinationRate
            )
        }
    }

    /// Days between nodes.
    static let spacing = 2.0

    /// The cubic from node k to node k + 1: y = c0 + n·(c1 + n·(c2 + n·c3)), n ∈ [0, 1].
    private struct Interval {
        var alpha: (Double, Double, Double, Double)
        var delta: (Double, Double, Double, Double)
        var equinoxes: (Double, Double, Double, Double)
        var radius: Double
        /// ΔT in days.
        var deltaT: Double
    }

    /// JDE − 2451544.5 of the first interval's start, in days.
    private let start: Double
    private let intervals: [Interval]

    /// Evaluates SPA at every node needed for instants in `range` (UT days from J2000.0).
    init(covering range: ClosedRange<Double>) {
        let spacing = Self.spacing
        // ΔT moves an instant by less than 0.01 day; a spare node at each end leaves room for it and
        // one more for the four-point stencil.
        let first = Int(((range.lowerBound + 0.5) / spacing).rounded(.down)) - 2
        let last = Int(((range.upperBound + 0.5) / spacing).rounded(.up)) + 2
        var positions = SolarNodes.positions(first...last)
        // Keep α continuous across 0/360 so that differences between nodes are small.
        for index in positions.indices.dropFirst() {
            let previous = positions[index - 1].rightAscension
            positions[index].rightAscension += 360 * ((previous - positions[index].rightAscension) / 360).rounded()
        }
        start = Double(first + 1) * spacing
        intervals = (1..<(positions.count - 2)).map { i in
            let (p0, p1, p2, p3) = (positions[i - 1], positions[i], positions[i + 1], positions[i + 2])
            return Interval(
                alpha: Self.cubic(p0.rightAscension, p1.rightAscension, p2.rightAscension, p3.rightAscension),
                delta: Self.cubic(p0.declination, p1.declination, p2.declination, p3.declination),
                equinoxes: Self.cubic(
                    p0.equationOfEquinoxes, p1.equationOfEquinoxes, p2.equationOfEquinoxes, p3.equationOfEquinoxes
                ),
                radius: p1.radius,
                // Node k is 0h TT of the day that starts 2k days after 2000-01-01 0h.
                deltaT: DeltaT.seconds(decimalYear: 2000 + Double(first + i) * spacing / 365.2425) / 86400
            )
        }
    }

    /// The sun at `day` (UT days from J2000.0).
    func state(at day: Double) -> State {
        let (interval, n) = interval(for: day)
        // Greenwich mean sidereal time, SPA §3.8 eq. 12 (Meeus eq. 12.4), plus the equation of the
        // equinoxes for apparent sidereal time.
        let centuries = day / 36525
        let meanSidereal =
            280.460_618_37 + 360.985_647_366_29 * day
            + centuries * centuries * (0.000_387_933 - centuries / 38_710_000)
        return State(
            rightAscension: Self.evaluate(interval.alpha, n),
            declination: Self.evaluate(interval.delta, n),
            siderealTime: meanSidereal + Self.evaluate(interval.equinoxes, n),
            rightAscensionRate: Self.derivative(interval.alpha, n) / Self.spacing,
            declinationRate: Self.derivative(interval.delta, n) / Self.spacing
        )
    }

    /// Whether `day` (UT days from J2000.0), and a day and a half either side of it, can be answered.
    func covers(_ day: Double) -> Bool {
        let fromStart = (day + 0.5 - start) / Self.spacing
        return fromStart - 1 >= 0 && fromStart + 1 < Double(intervals.count)
    }

    /// The Earth–sun distance in AU at `day`, to 3e-4 AU (0.003″ of parallax).
    func radius(at day: Double) -> Double {
        interval(for: day).interval.radius
    }

    /// The interval holding a UT instant and the position n ∈ [0, 1) in it.
    private func interval(for day: Double) -> (interval: Interval, n: Double) {
        let fromStart = (day + 0.5 - start) / Self.spacing
        // Positions from the start are positive, so truncation is floor (and no libm call).
        let approximate = intervals[checked(Int(fromStart))]
        let x = fromStart + approximate.deltaT / Self.spacing
        let index = checked(Int(x))
        return (intervals[index], x - Double(index))
    }

    private func checked(_ index: Int) -> Int {
        precondition(index >= 0 && index < intervals.count, "SolarEphemeris asked for a day it does not cover")
        return index
    }

    /// The cubic through (−1, y0), (0, y1), (1, y2), (2, y3) as coefficients of n⁰…n³ (Lagrange).
    private static func cubic(
        _ y0: Double, _ y1: Double, _ y2: Double, _ y3: Double
    ) -> (Double, Double, Double, Double) {
        (y1, -y0 / 3 - y1 / 2 + y2 - y3 / 6, (y0 + y2) / 2 - y1, (y3 - y0) / 6 + (y1 - y2) / 2)
    }

    private static func evaluate(_ c: (Double, Double, Double, Double), _ n: Double) -> Double {
        c.0 + n * (c.1 + n * (c.2 + n * c.3))
    }

    private static func derivative(_ c: (Double, Double, Double, Double), _ n: Double) -> Double {
        c.1 + n * (2 * c.2 + n * 3 * c.3)
    }
}

/// NREL SPA positions at the ephemeris nodes (node `k` at JDE = 2451544.5 + 2k), shared by every
/// calculation in the process.
///
/// The sun's position on a day is the same for every place: a server answering many places for the
/// same days computes it once. Nodes belong to fixed blocks of ``blockSize``, each stepped from a fresh
/// evaluation of the series at the block's first node, so a node has the same value whichever request
/// computed it first, and every answer is reproducible. A block is filled as far as it is asked: a
/// request for a few days evaluates the sun at its own nodes only, stepping the series past the others
/// (a rotation, a fifth of an evaluation) — the first day of a process no longer pays for 128 days. At
/// most ``capacity`` blocks are kept (about 3 KB each); beyond that the cache starts again.
enum SolarNodes {
    /// Nodes per block: 128 days.
    static let blockSize = 64
    /// The most blocks kept: about 1,400 years of days, 12 MB.
    static let capacity = 4096

    /// The nodes of each block computed so far (`nil` where no request has needed one yet).
    private static let blocks = ReadMostly<[Int: [SolarPositionAlgorithm.Position?]]>([:])

    /// The positions at the nodes `nodes`, in order.
    static func positions(_ nodes: ClosedRange<Int>) -> [SolarPositionAlgorithm.Position] {
        let firstBlock = block(of: nodes.lowerBound)
        let lastBlock = block(of: nodes.upperBound)
        var positions: [SolarPositionAlgorithm.Position] = []
        positions.reserveCapacity(nodes.count)
        for index in firstBlock...lastBlock {
            let first = index * blockSize
            let wanted = (max(nodes.lowerBound, first) - first)...(min(nodes.upperBound, first + blockSize - 1) - first)
            var values = blocks.read { $0[index] } ?? []
            if values.isEmpty || values[wanted].contains(where: { $0 == nil }) {
                values = store(index, compute(index, wanted, known: values))
            }
            for offset in wanted {
                // Every wanted node was computed above; a hole would be a bug, not a position.
                guard let position = values[offset] else { preconditionFailure("SolarNodes left node \(offset) unset") }
                positions.append(position)
            }
        }
        return positions
    }

    private static func block(of node: Int) -> Int {
        node >= 0 ? node / blockSize : -((-node + blockSize - 1) / blockSize)
    }

    /// Steps the Earth and nutation series through one block (one fresh evaluation, then rotations) as
    /// far as `wanted` reaches, evaluating the sun at the wanted nodes that `known` lacks.
    private static func compute(
        _ index: Int, _ wanted: ClosedRange<Int>, known: [SolarPositionAlgorithm.Position?]
    ) -> [SolarPositionAlgorithm.Position?] {
        let spacing = SolarEphemeris.spacing
        let firstCentury = (Double(index * blockSize) * spacing - 0.5) / 36525
        var earth = EarthSeries(millennia: firstCentury / 10, stepDays: spacing)
        var nutation = NutationSeries(julianEphemerisCentury: firstCentury, stepDays: spacing)
        var values = known.isEmpty ? Array(repeating: nil, count: blockSize) : known
        for offset in 0...wanted.upperBound {
            if offset > 0 {
                earth.advance()
                nutation.advance()
            }
            if wanted.contains(offset), values[offset] == nil {
                values[offset] = SolarPositionAlgorithm.position(earth: earth, nutation: nutation)
            }
        }
        return values
    }

    /// Keeps a block's nodes, with any another thread computed meanwhile (the same values), and returns
    /// what the cache now holds of it.
    private static func store(
        _ index: Int, _ values: [SolarPositionAlgorithm.Position?]
    ) -> [SolarPositionAlgorithm.Position?] {
        blocks.write { blocks in
            if blocks.count >= capacity { blocks.removeAll(keepingCapacity: true) }
            var merged = values
            if let other = blocks[index] {
                for offset in merged.indices where merged[offset] == nil { merged[offset] = other[offset] }
            }
            blocks[index] = merged
            return merged
        }
    }
}
