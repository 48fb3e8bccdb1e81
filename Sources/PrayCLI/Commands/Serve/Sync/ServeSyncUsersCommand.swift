import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync users`: add a user, list the users.
enum ServeSyncUsersCommand: CommandGroup {
    static let name = "users"
    static let abstract = "Add a sync user (with a pairing code), or list the users."
    static let examples = ["praykit serve sync users add amina", "praykit serve sync users list"]
    static let subcommands: [any CommandNode.Type] = [ServeSyncUsersAddCommand.self, ServeSyncUsersListCommand.self]
    static let defaultSubcommand: (any Command.Type)? = ServeSyncUsersListCommand.self
}
