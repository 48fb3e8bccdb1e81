import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync spaces list`: the operator's list of the mosque spaces.
enum ServeSyncSpacesListCommand: Command {
    static let name = "list"
    static let abstract = "List the mosque spaces: ID, name, owners, members, followers, rows, published slug."
    static let discussion = """
        Members are people with an account (owners, editors and viewers); followers are the devices that
        follow with a code (screens). A space is made, shared and deleted by its owner ('praykit mosque').
        PUBLISHED is the slug its pages are served at without an account (/m/SLUG/display, 'praykit
        mosque publish'), or - when they are not.
        """
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = ServeSyncCommand.storeOptions + [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let store = try ServeSyncCommand.store(arguments, context: context)
        let spaces = try ServeSyncCommand.run { try store.spaces() }
        if arguments[format] == .json {
            let items = spaces.map { space in
                JSON.object([
                    ("id", .string(space.id)), ("name", .string(space.name)),
                    ("createdAt", .string(SyncAPI.timestamp(space.createdAt))),
                    ("owners", .array(space.owners.map { .string($0) })), ("members", .int(space.memberCount)),
                    ("followers", .int(space.followerCount)), ("rows", .int(space.rowCount)),
                    ("version", .int(Int(space.version))), ("slug", space.slug.map { .string($0) } ?? .null),
                ])
            }
            return try context.output.write(JSON.object([("spaces", .array(items))]).rendered() + "\n")
        }
        guard !spaces.isEmpty else {
            return try context.output.write(
                "No mosque spaces yet. An owner makes one with: praykit mosque create NAME\n")
        }
        let rows = spaces.map { space in
            [
                space.id, space.name.escapingControlCharacters(), space.owners.joined(separator: ", "),
                "\(space.memberCount)", "\(space.followerCount)", "\(space.rowCount)", space.slug ?? "-",
            ]
        }
        try context.output.write(
            Table.render([["ID", "NAME", "OWNERS", "MEMBERS", "FOLLOWERS", "ROWS", "PUBLISHED"]] + rows))
    }
}
