import Foundation
import PrayCore
import PrayServices

extension Benchmark {
    /// The cost of one World Magnetic Model evaluation (WMM2025, degree 12: the field, the elements
    /// and the checks of `MagneticFieldServiceWMM.field`) at 10,000 seeded random places, heights
    /// and dates within the model's years, best of `rounds` rounds, in nanoseconds; NaN if an
    /// evaluation failed.
    func measureMagneticField(rounds: Int = 5) -> Double {
        let service = MagneticFieldServiceWMM(log: .silent)
        var random = SplitMix64(seed: 2025)  // the same points on every run
        var points: [(Coordinates, Double, DecimalYear)] = []
        for _ in 0..<10_000 {
            guard
                let place = try? Coordinates(
                    latitude: Double.random(in: -90...90, using: &random),
                    longitude: Double.random(in: -180...180, using: &random))
            else { return .nan }
            points.append(
                (
                    place, Double.random(in: 0...10_000, using: &random),
                    DecimalYear(Double.random(in: 2025...2030, using: &random))
                ))
        }
        var best = Double.infinity
        var checksum = 0.0
        for _ in 0..<rounds {
            let started = DispatchTime.now().uptimeNanoseconds
            for (place, height, year) in points {
                guard let field = try? service.field(at: place, heightMeters: height, year: year) else { return .nan }
                checksum += field.declination
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - started) / Double(points.count))
        }
        return checksum.isFinite ? best : .nan
    }

    /// Runs ``measureMagneticField(rounds:)`` alone (`--magnetic`) and prints it.
    func runMagnetic() throws {
        let nanoseconds = measureMagneticField(rounds: rounds)
        guard nanoseconds.isFinite else { throw PrayError(.unavailable, message: "a magnetic field evaluation failed") }
        if json {
            print(#"{"magneticFieldNanoseconds":\#(Int(nanoseconds.rounded()))}"#)
        } else {
            print("World Magnetic Model (WMM2025, degree 12), best of \(rounds) rounds of 10,000 random points:")
            print("  one field evaluation: \(Int(nanoseconds.rounded())) ns")
        }
    }
}
