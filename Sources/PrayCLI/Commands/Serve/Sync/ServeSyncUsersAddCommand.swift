import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync users add NAME`: a new user and their first pairing code.
enum ServeSyncUsersAddCommand: Command {
    static let name = "add"
    static let abstract = "Add a sync user and print their first pairing code and login line."
    static let discussion = """
        NAME is 1 to 64 letters, digits, '.', '_' or '-', and unique. The code is shown once (the store
        keeps only its hash) and works once, for 15 minutes: run the printed 'praykit sync login' line on
        the person's device (without --code it asks for the code, which then stays out of the process
        list). Their other devices need codes of their own: 'praykit serve sync pair NAME'.
        """
    static let examples = ["praykit serve sync users add amina --server https://pray.example.org"]
    static let user = Argument<String>("name", help: "The new user's name.")
    static let arguments: [any ArgumentDefinition] = [user]
    static let options: [any OptionDefinition] = ServeSyncCommand.storeOptions + [ServeSyncCommand.server]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let store = try ServeSyncCommand.store(arguments, context: context)
        let code: SyncPairingCode
        do {
            code = try ServeSyncCommand.run { try store.addUser(named: arguments[user], now: context.now) }
        } catch let error as SyncServerError where error.code == .userExists {
            // Adding a user again is most often a person's next device: that is 'pair'.
            throw CLIError.runtime(
                "\(error.message); to pair another of their devices, make a code with: " + pairLine(arguments))
        }
        try context.output.write(
            "Added \(code.user).\n"
                + ServeSyncCommand.pairingLines(code, server: arguments[ServeSyncCommand.server], now: context.now))
    }

    /// `praykit serve sync pair NAME` with the store and server options given here.
    private static func pairLine(_ arguments: ParsedArguments) -> String {
        var words = ["praykit", "serve", "sync", "pair", arguments[user]]
        if let location = arguments[ServeSyncCommand.store] { words += ["--sync-store", location.description] }
        if let file = arguments[ServeSyncCommand.storeFile] { words += ["--sync-store-file", file] }
        if arguments.isGiven(ServeSyncCommand.server) {
            words += ["--server", arguments[ServeSyncCommand.server].absoluteString]
        }
        // A path with a space is quoted for the shell it is pasted into.
        return words.map { word in
            guard word.contains(where: { " '\"$;&|<>()*?`\\".contains($0) }) else { return word }
            return "'" + word.replacing("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
