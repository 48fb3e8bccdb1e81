/// The direction and distance from a place to the Kaaba.
///
/// ```swift
/// let qibla = service.qibla(from: try Coordinates(latitude: 40.7128, longitude: -74.0060))
/// print(qibla.direction, qibla.compass)   // 58.48…, .northeast
/// ```
public struct Qibla: Hashable, Sendable {
    /// The place the direction is taken from.
    public let coordinates: Coordinates
    /// The initial bearing of the shortest path on the WGS84 ellipsoid (the geodesic), degrees
    /// clockwise from true north in [0, 360).
    public let direction: Double
    /// The initial bearing of the great circle on a sphere — what most apps show — degrees clockwise
    /// from true north in [0, 360).
    public let sphericalDirection: Double
    /// The length of the geodesic, kilometres.
    public let distanceKilometers: Double
    /// Where the direction is not unique: at the Kaaba itself, or at its antipode.
    public let degeneracy: Degeneracy?

    /// Creates a qibla.
    public init(
        coordinates: Coordinates, direction: Double, sphericalDirection: Double, distanceKilometers: Double,
        degeneracy: Degeneracy? = nil
    ) {
        self.coordinates = coordinates
        self.direction = direction
        self.sphericalDirection = sphericalDirection
        self.distanceKilometers = distanceKilometers
        self.degeneracy = degeneracy
    }

    /// The 16-point compass name of ``direction``.
    public var compass: CompassPoint { CompassPoint(bearing: direction) }

    /// The Kaaba, Makkah: 21.4225241° N, 39.8261818° E.
    public static let kaaba: (latitude: Double, longitude: Double) = (21.4225241, 39.8261818)

    /// Within this distance of the Kaaba, kilometres, a direction means little: a person faces the
    /// Kaaba itself.
    public static let nearKaabaKilometers = 1.0
    /// Half a meridian of WGS84: the distance to the Kaaba's antipode, kilometres.
    public static let antipodeKilometers = 20_003.93
    /// Within this distance of the antipode, kilometres, the shortest paths' directions diverge: a
    /// short move changes the direction a lot, and every direction is nearly as short.
    public static let nearAntipodeKilometers = 500.0

    /// Whether the place is within ``nearKaabaKilometers`` of the Kaaba (but not at it).
    public var isNearKaaba: Bool { degeneracy != .atKaaba && distanceKilometers < Self.nearKaabaKilometers }

    /// Whether the place is within ``nearAntipodeKilometers`` of the Kaaba's antipode (but not at it).
    public var isNearAntipode: Bool {
        degeneracy != .antipode && Self.antipodeKilometers - distanceKilometers < Self.nearAntipodeKilometers
    }

    /// Places where every direction is as good as another.
    public enum Degeneracy: String, Hashable, Sendable, CustomStringConvertible {
        /// At the Kaaba (within 10 cm of its centre point): every direction faces it. ``direction`` is 0.
        case atKaaba = "at-kaaba"
        /// At the Kaaba's antipode or on the short stretch of its parallel beside it (within 0.6° of
        /// longitude) where two or more shortest paths lead to the Kaaba. ``direction`` is the one the
        /// geodesic solution picks; ``sphericalDirection`` still names a single great circle.
        case antipode = "antipode"

        /// A sentence for people.
        public var description: String {
            switch self {
            case .atKaaba: "at the Kaaba: every direction faces it"
            case .antipode: "at or beside the Kaaba's antipode: more than one direction is a shortest path"
            }
        }
    }
}

/// The 16 points of the compass.
public enum CompassPoint: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// North.
    case north = "N"
    /// North-northeast.
    case northNortheast = "NNE"
    /// Northeast.
    case northeast = "NE"
    /// East-northeast.
    case eastNortheast = "ENE"
    /// East.
    case east = "E"
    /// East-southeast.
    case eastSoutheast = "ESE"
    /// Southeast.
    case southeast = "SE"
    /// South-southeast.
    case southSoutheast = "SSE"
    /// South.
    case south = "S"
    /// South-southwest.
    case southSouthwest = "SSW"
    /// Southwest.
    case southwest = "SW"
    /// West-southwest.
    case westSouthwest = "WSW"
    /// West.
    case west = "W"
    /// West-northwest.
    case westNorthwest = "WNW"
    /// Northwest.
    case northwest = "NW"
    /// North-northwest.
    case northNorthwest = "NNW"

    /// The point whose 22.5° sector contains `bearing` (degrees clockwise from north; any value).
    public init(bearing: Double) {
        let normalized = bearing.isFinite ? bearing - 360 * (bearing / 360).rounded(.down) : 0
        let index = Int((normalized / 22.5).rounded()) % 16
        self = Self.allCases[index]
    }

    /// The abbreviation: `NE`.
    public var description: String { rawValue }
}
