#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The time zone at a point on Earth, as a ``TimeZoneService`` finds it.
///
/// Most places have one zone. In territory that two administrations claim (Xinjiang, Abkhazia, the
/// West Bank, Crimea…) ``identifier`` is the main zone and ``alternatives`` the others, so a
/// program can say which it chose and offer the rest. At sea the zone is the nautical one,
/// `Etc/GMT±N` (the POSIX sign is inverted: 45° E is `Etc/GMT-3`, three hours ahead of UTC).
///
/// ```swift
/// let lookup = try service.timeZone(latitude: 43.8, longitude: 87.6)   // Ürümqi
/// print(lookup.identifier, lookup.alternatives)   // Asia/Shanghai ["Asia/Urumqi"]
/// ```
public struct TimeZoneLookup: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Where the zone came from.
    public enum Source: String, Hashable, Sendable, Codable, CustomStringConvertible {
        /// A land (or territorial water) zone of the timezone-boundary-builder polygons.
        case boundaries
        /// A nautical zone, `Etc/GMT±N`, of the open sea.
        case ocean

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The IANA identifier of the main zone, such as `Asia/Riyadh`.
    public let identifier: String
    /// The IANA identifiers of other zones claimed at the point, main first; usually empty.
    public let alternatives: [String]
    /// Where the zone came from.
    public let source: Source

    /// Creates a lookup result.
    /// - Parameters:
    ///   - identifier: The IANA identifier of the main zone.
    ///   - alternatives: Other zones claimed at the point.
    ///   - source: Where the zone came from.
    public init(identifier: String, alternatives: [String] = [], source: Source) {
        self.identifier = identifier
        self.alternatives = alternatives
        self.source = source
    }

    /// The main zone as a Foundation `TimeZone`, or `nil` when the system does not know the identifier.
    public var timeZone: TimeZone? { NamedTimeZone.make(identifier) }

    /// The nautical zone for a longitude: `Etc/GMT` within 7.5° of Greenwich, else `Etc/GMT∓N` for
    /// N = round(longitude / 15), with the POSIX inverted sign (45° E → `Etc/GMT-3`; 180° →
    /// `Etc/GMT-12`, −180° → `Etc/GMT+12`).
    /// - Parameter longitude: Degrees east, −180…180.
    public static func nautical(longitude: Double) -> TimeZoneLookup {
        let hours = Int((longitude / 15).rounded(.toNearestOrAwayFromZero))
        let identifier =
            switch hours {
            case 0: "Etc/GMT"
            case ..<0: "Etc/GMT+\(-hours)"
            default: "Etc/GMT-\(hours)"
            }
        return TimeZoneLookup(identifier: identifier, source: .ocean)
    }

    /// `Asia/Shanghai (also Asia/Urumqi)`.
    public var description: String {
        alternatives.isEmpty ? identifier : "\(identifier) (also \(alternatives.joined(separator: ", ")))"
    }
}
