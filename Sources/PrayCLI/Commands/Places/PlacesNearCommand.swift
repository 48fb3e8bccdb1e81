import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit places near --lat --lon`.
enum PlacesNearCommand: Command {
    static let name = "near"
    static let abstract = "List the cities nearest to a point."
    static let limit = Option("limit", value: "n", help: "At most this many places.", default: 5, range: 1...100)
    static let options: [any OptionDefinition] = [
        PlacesCommand.latitude, PlacesCommand.longitude, limit, PlacesCommand.format,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let coordinates = try arguments.coordinates
        let nearby = try context.dependency.placeService().nearest(to: coordinates, limit: arguments[limit])
        if arguments[PlacesCommand.format] == .json {
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
                ["\((distances[place.geonameID] ?? 0).fixed(1)) km"]
            })
    }
}
