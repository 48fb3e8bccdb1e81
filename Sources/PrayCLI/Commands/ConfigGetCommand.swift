import PrayCore

/// `praykit config get <key>`.
struct ConfigGetCommand: Command {
    static let name = "get"
    static let abstract = "Print the stored value of a key."
    static let arguments = [Positional(name: "key", help: "The key, such as method or latitude.")]

    let key: Preferences.Key

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        key = try ConfigCommand.key(arguments.positionals[0], context: context)
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        guard let value = try context.preferences()[key] else { throw .runtime("\(key) is not set") }
        try context.output.write(value + "\n")
    }
}
