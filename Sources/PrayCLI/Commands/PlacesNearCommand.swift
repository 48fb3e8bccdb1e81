import Foundation
import PrayCore

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
