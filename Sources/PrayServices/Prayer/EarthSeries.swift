import Foundation

/// The Earth's heliocentric longitude, latitude and radius series of NREL SPA (§3.2, Table A4.2) at
/// one instant, able to step to the same instant of the next day without evaluating a cosine.
///
/// Every term is A·cos(B + C·τ), τ in Julian millennia of TT. One day later each argument grows by
/// the constant C/365250, so the pair (cos, sin) of every term turns by a fixed rotation: two
/// multiplications and an addition each instead of a cosine. Prayer times for consecutive days need
/// the sun at consecutive 0h TT, so this is what makes a long timetable cheap. The rotation is exact
/// up to rounding (about 1e-16 per step); a fresh evaluation every ``refreshInterval`` steps keeps
/// the drift far below the algorithm's own precision.
struct EarthSeries {
    /// τ: Julian ephemeris millennia from J2000.0.
    private(set) var millennia: Double
    private var cosines: [Double]
    private var sines: [Double]
    private var stepsSinceRefresh = 0

    /// Steps taken before the terms are evaluated afresh.
    static let refreshInterval = 256
    /// τ advances by one day.
    static let dayInMillennia = 1.0 / 365_250

    /// Evaluates every term at τ = `millennia`.
    init(millennia: Double) {
        let table = Self.table
        self.millennia = millennia
        cosines = [Double](repeating: 0, count: table.amplitude.count)
        sines = cosines
        for i in table.amplitude.indices {
            let argument = table.phase[i] + table.frequency[i] * millennia
            cosines[i] = cos(argument)
            sines[i] = sin(argument)
        }
    }

    /// Moves every term one day (of TT) later.
    mutating func advanceOneDay() {
        stepsSinceRefresh += 1
        if stepsSinceRefresh >= Self.refreshInterval {
            self = EarthSeries(millennia: millennia + Self.dayInMillennia)
            return
        }
        millennia += Self.dayInMillennia
        let table = Self.table
        cosines.withUnsafeMutableBufferPointer { cosines in
            sines.withUnsafeMutableBufferPointer { sines in
                table.stepCosine.withUnsafeBufferPointer { stepCosine in
                    table.stepSine.withUnsafeBufferPointer { stepSine in
                        for i in 0..<cosines.count {
                            let c = cosines[i]
                            let s = sines[i]
                            cosines[i] = c * stepCosine[i] - s * stepSine[i]
                            sines[i] = s * stepCosine[i] + c * stepSine[i]
                        }
                    }
                }
            }
        }
    }

    /// Heliocentric longitude L and latitude B in radians and radius R in AU (§3.2, eq. 9–12).
    func heliocentric() -> (longitude: Double, latitude: Double, radius: Double) {
        let table = Self.table
        var sums = [Double](repeating: 0, count: table.groups.count)
        cosines.withUnsafeBufferPointer { cosines in
            table.amplitude.withUnsafeBufferPointer { amplitude in
                for (g, range) in table.groups.enumerated() {
                    var sum = 0.0
                    for i in range { sum += amplitude[i] * cosines[i] }
                    sums[g] = sum
                }
            }
        }
        func combine(_ first: Int, _ count: Int) -> Double {
            var value = 0.0
            for power in stride(from: count - 1, through: 0, by: -1) {
                value = value * millennia + sums[first + power]
            }
            return value / 1e8
        }
        let longitudeCount = SolarPositionAlgorithm.earthLongitudeTerms.count
        let latitudeCount = SolarPositionAlgorithm.earthLatitudeTerms.count
        let radiusCount = SolarPositionAlgorithm.earthRadiusTerms.count
        return (
            combine(0, longitudeCount),
            combine(longitudeCount, latitudeCount),
            combine(longitudeCount + latitudeCount, radiusCount)
        )
    }

    /// The three series flattened into parallel arrays, with the daily rotation of each term.
    private struct Table {
        var amplitude: [Double] = []
        var phase: [Double] = []
        var frequency: [Double] = []
        var stepCosine: [Double] = []
        var stepSine: [Double] = []
        /// The index range of each series L0…L5, B0…B1, R0…R4, in that order.
        var groups: [Range<Int>] = []
    }

    private static let table: Table = {
        var table = Table()
        let series =
            SolarPositionAlgorithm.earthLongitudeTerms + SolarPositionAlgorithm.earthLatitudeTerms
            + SolarPositionAlgorithm.earthRadiusTerms
        for group in series {
            let start = table.amplitude.count
            for term in group {
                table.amplitude.append(term.amplitude)
                table.phase.append(term.phase)
                table.frequency.append(term.frequency)
                table.stepCosine.append(cos(term.frequency * dayInMillennia))
                table.stepSine.append(sin(term.frequency * dayInMillennia))
            }
            table.groups.append(start..<table.amplitude.count)
        }
        return table
    }()
}
