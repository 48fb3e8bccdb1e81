import PrayCore

/// The qibla along the WGS84 geodesic (Karney's method, as GeographicLib), with the spherical
/// great-circle bearing most apps show beside it.
///
/// ```swift
/// let qibla = QiblaServiceGeodesic(log: .silent).qibla(from: try Coordinates(latitude: 40.7128, longitude: -74.0060))
/// print(qibla.direction, qibla.sphericalDirection)   // 58.396…, 58.481…
/// ```
public struct QiblaServiceGeodesic: QiblaService {
    private let log: LogManager

    /// Within this distance of the Kaaba or its antipode, metres, the direction is reported as
    /// degenerate: every direction is (almost) as good.
    public static let degenerateDistance = 0.1

    /// The geodesic distance from the Kaaba to its antipode: half a meridian, metres.
    static let antipodalDistance = 20_003_931.4586
    /// Creates the service.
    /// - Parameter log: The logger.
    public init(log: LogManager) {
        self.log = log
    }
}

extension QiblaServiceGeodesic {
    /// The direction and distance from `coordinates` to the Kaaba.
    public func qibla(from coordinates: Coordinates) -> Qibla {
        let kaaba = Qibla.kaaba
        let geodesic = Geodesic.inverse(
            latitude1: coordinates.latitude, longitude1: coordinates.longitude,
            latitude2: kaaba.latitude, longitude2: kaaba.longitude
        )
        let spherical = Geodesic.sphericalBearing(
            latitude1: coordinates.latitude, longitude1: coordinates.longitude,
            latitude2: kaaba.latitude, longitude2: kaaba.longitude
        )
        var degeneracy: Qibla.Degeneracy?
        var direction = Self.normalized(geodesic.initialAzimuth)
        if geodesic.distance < Self.degenerateDistance {
            degeneracy = .atKaaba
            direction = 0
        } else if geodesic.distance > 19_900_000, Self.isOnAntipodalCutLocus(coordinates) {
            degeneracy = .antipode
        }
        if let degeneracy { log.debug("Qibla is degenerate", metadata: ["qibla.case": degeneracy.rawValue]) }
        // Where the great circle itself is undefined (the Kaaba, its exact antipode), name the same
        // direction as the geodesic rather than a bearing of rounding noise.
        let exactAntipode =
            degeneracy == .antipode && geodesic.distance > Self.antipodalDistance - Self.degenerateDistance
        return Qibla(
            coordinates: coordinates, direction: direction,
            sphericalDirection: degeneracy == .atKaaba || exactAntipode ? direction : spherical,
            distanceKilometers: geodesic.distance / 1000, degeneracy: degeneracy
        )
    }
}

// MARK: - Helpers

extension QiblaServiceGeodesic {
    /// An angle in degrees in [0, 360).
    static func normalized(_ degrees: Double) -> Double {
        let value = degrees - 360 * (degrees / 360).rounded(.down)
        return value >= 360 ? 0 : value
    }

    /// Whether `coordinates` lies on the cut locus of the Kaaba: the points with more than one
    /// shortest geodesic to it. On an oblate ellipsoid that is a segment of the parallel at the
    /// antipodal latitude −φ, centred on the antipodal meridian, reaching π·f radians (0.60°) of
    /// longitude either side to first order in the flattening f (Karney, "Geodesics on an ellipsoid of
    /// revolution", 2011, §7). Points within a metre (1e-5°) of it are reported as degenerate.
    static func isOnAntipodalCutLocus(_ coordinates: Coordinates) -> Bool {
        let flattening = 1 / 298.257_223_563
        let antipodeLongitude = Qibla.kaaba.longitude - 180
        var longitudeOffset = abs(coordinates.longitude - antipodeLongitude)
        if longitudeOffset > 180 { longitudeOffset = 360 - longitudeOffset }
        return abs(coordinates.latitude + Qibla.kaaba.latitude) < 1e-5 && longitudeOffset <= 180 * flattening + 1e-5
    }
}
