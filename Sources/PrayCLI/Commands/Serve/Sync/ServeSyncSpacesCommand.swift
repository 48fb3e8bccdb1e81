import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync spaces`: the operator's view of the mosque spaces: the list, or one with its
/// members.
enum ServeSyncSpacesCommand: CommandGroup {
    static let name = "spaces"
    static let abstract = "List the mosque spaces, or show one with its members."
    static let examples = [
        "praykit serve sync spaces", "praykit serve sync spaces show s_5f0c2a9e4b7d1386",
        "praykit serve sync spaces show \"East London Mosque\" --format json",
    ]
    static let subcommands: [any CommandNode.Type] = [
        ServeSyncSpacesListCommand.self, ServeSyncSpacesShowCommand.self,
    ]
    static let defaultSubcommand: (any Command.Type)? = ServeSyncSpacesListCommand.self
}
