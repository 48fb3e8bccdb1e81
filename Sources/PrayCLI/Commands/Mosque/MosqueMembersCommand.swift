import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit mosque members NAME`: who belongs to a mosque.
enum MosqueMembersCommand: Command {
    static let name = "members"
    static let abstract = "List a mosque's members and their roles (for its owners and editors)."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]
    static let options: [any OptionDefinition] = [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let members = try await context.dependency.syncService().members(of: arguments[MosqueCommand.mosque])
        if arguments[format] == .json {
            let items = members.map { member in
                JSON.object([
                    ("user", .string(member.user)), ("role", .string(member.role.rawValue)),
                    ("follower", .bool(member.follower)), ("addedAt", .string(member.addedAt)),
                ])
            }
            return try context.output.write(JSON.array(items).rendered() + "\n")
        }
        let rows = members.map { member in
            [
                member.user.escapingControlCharacters(), member.role.rawValue,
                member.follower ? "screen (follow code)" : "person", member.addedAt,
            ]
        }
        try context.output.write(Table.render([["MEMBER", "ROLE", "KIND", "SINCE"]] + rows))
    }
}

/// `praykit mosque remove-member NAME MEMBER`: an owner removes someone.
enum MosqueRemoveMemberCommand: Command {
    static let name = "remove-member"
    static let abstract = "Remove a member from a mosque you own; their last copy stays with them."
    static let member = Argument<String>("member", help: "The member's user name ('praykit mosque members').")
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque, member]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[MosqueCommand.mosque]
        try await context.dependency.syncService().removeMember(arguments[member], from: name)
        try context.output.write(
            "Removed \(arguments[member].escapingControlCharacters()) from \(name): they no longer receive its changes.\n"
        )
    }
}

/// `praykit mosque leave NAME [--drop]`: stop following a mosque.
enum MosqueLeaveCommand: Command {
    static let name = "leave"
    static let abstract = "Stop following a mosque; its timetable stays as your own unless --drop."
    static let drop = Flag("drop", help: "Remove the mosque's timetable, settings and notices from this device.")
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]
    static let options: [any OptionDefinition] = [drop]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[MosqueCommand.mosque]
        try await context.dependency.syncService().leave(name, keepCopy: !arguments[drop])
        var message =
            arguments[drop]
            ? "Left \(name); its timetable is removed from this device.\n"
            : "Left \(name); its timetable stays here as your own mosque.\n"
        if arguments[drop], try context.preferences()[.mosque] == name {
            try context.dependency.preferences().update { $0.unset(.mosque) }
            message += "It was the chosen mosque: calculated times apply again.\n"
        }
        try context.output.write(message)
    }
}

/// `praykit mosque delete NAME`: an owner deletes the space.
enum MosqueDeleteCommand: Command {
    static let name = "delete"
    static let abstract = "Delete a mosque you own on the server; every member keeps their last copy."
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[MosqueCommand.mosque]
        try await context.dependency.syncService().deleteMosque(name)
        try context.output.write(
            "Deleted the mosque \(name) on the server; its members keep their last copy, no longer updated. "
                + "Your copy stays here as your own mosque.\n")
    }
}
