#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The Earth's main magnetic field at a place, height and time, as a field model gives it: the
/// vector's components in the local geodetic frame and the elements derived from them.
///
/// ```swift
/// let field = try magnetic.field(at: london, heightMeters: 0, on: try CivilDate(parsing: "2026-12-01"))
/// print(field.declination)            // 1.0…  (degrees east of true north)
/// print(field.declinationReliability) // .reliable
/// ```
///
/// A compass needle points along the horizontal part of the field, ``declination`` degrees east of
/// true north; so a true bearing `b` reads `b − declination` on a compass
/// (``magneticBearing(fromTrue:)``).
public struct MagneticField: Hashable, Sendable {
    /// The model that gave the field.
    public let model: MagneticModel
    /// The place (geodetic latitude and longitude on WGS84).
    public let coordinates: Coordinates
    /// The height above the WGS84 ellipsoid, metres.
    public let heightMeters: Double
    /// The time, a decimal year.
    public let year: DecimalYear
    /// X: the northward component, nanotesla.
    public let north: Double
    /// Y: the eastward component, nanotesla.
    public let east: Double
    /// Z: the downward component, nanotesla.
    public let down: Double

    /// H: the horizontal intensity, √(X² + Y²), nanotesla.
    public let horizontalIntensity: Double
    /// F: the total intensity, √(H² + Z²), nanotesla.
    public let totalIntensity: Double
    /// D: the declination (magnetic variation), the angle from true north to the horizontal field,
    /// degrees in (−180, 180], east positive: atan2(Y, X).
    public let declination: Double
    /// I: the inclination (dip), the angle from the horizontal plane down to the field, degrees in
    /// [−90, 90], down positive: atan2(Z, H).
    public let inclination: Double

    /// Creates a field from its components; the elements are derived from them.
    /// - Parameters:
    ///   - model: The model that gave the field.
    ///   - coordinates: The place.
    ///   - heightMeters: The height above the WGS84 ellipsoid, metres.
    ///   - year: The time.
    ///   - north: X, nanotesla.
    ///   - east: Y, nanotesla.
    ///   - down: Z, nanotesla.
    public init(
        model: MagneticModel, coordinates: Coordinates, heightMeters: Double, year: DecimalYear, north: Double,
        east: Double, down: Double
    ) {
        self.model = model
        self.coordinates = coordinates
        self.heightMeters = heightMeters
        self.year = year
        self.north = north
        self.east = east
        self.down = down
        horizontalIntensity = (north * north + east * east).squareRoot()
        totalIntensity = (north * north + east * east + down * down).squareRoot()
        declination = atan2(east, north) * 180 / .pi
        inclination = atan2(down, horizontalIntensity) * 180 / .pi
    }

    /// How far a compass can be trusted here, from the horizontal intensity.
    public var declinationReliability: DeclinationReliability {
        DeclinationReliability(horizontalIntensity: horizontalIntensity)
    }

    /// The bearing a compass shows for the true bearing `trueBearing`: `trueBearing − declination`,
    /// degrees in [0, 360).
    public func magneticBearing(fromTrue trueBearing: Double) -> Double {
        let bearing = (trueBearing - declination).truncatingRemainder(dividingBy: 360)
        let normalized = bearing < 0 ? bearing + 360 : bearing
        return normalized == 360 ? 0 : normalized
    }

    /// How far a compass can be trusted near the magnetic poles, where the horizontal field is weak
    /// and the declination changes fast over short distances and in magnetic storms. The limits are
    /// those of the World Magnetic Model's technical report (its "blackout zones" and "caution zones").
    public enum DeclinationReliability: String, Hashable, Sendable, CaseIterable {
        /// H is at least 6000 nT: the declination is as good as the model.
        case reliable
        /// 2000 nT ≤ H < 6000 nT: a compass may be unreliable; the declination may be off by degrees.
        case caution
        /// H < 2000 nT: a compass is unreliable and the declination cannot be trusted.
        case blackout

        /// Below this horizontal intensity, nanotesla, a place is in a blackout zone.
        public static let blackoutLimit = 2000.0
        /// Below this horizontal intensity, nanotesla, a place is in a caution zone.
        public static let cautionLimit = 6000.0

        /// The zone of a horizontal intensity in nanotesla.
        public init(horizontalIntensity: Double) {
            if horizontalIntensity < Self.blackoutLimit {
                self = .blackout
            } else if horizontalIntensity < Self.cautionLimit {
                self = .caution
            } else {
                self = .reliable
            }
        }
    }
}
