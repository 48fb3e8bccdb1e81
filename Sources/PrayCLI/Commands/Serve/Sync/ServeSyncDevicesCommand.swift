import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync devices`: list the paired devices, revoke one.
enum ServeSyncDevicesCommand: CommandGroup {
    static let name = "devices"
    static let abstract = "List the paired devices, or revoke one."
    static let examples = ["praykit serve sync devices list", "praykit serve sync devices revoke d_3f9c2a…"]
    static let subcommands: [any CommandNode.Type] = [
        ServeSyncDevicesListCommand.self, ServeSyncDevicesRevokeCommand.self,
    ]
    static let defaultSubcommand: (any Command.Type)? = ServeSyncDevicesListCommand.self
}
