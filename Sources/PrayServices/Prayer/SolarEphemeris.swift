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
    private struct Interval: NodeValue {
        /// Not an interval: a node of a block not computed yet (``NodeBlock``).
        static let unset = Interval(
            alpha: (.nan, .nan, .nan, .nan), delta: (.nan, .nan, .nan, .nan), equinoxes: (.nan, .nan, .nan, .nan),
            radius: .nan, deltaT: .nan)

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
        start = Double(first + 1) * spacing
        intervals = Self.cache.values((first + 1)...(last - 2), compute: Self.intervals)
    }

    /// The intervals computed so far, by the node each starts at, shared by every calculation in the
    /// process as the nodes are (``SolarNodes``): a request's days take their cubics from here rather
    /// than fitting them again. At most 1,024 blocks (about 360 years of days, 8 MB).
    private static let cache = NodeBlocks<Interval>(capacity: 1024)

    /// The intervals of one block starting at the nodes `wanted` (offsets in the block) that `known`
    /// lacks.
    private static func intervals(
        block: Int, wanted: ClosedRange<Int>, known: NodeBlock<Interval>
    ) -> NodeBlock<Interval> {
        let first = block * NodeBlocks<Interval>.blockSize
        var values = known
        // The four nodes of each wanted interval: from the one before the first to two after the last.
        let positions = SolarNodes.positions((first + wanted.lowerBound - 1)...(first + wanted.upperBound + 2))
        for offset in wanted where !values.has(offset) {
            let i = offset - wanted.lowerBound + 1
            var (p0, p1, p2, p3) = (positions[i - 1], positions[i], positions[i + 1], positions[i + 2])
            // α continuous across 0/360 from the interval's own start node: differences between nodes
            // stay small. (From one interval to the next α may then step by 360°; every use of it is
            // an angle reduced to (−180°, 180°] or a difference reduced so.)
            p0.rightAscension += 360 * ((p1.rightAscension - p0.rightAscension) / 360).rounded()
            p2.rightAscension += 360 * ((p1.rightAscension - p2.rightAscension) / 360).rounded()
            p3.rightAscension += 360 * ((p2.rightAscension - p3.rightAscension) / 360).rounded()
            let interval = Interval(
                alpha: cubic(p0.rightAscension, p1.rightAscension, p2.rightAscension, p3.rightAscension),
                delta: cubic(p0.declination, p1.declination, p2.declination, p3.declination),
                equinoxes: cubic(
                    p0.equationOfEquinoxes, p1.equationOfEquinoxes, p2.equationOfEquinoxes, p3.equationOfEquinoxes
                ),
                radius: p1.radius,
                // Node k is 0h TT of the day that starts 2k days after 2000-01-01 0h.
                deltaT: DeltaT.seconds(decimalYear: 2000 + Double(first + offset) * spacing / 365.2425) / 86400
            )
            values.set(offset, interval)
        }
        return values
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
/// (a rotation, a fifth of an evaluation) — the first day of a process no longer pays for 128 days.
/// The blocks are kept in a ``NodeBlocks`` (about 3 KB each).
enum SolarNodes {
    /// Nodes per block: 128 days.
    static let blockSize = NodeBlocks<SolarPositionAlgorithm.Position>.blockSize

    /// The nodes computed so far: at most 4,096 blocks, about 1,400 years of days, 12 MB.
    private static let blocks = NodeBlocks<SolarPositionAlgorithm.Position>(capacity: 4096)

    /// The positions at the nodes `nodes`, in order.
    static func positions(_ nodes: ClosedRange<Int>) -> [SolarPositionAlgorithm.Position] {
        blocks.values(nodes, compute: compute)
    }

    /// Steps the Earth and nutation series through one block (one fresh evaluation, then rotations) as
    /// far as `wanted` reaches, evaluating the sun at the wanted nodes that `known` lacks.
    private static func compute(
        block index: Int, wanted: ClosedRange<Int>, known: NodeBlock<SolarPositionAlgorithm.Position>
    ) -> NodeBlock<SolarPositionAlgorithm.Position> {
        let spacing = SolarEphemeris.spacing
        let firstCentury = (Double(index * blockSize) * spacing - 0.5) / 36525
        var earth = EarthSeries(millennia: firstCentury / 10, stepDays: spacing)
        var nutation = NutationSeries(julianEphemerisCentury: firstCentury, stepDays: spacing)
        var values = known
        for offset in 0...wanted.upperBound {
            if offset > 0 {
                earth.advance()
                nutation.advance()
            }
            if wanted.contains(offset), !values.has(offset) {
                values.set(offset, SolarPositionAlgorithm.position(earth: earth, nutation: nutation))
            }
        }
        return values
    }
}

/// What ``NodeBlocks`` keeps at a node: a value, and a stand-in for a block's nodes not computed yet.
protocol NodeValue: Sendable {
    /// Stands in a block's array for a node not computed yet; never handed out as a value.
    static var unset: Self { get }
}

/// One block of ``NodeBlocks``: a value for each of its nodes and which of them are computed.
///
/// The values are an array of the value type itself, with ``NodeValue/unset`` at the nodes not
/// computed, and a bit for each node computed: an array of optionals made the Swift runtime build
/// the metadata of `Optional<Value>`, of its array and of that array's storage class in the first
/// request of every process (a class's metadata is the costly kind), for each of the two caches.
struct NodeBlock<Value: NodeValue>: Sendable {
    /// The values by offset in the block; ``NodeValue/unset`` where ``computed`` has no bit.
    private(set) var values: [Value]
    /// Bit k is set when the value at offset k is computed.
    private(set) var computed: UInt64 = 0

    /// A block with no value computed.
    init() {
        values = Array(repeating: .unset, count: NodeBlocks<Value>.blockSize)
    }

    /// Whether every value at `offsets` is computed.
    func has(_ offsets: ClosedRange<Int>) -> Bool {
        Self.mask(offsets) & ~computed == 0
    }

    /// Whether the value at `offset` is computed.
    func has(_ offset: Int) -> Bool {
        computed & 1 << UInt64(offset) != 0
    }

    /// Keeps `value` as the value at `offset`.
    mutating func set(_ offset: Int, _ value: Value) {
        values[offset] = value
        computed |= 1 << UInt64(offset)
    }

    /// Takes the values `other` has computed and this block has not.
    mutating func merge(_ other: NodeBlock) {
        var missing = other.computed & ~computed
        while missing != 0 {
            let offset = missing.trailingZeroBitCount
            values[offset] = other.values[offset]
            missing &= missing - 1
        }
        computed |= other.computed
    }

    /// The bits of `offsets`.
    private static func mask(_ offsets: ClosedRange<Int>) -> UInt64 {
        let count = offsets.count
        let ones: UInt64 = count >= 64 ? ~0 : (1 << UInt64(count)) - 1
        return ones << UInt64(offsets.lowerBound)
    }
}

/// Values at the ephemeris nodes (or the intervals starting at them), kept for the whole process in
/// fixed blocks of ``blockSize`` nodes.
///
/// A value depends on its node alone, so it is the same whichever request computed it first, and every
/// answer is reproducible. A block is filled as far as it is asked: a request for a few days computes
/// its own nodes only. At most `capacity` blocks are kept; beyond that the cache starts again.
struct NodeBlocks<Value: NodeValue>: ~Copyable, Sendable {
    /// Nodes per block (128 days): one bit each in a ``NodeBlock``'s `UInt64`.
    static var blockSize: Int { 64 }

    private let capacity: Int
    /// The blocks a request has needed so far.
    private let blocks = ReadMostly<[Int: NodeBlock<Value>]>([:])

    /// An empty cache that keeps at most `capacity` blocks.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The values at `nodes`, in order. `compute(block, wanted, known)` gives a block with at least
    /// the offsets `wanted` computed, from what it has already (`known`).
    func values(
        _ nodes: ClosedRange<Int>,
        compute: (_ block: Int, _ wanted: ClosedRange<Int>, _ known: NodeBlock<Value>) -> NodeBlock<Value>
    ) -> [Value] {
        let blockSize = Self.blockSize
        let firstBlock = block(of: nodes.lowerBound)
        let lastBlock = block(of: nodes.upperBound)
        var result: [Value] = []
        result.reserveCapacity(nodes.count)
        for index in firstBlock...lastBlock {
            let first = index * blockSize
            let wanted = (max(nodes.lowerBound, first) - first)...(min(nodes.upperBound, first + blockSize - 1) - first)
            var block = blocks.read { $0[index] } ?? NodeBlock()
            if !block.has(wanted) {
                block = store(index, compute(index, wanted, block))
            }
            // Every wanted value was computed above; a hole would be a bug, not a value.
            precondition(block.has(wanted), "NodeBlocks left a node of \(wanted) unset")
            result.append(contentsOf: block.values[wanted])
        }
        return result
    }

    private func block(of node: Int) -> Int {
        let blockSize = Self.blockSize
        return node >= 0 ? node / blockSize : -((-node + blockSize - 1) / blockSize)
    }

    /// Keeps a block's values, with any another thread computed meanwhile (the same values), and
    /// returns what the cache now holds of it.
    private func store(_ index: Int, _ block: NodeBlock<Value>) -> NodeBlock<Value> {
        blocks.write { blocks in
            if blocks.count >= capacity { blocks.removeAll(keepingCapacity: true) }
            var merged = block
            if let other = blocks[index] { merged.merge(other) }
            blocks[index] = merged
            return merged
        }
    }
}
