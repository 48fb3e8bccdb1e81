import Foundation

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
        let table = Self.table
        self.millennia = millennia
        self.stepDays = stepDays
        terms = PeriodicSeries(
            arguments: table.phase.indices.map { table.phase[$0] + table.frequency[$0] * millennia },
            steps: table.frequency.map { $0 * stepDays / 365_250 }
        )
    }

    /// Moves every term one step later.
    mutating func advance() {
        millennia += stepDays / 365_250
        if !terms.advance() { self = EarthSeries(millennia: millennia, stepDays: stepDays) }
    }

    /// Heliocentric longitude L and latitude B in radians and radius R in AU (§3.2, eq. 9–12): for
    /// each quantity Σ_p τ^p · Σ_i A_i·cos(B_i + C_i·τ) over its series (L0…L5, B0…B1, R0…R4), ×1e-8.
    func heliocentric() -> (longitude: Double, latitude: Double, radius: Double) {
        let table = Self.table
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: table.starts.count - 1) { sums in
            terms.cosines.withUnsafeBufferPointer { cosines in
                table.amplitude.withUnsafeBufferPointer { amplitude in
                    for group in 0..<sums.count {
                        var sum = 0.0
                        for i in table.starts[group]..<table.starts[group + 1] { sum += amplitude[i] * cosines[i] }
                        sums[group] = sum
                    }
                }
            }
            func polynomial(_ groups: Range<Int>) -> Double {
                var value = 0.0
                for group in groups.reversed() { value = value * millennia + sums[group] }
                return value / 1e8
            }
            return (polynomial(table.longitude), polynomial(table.latitude), polynomial(table.radius))
        }
    }

    /// The three series flattened into parallel arrays.
    private struct Table {
        var amplitude: [Double] = []
        var phase: [Double] = []
        var frequency: [Double] = []
        /// Series g (L0…L5, B0…B1, R0…R4 in that order) is the terms starts[g]..<starts[g + 1].
        var starts: [Int] = [0]
        var longitude = 0..<0
        var latitude = 0..<0
        var radius = 0..<0
    }

    private static let table: Table = {
        var table = Table()
        typealias Terms = [(amplitude: Double, phase: Double, frequency: Double)]
        func append(_ terms: Terms, starts: [Int]) -> Range<Int> {
            let first = table.starts.count - 1
            let offset = table.amplitude.count
            table.amplitude += terms.map { $0.amplitude }
            table.phase += terms.map { $0.phase }
            table.frequency += terms.map { $0.frequency }
            table.starts += starts.dropFirst().map { offset + $0 }
            return first..<(table.starts.count - 1)
        }
        table.longitude = append(
            SolarPositionAlgorithm.earthLongitudeTerms, starts: SolarPositionAlgorithm.earthLongitudeStarts)
        table.latitude = append(
            SolarPositionAlgorithm.earthLatitudeTerms, starts: SolarPositionAlgorithm.earthLatitudeStarts)
        table.radius = append(SolarPositionAlgorithm.earthRadiusTerms, starts: SolarPositionAlgorithm.earthRadiusStarts)
        return table
    }()
}
