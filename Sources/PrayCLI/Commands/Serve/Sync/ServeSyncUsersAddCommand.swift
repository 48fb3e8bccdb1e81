import Foundation
import PrayCore

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
        let code = try ServeSyncCommand.run { try store.addUser(named: arguments[user], now: context.now) }
        try context.output.write(
            "Added \(code.user).\n"
                + ServeSyncCommand.pairingLines(code, server: arguments[ServeSyncCommand.server], now: context.now))
    }
}
