import Foundation
import PrayMocks
import Testing

@testable import PrayServices

/// The interpolated ephemeris against SPA evaluated afresh at the same instant.
@Suite struct EphemerisTests {
    @Test func interpolationMatchesDirectEvaluation() async throws {
        // Given, when and then, on a thread of its own (3,000 fresh SPA evaluations in a debug build)
        let (worstAlpha, worstDelta) = try await TestThread.run { Self.worstErrors() }
        print("ephemeris interpolation: worst α \(worstAlpha)″, δ \(worstDelta)″")
        #expect(worstAlpha < 0.05)
        #expect(worstDelta < 0.05)
    }

    @Test func aNodeIsTheSameWhicheverRequestComputedItFirst() {
        // Given: a block no other test reaches (node 300,000 is in the year 3642), asked for a few of
        // its nodes first, then the whole block and a span across its end.
        let first = 300_000 / SolarNodes.blockSize * SolarNodes.blockSize
        let few = SolarNodes.positions((first + 40)...(first + 42))
        // When
        let whole = SolarNodes.positions(first...(first + SolarNodes.blockSize + 3))
        // Then: the few are the whole block's, bit for bit, and every node is the block's first node
        // stepped on (the series stepped here the same way, with no cache).
        #expect(Array(whole[40...42]) == few)
        let spacing = SolarEphemeris.spacing
        let firstCentury = (Double(first) * spacing - 0.5) / 36525
        var earth = EarthSeries(millennia: firstCentury / 10, stepDays: spacing)
        var nutation = NutationSeries(julianEphemerisCentury: firstCentury, stepDays: spacing)
        for offset in 0..<SolarNodes.blockSize {
            if offset > 0 {
                earth.advance()
                nutation.advance()
            }
            #expect(whole[offset] == SolarPositionAlgorithm.position(earth: earth, nutation: nutation), "\(offset)")
        }
        #expect(whole.count == SolarNodes.blockSize + 4)
    }

    /// The worst right ascension and declination errors, arcseconds.
    static func worstErrors() -> (Double, Double) {
        // Given: 20 years of instants, a third of a day apart with an irrational offset.
        let start = -3000.0
        let ephemeris = SolarEphemeris(covering: start...(start + 7305))
        var worstAlpha = 0.0
        var worstDelta = 0.0
        var day = start + 0.5
        while day < start + 7300 {
            // When
            let interpolated = ephemeris.state(at: day)
            let deltaT = DeltaT.seconds(decimalYear: 2000 + (day + 0.5) / 365.2425) / 86400
            let exact = SolarPositionAlgorithm.position(julianEphemerisDay: SolarPositionAlgorithm.j2000 + day + deltaT)
            // Then
            let alphaError = abs(SolarDay.normalized(interpolated.rightAscension - exact.rightAscension)) * 3600
            worstAlpha = max(worstAlpha, alphaError)
            worstDelta = max(worstDelta, abs(interpolated.declination - exact.declination) * 3600)
            day += 2.3333 + 1e-4 * .pi
        }
        return (worstAlpha, worstDelta)
    }
}

/// A block of the sun's caches: which nodes it has, at its edges too, and two threads' blocks merged.
@Suite struct NodeBlockTests {
    /// A value that is its node's number.
    struct Number: NodeValue, Equatable {
        static let unset = Number(value: -1)
        var value: Int
    }

    @Test func aBlockHasExactlyTheNodesSetAndMergesWhatItLacks() {
        // Given: a block with its first and last nodes, another with the last and a middle one
        let size = NodeBlocks<Number>.blockSize
        var edges = NodeBlock<Number>()
        edges.set(0, Number(value: 0))
        edges.set(size - 1, Number(value: size - 1))
        var other = NodeBlock<Number>()
        other.set(size - 1, Number(value: size - 1))
        other.set(7, Number(value: 7))
        // Then: each has what was set, ranges at the block's edges and the whole block included
        #expect(edges.has(0) && edges.has(size - 1) && !edges.has(1) && !edges.has(7))
        #expect(edges.has(0...0) && edges.has((size - 1)...(size - 1)) && !edges.has(0...1))
        #expect(!NodeBlock<Number>().has(0...(size - 1)) && !edges.has(0...(size - 1)))
        // When: merged, the lacking node is taken and the rest stay
        edges.merge(other)
        // Then
        #expect(edges.has(7) && edges.values[7] == Number(value: 7) && edges.values[0] == Number(value: 0))
        #expect(edges.values[1] == .unset && edges.computed.nonzeroBitCount == 3)
        var whole = NodeBlock<Number>()
        for offset in 0..<size { whole.set(offset, Number(value: offset)) }
        #expect(whole.has(0...(size - 1)) && whole.values.map(\.value) == Array(0..<size))
    }
}
