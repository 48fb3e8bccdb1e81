import Foundation
import PrayCore

/// `praykit places`: cities by name, the zone at a point, the cities near a point — offline.
struct PlacesCommand: Command {
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
    static let subcommands: [any Command.Type] = [
        PlacesSearchCommand.self, PlacesZoneCommand.self, PlacesNearCommand.self,
    ]

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        throw context.usage("Missing subcommand of 'places': search, zone or near")
    }

    func run(_ context: CommandContext) async throws(CLIError) {}

    static let format = Option<OutputFormat>.format([.table, .json])
    static let limit = Option<Int>("limit", value: "n", help: "At most this many places (1…100).", default: "10")

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
                    String(format: "%.4f", place.coordinates.latitude),
                    String(format: "%.4f", place.coordinates.longitude),
                    place.timeZoneIdentifier, "\(place.population)",
                ] + values(place)
            }
        return Table.render(rows)
    }

    /// The `--lat`/`--lon` of a verb, both required.
    static func coordinates(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> Coordinates {
        guard let latitude = try arguments.value(PlaceOptions.latitude) else {
            throw context.usage("Missing expected argument '--lat <deg>'")
        }
        guard let longitude = try arguments.value(PlaceOptions.longitude) else {
            throw context.usage("Missing expected argument '--lon <deg>'")
        }
        do {
            return try Coordinates(latitude: latitude, longitude: longitude)
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
    }

    /// Reads `--limit`.
    static func limit(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> Int {
        let limit = try arguments.value(Self.limit) ?? 10
        guard (1...100).contains(limit) else { throw context.usage("--limit must be 1 to 100, got \(limit)") }
        return limit
    }
}
