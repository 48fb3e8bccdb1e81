#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A city of the gazetteer: its name, country and region, position, population and time zone.
///
/// ```swift
/// let makkah = try places.search("Mecca").best!
/// print(makkah.name, makkah.countryCode, makkah.timeZoneIdentifier)   // Makkah SA Asia/Riyadh
/// ```
public struct Place: Hashable, Sendable, Codable, Identifiable, CustomStringConvertible {
    /// The GeoNames identifier (geonames.org/`geonameID`).
    public let geonameID: Int
    /// The city's name as GeoNames gives it, such as `Köln` or `São Paulo`.
    public let name: String
    /// The ISO 3166-1 alpha-2 country code, upper-case (`SA`).
    public let countryCode: String
    /// The country's English name (`Saudi Arabia`).
    public let countryName: String
    /// The first-level region (state, province…) by name, when known (`Makkah al Mukarramah`).
    public let region: String?
    /// The region's short code: the ISO 3166-2 subdivision code after the dash (`AL` for Alabama),
    /// when known.
    public let regionCode: String?
    /// The position; its elevation is ``elevation`` or 0 when that is unknown.
    public let coordinates: Coordinates
    /// Metres above sea level, when known.
    public let elevation: Double?
    /// The number of inhabitants GeoNames records.
    public let population: Int
    /// The IANA identifier of the city's own time zone, from GeoNames (`Asia/Riyadh`).
    public let timeZoneIdentifier: String

    /// Creates a place.
    /// - Parameters:
    ///   - geonameID: The GeoNames identifier.
    ///   - name: The city's name.
    ///   - countryCode: The ISO 3166-1 alpha-2 code.
    ///   - countryName: The country's name.
    ///   - region: The first-level region's name.
    ///   - regionCode: The region's ISO 3166-2 code after the dash.
    ///   - coordinates: The position.
    ///   - elevation: Metres above sea level, when known.
    ///   - population: The number of inhabitants.
    ///   - timeZoneIdentifier: The IANA zone.
    public init(
        geonameID: Int, name: String, countryCode: String, countryName: String, region: String?,
        regionCode: String?, coordinates: Coordinates, elevation: Double? = nil, population: Int,
        timeZoneIdentifier: String
    ) {
        self.geonameID = geonameID
        self.name = name
        self.countryCode = countryCode
        self.countryName = countryName
        self.region = region
        self.regionCode = regionCode
        self.coordinates = coordinates
        self.elevation = elevation
        self.population = population
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// The GeoNames identifier.
    public var id: Int { geonameID }

    /// The city's zone as a Foundation `TimeZone`, or `nil` when the system does not know it.
    public var timeZone: TimeZone? { NamedTimeZone.make(timeZoneIdentifier) }

    /// `Makkah, SA`: the name and country code, for headers.
    public var shortName: String { "\(name), \(countryCode)" }

    /// `Springfield, Illinois, United States`: name, region (when known and not the name itself) and
    /// country, to tell places of the same name apart.
    public var fullName: String {
        var parts = [name]
        if let region, region != name { parts.append(region) }
        parts.append(countryName)
        return parts.joined(separator: ", ")
    }

    /// ``fullName``.
    public var description: String { fullName }
}
