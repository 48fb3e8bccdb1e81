import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync devices revoke ID`: lock a device out.
enum ServeSyncDevicesRevokeCommand: Command {
    static let name = "revoke"
    static let abstract = "Revoke a device: its token is refused from now on."
    static let discussion = """
        The device's next sync gets 401 and stops, keeping its data and its unsent changes; it can log in
        again with a new code ('praykit serve sync pair NAME'). Revoking a device twice changes nothing.
        The IDs are in 'praykit serve sync devices list'.
        """
    static let examples = ["praykit serve sync devices revoke d_3f9c2a…"]
    static let device = Argument<String>("id", help: "The device's ID (d_…).")
    static let arguments: [any ArgumentDefinition] = [device]
    static let options: [any OptionDefinition] = ServeSyncCommand.storeOptions

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let store = try ServeSyncCommand.store(arguments, context: context)
        try ServeSyncCommand.run { try store.revokeDevice(arguments[device], now: context.now) }
        try context.output.write("Revoked \(arguments[device]); its token is refused from now on.\n")
    }
}
