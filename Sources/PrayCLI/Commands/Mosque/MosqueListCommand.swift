import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit mosque list`: the mosques this device follows.
enum MosqueListCommand: Command {
    static let name = "list"
    static let abstract = "List the mosques this device follows, with its role and whether they are updated."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let spaces = try context.dependency.syncService().spaces()
        if arguments[format] == .json {
            let items = spaces.map { space in
                JSON.object([
                    ("name", .string(space.localName)), ("id", .string(space.space.id)),
                    ("serverName", .string(space.space.name)), ("role", .string(space.space.role.rawValue)),
                    ("updated", .bool(!space.isGone)),
                ])
            }
            return try context.output.write(JSON.array(items).rendered() + "\n")
        }
        guard !spaces.isEmpty else {
            return try context.output.write(
                "This device follows no mosque. Follow one with 'praykit mosque follow CODE', or make one with "
                    + "'praykit mosque create NAME'.\n")
        }
        let chosen = try context.preferences()[.mosque]
        let rows = spaces.map { space in
            [
                space.localName.escapingControlCharacters() + (space.localName == chosen ? " (chosen)" : ""),
                space.space.role.rawValue, space.isGone ? "no longer updated" : "updated",
            ]
        }
        try context.output.write(Table.render([["MOSQUE", "ROLE", "STATUS"]] + rows))
    }
}
