import Foundation
import PrayCore

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
