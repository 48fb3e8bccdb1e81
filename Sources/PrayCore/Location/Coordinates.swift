#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A place on Earth: geodetic latitude and longitude on WGS84 in degrees, and elevation above sea
/// level in metres.
///
/// Values are checked when a value is made, so a `Coordinates` in hand is always usable:
///
/// ```swift
/// let makkah = try Coordinates(latitude: 21.4225, longitude: 39.8262)
/// let denver = try Coordinates(latitude: 39.7392, longitude: -104.9903, elevation: 1609)
/// ```
public struct Coordinates: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Latitude in degrees, north positive, −90…90.
    public let latitude: Double
    /// Longitude in degrees, east positive, −180…180.
    public let longitude: Double
    /// Elevation above sea level in metres, −1000…10000. It lowers the apparent horizon and so makes
    /// sunrise earlier and sunset later.
    public let elevation: Double

    /// The range of accepted latitudes in degrees.
    public static let latitudeRange: ClosedRange<Double> = -90...90
    /// The range of accepted longitudes in degrees.
    public static let longitudeRange: ClosedRange<Double> = -180...180
    /// The range of accepted elevations in metres: from below the Dead Sea shore to above Everest.
    public static let elevationRange: ClosedRange<Double> = -1000...10000

    /// How far below the horizon the sun's centre is at sunrise and sunset here, in degrees:
    /// 0.8333° (34′ of refraction and 16′ of semidiameter) plus the dip of the horizon,
    /// 0.0347°·√h for an elevation of h metres. Below sea level there is no dip: the horizon of a
    /// place in a depression is its surroundings, not a lower sea.
    public var sunriseDepression: Double {
        0.8333 + 0.0347 * max(0, elevation).squareRoot()
    }

    /// Creates coordinates after checking each value.
    /// - Parameters:
    ///   - latitude: Degrees north (negative south), −90…90.
    ///   - longitude: Degrees east (negative west), −180…180.
    ///   - elevation: Metres above sea level, −1000…10000; 0 when unknown.
    /// - Throws: ``ValidationError`` for a value that is out of range or not a finite number.
    public init(latitude: Double, longitude: Double, elevation: Double = 0) throws(ValidationError) {
        guard latitude.isFinite, Self.latitudeRange.contains(latitude) else {
            throw .outOfRange("latitude", latitude, Self.latitudeRange, unit: "degrees")
        }
        guard longitude.isFinite, Self.longitudeRange.contains(longitude) else {
            throw .outOfRange("longitude", longitude, Self.longitudeRange, unit: "degrees")
        }
        guard elevation.isFinite, Self.elevationRange.contains(elevation) else {
            throw .outOfRange("elevation", elevation, Self.elevationRange, unit: "metres")
        }
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
    }

    /// Coordinates of a place written in the source (a constant); a value out of range is a
    /// programming error.
    package init(constantLatitude latitude: Double, longitude: Double) {
        precondition(Self.latitudeRange.contains(latitude) && Self.longitudeRange.contains(longitude))
        self.latitude = latitude
        self.longitude = longitude
        elevation = 0
    }

    /// Decodes and checks coordinates, so a bad file cannot smuggle in latitude 91.
    /// - Throws: `DecodingError.dataCorrupted` naming the ``ValidationError``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try container.decode(Double.self, forKey: .latitude)
        let longitude = try container.decode(Double.self, forKey: .longitude)
        let elevation = try container.decodeIfPresent(Double.self, forKey: .elevation) ?? 0
        do {
            try self.init(latitude: latitude, longitude: longitude, elevation: elevation)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.message, underlyingError: error)
            )
        }
    }

    /// The mean radius of the Earth, kilometres (IUGG, 6371.0088 km): the sphere of
    /// ``kilometers(to:)``.
    public static let earthRadiusKilometers = 6371.0088

    /// The great-circle distance to `other` on a sphere of ``earthRadiusKilometers``, kilometres (the
    /// haversine formula): within 0.5 % of the distance on the ellipsoid, enough to say how near two
    /// places are.
    public func kilometers(to other: Coordinates) -> Double {
        Self.earthRadiusKilometers
            * Self.centralAngle(latitude, longitude, other.latitude, other.longitude)
    }

    /// The angle at the Earth's centre between two points given in degrees, radians (haversine).
    package static func centralAngle(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians
        let dLon = (lon2 - lon1) * radians
        let h =
            sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * asin(min(1, h.squareRoot()))
    }

    /// `21.4225, 39.8262` or, with an elevation, `39.7392, -104.9903, 1609 m`.
    public var description: String {
        let place = "\(latitude.formattedCompactly), \(longitude.formattedCompactly)"
        return elevation == 0 ? place : "\(place), \(elevation.formattedCompactly) m"
    }
}
