import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync devices list`: every device of every user.
enum ServeSyncDevicesListCommand: Command {
    static let name = "list"
    static let abstract = "List every paired device: ID, user, name, last seen, revoked."
    static let discussion = """
        Last seen is when the device's token was last accepted, to the minute. The ID is what 'praykit
        serve sync devices revoke' takes.
        """
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = ServeSyncCommand.storeOptions + [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let store = try ServeSyncCommand.store(arguments, context: context)
        let devices = try ServeSyncCommand.run { try store.devices() }
        if arguments[format] == .json {
            func time(_ date: Date?) -> JSON { date.map { .string(SyncAPI.timestamp($0)) } ?? .null }
            let items = devices.map { device in
                JSON.object([
                    ("id", .string(device.id)), ("user", .string(device.user)), ("name", .string(device.name)),
                    ("createdAt", time(device.createdAt)), ("lastSeen", time(device.lastSeen)),
                    ("revoked", .bool(device.isRevoked)), ("revokedAt", time(device.revokedAt)),
                ])
            }
            return try context.output.write(JSON.object([("devices", .array(items))]).rendered() + "\n")
        }
        guard !devices.isEmpty else {
            return try context.output.write(
                "No devices yet. A device pairs with: praykit sync login --server URL (it asks for the code)\n")
        }
        let rows = devices.map { device in
            [
                device.id, device.user, device.name, ServeSyncCommand.time(device.lastSeen),
                device.revokedAt.map { "yes, " + ServeSyncCommand.time($0) } ?? "no",
            ]
        }
        try context.output.write(Table.render([["ID", "USER", "NAME", "LAST SEEN", "REVOKED"]] + rows))
    }
}
