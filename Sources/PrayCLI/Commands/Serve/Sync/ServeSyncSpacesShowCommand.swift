import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync spaces show ID|NAME`: one mosque space with its members, for the operator.
enum ServeSyncSpacesShowCommand: Command {
    static let name = "show"
    static let abstract = "Show a mosque space: its owners, members, followers, rows, version and slug."
    static let discussion = """
        SPACE is a space's ID (s_…, as 'praykit serve sync spaces' lists them) or its name, when one
        space alone has it. Members are people with an account and their roles; followers are the
        devices that follow with a code (screens), named f_…. Nothing secret is shown: no token, no code.
        """
    static let space = Argument<String>("space", help: "The space's ID (s_…) or its name.")
    static let format = Option<OutputFormat>.format([.table, .json])
    static let arguments: [any ArgumentDefinition] = [space]
    static let options: [any OptionDefinition] = ServeSyncCommand.storeOptions + [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let store = try ServeSyncCommand.store(arguments, context: context)
        let wanted = arguments[space]
        let spaces = try ServeSyncCommand.run { try store.spaces() }
        let byID = spaces.filter { $0.id == wanted }
        let matches = byID.isEmpty ? spaces.filter { $0.name == wanted } : byID
        guard let summary = matches.first else {
            throw CLIError.runtime(
                "no mosque space has the ID or name '\(wanted.escapingControlCharacters())' "
                    + "('praykit serve sync spaces' lists them)")
        }
        guard matches.count == 1 else {
            throw CLIError.runtime(
                "\(matches.count) mosque spaces are named '\(wanted.escapingControlCharacters())': give one of their "
                    + "IDs (\(matches.map(\.id).joined(separator: ", ")))")
        }
        let members = try ServeSyncCommand.run { try store.members(ofSpace: summary.id) } ?? []
        if arguments[format] == .json {
            let object = JSON.object([
                ("id", .string(summary.id)), ("name", .string(summary.name)),
                ("createdAt", .string(SyncAPI.timestamp(summary.createdAt))), ("rows", .int(summary.rowCount)),
                ("version", .int(Int(summary.version))), ("slug", summary.slug.map { .string($0) } ?? .null),
                (
                    "members",
                    .array(
                        members.map { member in
                            JSON.object([
                                ("user", .string(member.user)), ("role", .string(member.role.rawValue)),
                                ("follower", .bool(member.follower)), ("addedAt", .string(member.addedAt)),
                            ])
                        })
                ),
            ])
            return try context.output.write(object.rendered() + "\n")
        }
        var text = """
            \(summary.name.escapingControlCharacters()) (\(summary.id))
              Made: \(SyncAPI.timestamp(summary.createdAt))
              Rows: \(summary.rowCount), version \(summary.version)
              Published: \(summary.slug.map { "/m/\($0)/display" } ?? "no")

            """
        let rows = members.map { member in
            [
                member.user.escapingControlCharacters(), member.role.rawValue,
                member.follower ? "follower (a device with a code)" : "person", member.addedAt,
            ]
        }
        text += Table.render([["MEMBER", "ROLE", "KIND", "SINCE"]] + rows)
        try context.output.write(text)
    }
}
