import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync pair NAME`: a new pairing code for an existing user.
enum ServeSyncPairCommand: Command {
    static let name = "pair"
    static let abstract = "Make a new pairing code for an existing user's next device."
    static let discussion = """
        Each device logs in with a code of its own; codes made before stay valid until they expire (15
        minutes) or are used. A user is added, with a first code, by 'praykit serve sync users add NAME'.
        """
    static let examples = ["praykit serve sync pair amina --server https://pray.example.org"]
    static let user = Argument<String>("name", help: "The user whose device is to be paired.")
    static let arguments: [any ArgumentDefinition] = [user]
    static let options: [any OptionDefinition] = ServeSyncCommand.storeOptions + [ServeSyncCommand.server]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let store = try ServeSyncCommand.store(arguments, context: context)
        let code = try ServeSyncCommand.run { try store.newPairingCode(forUser: arguments[user], now: context.now) }
        try context.output.write(
            ServeSyncCommand.pairingLines(code, server: arguments[ServeSyncCommand.server], now: context.now))
    }
}
