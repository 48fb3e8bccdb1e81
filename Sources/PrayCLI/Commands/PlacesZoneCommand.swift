import Foundation
import PrayCore

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
