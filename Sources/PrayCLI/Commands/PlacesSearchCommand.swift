import Foundation
import PrayCore

/// `praykit places search <query>`.
enum PlacesSearchCommand: Command {
    static let name = "search"
    static let abstract = "Find cities by name: 'Makkah', 'Köln', 'مكة', 'Birmingham, AL', 'London, Canada'."
    static let query = Argument<String>("query", help: "A city, optionally ', region' and/or ', country'.")
    static let arguments: [any ArgumentDefinition] = [query]
    static let options: [any OptionDefinition] = [PlacesCommand.limit, PlacesCommand.format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let query = arguments[query]
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw CLIError.usage("<query> is empty") }
        let result = try context.dependency.placeService().search(query, limit: arguments[PlacesCommand.limit])
        if arguments[PlacesCommand.format] == .json {
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
