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

/// `praykit places search <query>`.
struct PlacesSearchCommand: Command {
    static let name = "search"
    static let abstract = "Find cities by name: 'Makkah', 'Köln', 'مكة', 'Birmingham, AL', 'London, Canada'."
    static let arguments = [Positional(name: "query", help: "A city, optionally ', region' and/or ', country'.")]
    static let options: [any OptionDefinition] = [PlacesCommand.limit, PlacesCommand.format]

    let query: String
    let limit: Int
    let format: OutputFormat

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        query = arguments.positionals[0]
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw context.usage("<query> is empty") }
        limit = try PlacesCommand.limit(arguments, context: context)
        format = try arguments.value(PlacesCommand.format) ?? .table
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let result: PlaceAPI.SearchResult
        do {
            result = try context.dependency.placeService().search(query, limit: limit)
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
        if format == .json {
            return try context.output.write(
                JSON.object([
                    ("query", .string(query)), ("ambiguous", .bool(result.isAmbiguous)),
                    ("places", .array(result.places.map { PlacesCommand.json($0) })),
                ]).rendered() + "\n")
        }
        guard !result.matches.isEmpty else { return try context.output.write("No city matches '\(query)'.\n") }
        if result.isAmbiguous {
            try context.output.write("'\(query)' could be any of these; add the region or country to choose:\n\n")
        }
        try context.output.write(PlacesCommand.table(result.places))
    }
}

/// `praykit places zone --lat --lon`.
struct PlacesZoneCommand: Command {
    static let name = "zone"
    static let abstract = "Print the time zone at a point, and the other zones claimed there."
    static let options: [any OptionDefinition] = [PlaceOptions.latitude, PlaceOptions.longitude, PlacesCommand.format]

    let coordinates: Coordinates
    let format: OutputFormat

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        coordinates = try PlacesCommand.coordinates(arguments, context: context)
        format = try arguments.value(PlacesCommand.format) ?? .table
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let lookup: TimeZoneLookup
        do {
            lookup = try context.dependency.timeZoneService().timeZone(at: coordinates)
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
        if format == .json {
            return try context.output.write(
                JSON.object([
                    ("latitude", .number(coordinates.latitude)), ("longitude", .number(coordinates.longitude)),
                    ("timeZone", .string(lookup.identifier)),
                    ("alternatives", .array(lookup.alternatives.map { .string($0) })),
                    ("source", .string(lookup.source.rawValue)),
                ]).rendered() + "\n")
        }
        var text = "\(lookup.identifier)"
        if lookup.source == .ocean { text += " (open sea: the nautical zone)" }
        if !lookup.alternatives.isEmpty {
            text += "\nAlso claimed here: \(lookup.alternatives.joined(separator: ", ")) (choose with --tz)"
        }
        try context.output.write(text + "\n")
    }
}

/// `praykit places near --lat --lon`.
struct PlacesNearCommand: Command {
    static let name = "near"
    static let abstract = "List the cities nearest to a point."
    static let options: [any OptionDefinition] = [
        PlaceOptions.latitude, PlaceOptions.longitude, PlacesCommand.limit, PlacesCommand.format,
    ]

    let coordinates: Coordinates
    let limit: Int
    let format: OutputFormat

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        coordinates = try PlacesCommand.coordinates(arguments, context: context)
        limit = arguments.isGiven(PlacesCommand.limit) ? try PlacesCommand.limit(arguments, context: context) : 5
        format = try arguments.value(PlacesCommand.format) ?? .table
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let nearby: [PlaceAPI.Nearby]
        do {
            nearby = try context.dependency.placeService().nearest(to: coordinates, limit: limit)
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
        if format == .json {
            let places = nearby.map {
                PlacesCommand.json($0.place, extra: [("distanceKilometers", .number($0.distanceKilometers))])
            }
            return try context.output.write(
                JSON.object([
                    ("latitude", .number(coordinates.latitude)), ("longitude", .number(coordinates.longitude)),
                    ("places", .array(places)),
                ]).rendered() + "\n")
        }
        let distances = Dictionary(nearby.map { ($0.place.geonameID, $0.distanceKilometers) }) { first, _ in first }
        try context.output.write(
            PlacesCommand.table(nearby.map(\.place), extra: ["Distance"]) { place in
                [String(format: "%.1f km", distances[place.geonameID] ?? 0)]
            })
    }
}
