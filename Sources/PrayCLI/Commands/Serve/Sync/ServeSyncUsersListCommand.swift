import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync users list`: the users, their devices and rows.
enum ServeSyncUsersListCommand: Command {
    static let name = "list"
    static let abstract = "List the sync users, with their devices, rows and when they were added."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = ServeSyncCommand.storeOptions + [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let store = try ServeSyncCommand.store(arguments, context: context)
        let users = try ServeSyncCommand.run { try store.users() }
        if arguments[format] == .json {
            let items = users.map { user in
                JSON.object([
                    ("name", .string(user.name)), ("createdAt", .string(SyncAPI.timestamp(user.createdAt))),
                    ("devices", .int(user.deviceCount)), ("rows", .int(user.rowCount)),
                    ("version", .int(Int(user.version))),
                ])
            }
            return try context.output.write(JSON.object([("users", .array(items))]).rendered() + "\n")
        }
        guard !users.isEmpty else {
            return try context.output.write("No users yet. Add one with: praykit serve sync users add NAME\n")
        }
        let rows = users.map { user in
            [user.name, "\(user.deviceCount)", "\(user.rowCount)", ServeSyncCommand.time(user.createdAt)]
        }
        try context.output.write(Table.render([["USER", "DEVICES", "ROWS", "ADDED"]] + rows))
    }
}
