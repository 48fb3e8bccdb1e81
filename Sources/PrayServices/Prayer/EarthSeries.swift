#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The Earth's heliocentric longitude, latitude and radius series of NREL SPA (§3.2, Table A4.2) at
/// one instant, able to step a fixed number of days ahead without evaluating a cosine.
///
/// Every term is A·cos(B + C·τ), τ in Julian millennia of TT. A fixed step in time adds the constant
/// C·step to each argument, so the terms advance by rotation (``PeriodicSeries``). A fresh evaluation
/// every ``PeriodicSeries/refreshInterval`` steps keeps rounding drift far below the algorithm's own
/// precision.
struct EarthSeries {
    /// τ: Julian ephemeris millennia from J2000.0.
    private(set) var millennia: Double
    private let stepDays: Double
    private var terms: PeriodicSeries

    /// Evaluates every term at τ = `millennia`, ready to advance by `stepDays` days at a time.
    init(millennia: Double, stepDays: Double = 1) {
        self.millennia = millennia
        self.stepDays = stepDays
        var arguments: [Double] = []
        var steps: [Double] = []
        arguments.reserveCapacity(Self.termCount)
        steps.reserveCapacity(Self.termCount)
        // The terms in the order of `heliocentric()`: L0…L5, B0…B1, R0…R4, read straight from the
        // constant tables (a table rebuilt from them cost a tenth of a process's first day).
        func add(_ terms: [Term]) {
            terms.withUnsafeBufferPointer { terms in
                for term in terms {
                    arguments.append(term.phase + term.frequency * millennia)
                    steps.append(term.frequency * stepDays / 365_250)
                }
            }
        }
        add(SolarPositionAlgorithm.earthLongitudeTerms)
        add(SolarPositionAlgorithm.earthLatitudeTerms)
        add(SolarPositionAlgorithm.earthRadiusTerms)
        terms = PeriodicSeries(arguments: arguments, steps: steps)
    }

    /// Moves every term one step later.
    mutating func advance() {
        millennia += stepDays / 365_250
        if !terms.advance() { self = EarthSeries(millennia: millennia, stepDays: stepDays) }
    }

    /// Heliocentric longitude L and latitude B in radians and radius R in AU (§3.2, eq. 9–12): for
    /// each quantity Σ_p τ^p · Σ_i A_i·cos(B_i + C_i·τ) over its series (L0…L5, B0…B1, R0…R4), ×1e-8.
    func heliocentric() -> (longitude: Double, latitude: Double, radius: Double) {
        terms.cosines.withUnsafeBufferPointer { cosines in
            var offset = 0
            /// Σ_p τ^p · S_p of one quantity whose series p are the terms `starts[p]..<starts[p + 1]`.
            func quantity(_ terms: [Term], starts: [Int]) -> Double {
                let value = terms.withUnsafeBufferPointer { terms in
                    starts.withUnsafeBufferPointer { starts in
                        var value = 0.0
                        for group in (0..<(starts.count - 1)).reversed() {
                            var sum = 0.0
                            for i in starts[group]..<starts[group + 1] {
                                sum += terms[i].amplitude * cosines[offset + i]
                            }
                            value = value * millennia + sum
                        }
                        return value
                    }
                }
                offset += terms.count
                return value / 1e8
            }
            let longitude = quantity(
                SolarPositionAlgorithm.earthLongitudeTerms, starts: SolarPositionAlgorithm.earthLongitudeStarts)
            let latitude = quantity(
                SolarPositionAlgorithm.earthLatitudeTerms, starts: SolarPositionAlgorithm.earthLatitudeStarts)
            let radius = quantity(
                SolarPositionAlgorithm.earthRadiusTerms, starts: SolarPositionAlgorithm.earthRadiusStarts)
            return (longitude, latitude, radius)
        }
    }

    /// One term A·cos(B + C·τ) of Table A4.2.
    private typealias Term = (amplitude: Double, phase: Double, frequency: Double)

    /// The number of terms of the three series.
    private static var termCount: Int {
        SolarPositionAlgorithm.earthLongitudeTerms.count + SolarPositionAlgorithm.earthLatitudeTerms.count
            + SolarPositionAlgorithm.earthRadiusTerms.count
    }
}
