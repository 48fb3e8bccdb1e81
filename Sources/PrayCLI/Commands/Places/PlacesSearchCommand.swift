import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit places search <query>`.
enum PlacesSearchCommand: Command {
    static let name = "search"
    static let abstract = "Find cities by name: 'Makkah', 'Köln', 'مكة', 'Birmingham, AL', 'London, Canada'."
    static let discussion = """
        A country's name ('Egypt', 'مصر') lists its capital and largest cities, a region's ('Texas') its
        largest cities. The Match column says how each place matched when not by its own name: an
        alternate name, a prefix, a spelling correction, or as a city of the country or region named.
        """
    static let query = Argument<String>("query", help: "A city, optionally ', region' and/or ', country'.")
    static let arguments: [any ArgumentDefinition] = [query]
    static let options: [any OptionDefinition] = [PlacesCommand.limit, PlacesCommand.format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let query = arguments[query]
        guard !query.trimmingWhitespace().isEmpty else { throw CLIError.usage("<query> is empty") }
        let result = try context.dependency.placeService().search(query, limit: arguments[PlacesCommand.limit])
        if arguments[PlacesCommand.format] == .json {
            return try context.output.write(
                JSON.object([
                    ("query", .string(query)), ("ambiguous", .bool(result.isAmbiguous)),
                    ("match", .string(result.kind?.rawValue)),
                    ("places", .array(result.matches.map { PlacesCommand.json($0.place, extra: json($0)) })),
                    ("others", .array(result.others.map { PlacesCommand.json($0.place, extra: json($0)) })),
                ]).rendered() + "\n")
        }
        guard !result.matches.isEmpty else {
            let shown = query.count > 60 ? String(query.prefix(60)) + "…" : query
            return try context.output.write("No city matches '\(shown.escapingControlCharacters())'.\n")
        }
        if let intro = MatchText.introduction(result) { try context.output.write(intro + "\n\n") }
        let matches = Dictionary(result.matches.map { ($0.place.geonameID, $0) }, uniquingKeysWith: { a, _ in a })
        let column = result.matches.contains { $0.kind != .exact || $0.isCapital }
        try context.output.write(
            PlacesCommand.table(result.places, extra: column ? ["Match"] : []) { place in
                guard column, let match = matches[place.geonameID] else { return [] }
                return [MatchText.column(match, query: query)]
            })
    }

    /// The members a match adds to a place's JSON: how it matched.
    static func json(_ match: PlaceAPI.Match) -> [(String, JSON)] {
        [
            ("match", .string(match.kind.rawValue)), ("matchedName", .string(match.matchedName)),
            ("edits", .int(match.edits)), ("area", .string(match.area)), ("capital", .bool(match.isCapital)),
            ("displayName", .string(match.shortName)),
        ]
    }
}
