import Foundation
import PrayCore

extension MagneticModel {
    /// WMM2025's name, epoch and years, without its coefficients.
    public static let mockWMM2025 = MagneticModel(
        name: "WMM2025", epoch: 2025, validity: 2025...2030, releaseDate: "11/13/2024")
}

extension MagneticField {
    /// A field with the given declination and horizontal intensity (and a downward component of
    /// `down`), as a model would give it at `coordinates` in `year`.
    /// - Parameters:
    ///   - declination: Degrees east of true north.
    ///   - horizontalIntensity: H in nanotesla: below 6000 a caution zone, below 2000 a blackout zone.
    ///   - down: Z in nanotesla.
    ///   - coordinates: The place.
    ///   - year: The time.
    ///   - model: The model named.
    public static func mock(
        declination: Double, horizontalIntensity: Double = 20_000, down: Double = 40_000,
        at coordinates: Coordinates = .mockMakkah, year: DecimalYear = DecimalYear(2026.5),
        model: MagneticModel = .mockWMM2025
    ) -> MagneticField {
        let radians = declination * .pi / 180
        return MagneticField(
            model: model, coordinates: coordinates, heightMeters: 0, year: year,
            north: horizontalIntensity * cos(radians), east: horizontalIntensity * sin(radians), down: down)
    }
}
