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
