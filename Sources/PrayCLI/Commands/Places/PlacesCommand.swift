import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit places`: cities by name, the zone at a point, the cities near a point — offline.
enum PlacesCommand: CommandGroup {
    static let name = "places"
    static let abstract = "Find cities by name, the time zone at a point, or the cities near it (offline)."
    static let discussion = """
        Cities are the GeoNames cities of 15,000 people or more (CC BY 4.0), with alternate names in
        Latin and Arabic script; zones come from the timezone-boundary-builder polygons (ODbL). See
        'praykit --version --verbose' for the notices.
        """
    static let examples = [
        "praykit places search Medina", "praykit places search 'London, Canada' --format json",
        "praykit places zone --lat 43.8 --lon 87.6", "praykit places near --lat 21.4225 --lon 39.8262",
    ]
    static let subcommands: [any CommandNode.Type] = [
        PlacesSearchCommand.self, PlacesZoneCommand.self, PlacesNearCommand.self,
    ]

    static let format = Option<OutputFormat>.format([.table, .json])
    static let limit = Option("limit", value: "n", help: "At most this many places.", default: 10, range: 1...100)
    /// The `--lat` and `--lon` of a verb, both required.
    static let latitude = Option<Double>(
        "lat", value: "deg", help: "Latitude in degrees, north positive.", range: -90...90, unit: "degrees")
    static let longitude = Option<Double>(
        "lon", value: "deg", help: "Longitude in degrees, east positive.", range: -180...180, unit: "degrees")

    /// The JSON of a place (the contract of `places search`).
    static func json(_ place: Place, extra: [(String, JSON)] = []) -> JSON {
        .object(
            [
                ("name", .string(place.name)), ("country", .string(place.countryCode)),
                ("countryName", .string(place.countryName)), ("region", .string(place.region)),
                ("latitude", .number(place.coordinates.latitude)), ("longitude", .number(place.coordinates.longitude)),
                ("timeZone", .string(place.timeZoneIdentifier)), ("population", .int(place.population)),
                ("geonameId", .int(place.geonameID)),
            ] + extra)
    }

    /// A table of places.
    static func table(_ places: [Place], extra: [String] = [], values: (Place) -> [String] = { _ in [] }) -> String {
        let rows =
            [["Name", "Region", "Country", "Latitude", "Longitude", "Zone", "Population"] + extra]
            + places.map { place in
                [
                    place.name, place.region ?? "", place.countryName,
                    place.coordinates.latitude.fixed(4),
                    place.coordinates.longitude.fixed(4),
                    place.timeZoneIdentifier, "\(place.population)",
                ] + values(place)
            }
        return Table.render(rows)
    }
}

extension ParsedArguments {
    /// The required `--lat` and `--lon` of a places verb.
    var coordinates: Coordinates {
        get throws { try Coordinates(latitude: self[PlacesCommand.latitude], longitude: self[PlacesCommand.longitude]) }
    }
}
