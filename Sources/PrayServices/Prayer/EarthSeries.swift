import Foundation

/// The Earth's heliocentric longitude, latitude and radius series of NREL SPA (§3.2, Table A4.2) at
/// one instant, able to step to the same instant of the next day without evaluating a cosine.
///
/// Every term is A·cos(B + C·τ), τ in Julian millennia of TT. One day later each argument grows by
/// the constant C/365250, so the terms advance by rotation (``PeriodicSeries``). A fresh evaluation
/// every ``refreshInterval`` days keeps rounding drift far below the algorithm's own precision.
struct EarthSeries {
    /// τ: Julian ephemeris millennia from J2000.0.
    private(set) var millennia: Double
    private var terms: PeriodicSeries
    private var stepsSinceRefresh = 0

    /// Steps taken before the terms are evaluated afresh.
    static let refreshInterval = 512
    /// τ advances by one day.
    static let dayInMillennia = 1.0 / 365_250

    /// Evaluates every term at τ = `millennia`.
    init(millennia: Double) {
        let table = Self.table
        self.millennia = millennia
        terms = PeriodicSeries(
            arguments: table.phase.indices.map { table.phase[$0] + table.frequency[$0] * millennia },
            steps: table.frequency.map { $0 * Self.dayInMillennia }
        )
    }

    /// Moves every term one day (of TT) later.
    mutating func advanceOneDay() {
        stepsSinceRefresh += 1
        guard stepsSinceRefresh < Self.refreshInterval else {
            self = EarthSeries(millennia: millennia + Self.dayInMillennia)
            return
        }
        millennia += Self.dayInMillennia
        terms.advance()
    }

    /// Heliocentric longitude L and latitude B in radians and radius R in AU (§3.2, eq. 9–12).
    func heliocentric() -> (longitude: Double, latitude: Double, radius: Double) {
        let table = Self.table
        return terms.cosines.withUnsafeBufferPointer { cosines in
            table.amplitude.withUnsafeBufferPointer { amplitude in
                // Each quantity is Σ_p τ^p · Σ_i A_i cos(…) over its series L0…L5, B0…B1 or R0…R4.
                func series(_ groups: ArraySlice<Range<Int>>) -> Double {
                    var value = 0.0
                    for range in groups.reversed() {
                        var sum = 0.0
                        for i in range { sum += amplitude[i] * cosines[i] }
                        value = value * millennia + sum
                    }
                    return value / 1e8
                }
                return (
                    series(table.groups[table.longitude]), series(table.groups[table.latitude]),
                    series(table.groups[table.radius])
                )
            }
        }
    }

    /// The three series flattened into parallel arrays.
    private struct Table {
        var amplitude: [Double] = []
        var phase: [Double] = []
        var frequency: [Double] = []
        /// The index range of each series L0…L5, B0…B1, R0…R4, in that order.
        var groups: [Range<Int>] = []
        var longitude = 0..<0
        var latitude = 0..<0
        var radius = 0..<0
    }

    private static let table: Table = {
        var table = Table()
        func append(_ series: [[(amplitude: Double, phase: Double, frequency: Double)]]) -> Range<Int> {
            let first = table.groups.count
            for group in series {
                let start = table.amplitude.count
                for term in group {
                    table.amplitude.append(term.amplitude)
                    table.phase.append(term.phase)
                    table.frequency.append(term.frequency)
                }
                table.groups.append(start..<table.amplitude.count)
            }
            return first..<table.groups.count
        }
        table.longitude = append(SolarPositionAlgorithm.earthLongitudeTerms)
        table.latitude = append(SolarPositionAlgorithm.earthLatitudeTerms)
        table.radius = append(SolarPositionAlgorithm.earthRadiusTerms)
        return table
    }()
}
