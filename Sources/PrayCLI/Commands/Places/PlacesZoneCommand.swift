import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit places zone --lat --lon`.
enum PlacesZoneCommand: Command {
    static let name = "zone"
    static let abstract = "Print the time zone at a point, and the other zones claimed there."
    static let options: [any OptionDefinition] = [
        PlacesCommand.latitude, PlacesCommand.longitude, PlacesCommand.format,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let coordinates = try arguments.coordinates
        let lookup = try context.dependency.timeZoneService().timeZone(at: coordinates)
        if arguments[PlacesCommand.format] == .json {
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
