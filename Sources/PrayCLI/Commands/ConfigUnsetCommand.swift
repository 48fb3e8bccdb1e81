import PrayCore

/// `praykit config unset <key>`.
struct ConfigUnsetCommand: Command {
    static let name = "unset"
    static let abstract = "Remove a stored value, and say what was removed."
    static let arguments = [Positional(name: "key", help: "The key, such as method or latitude.")]

    let key: Preferences.Key

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        key = try ConfigCommand.key(arguments.positionals[0], context: context)
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let before = try context.preferences()[key]
        guard let before else { return try context.output.write("\(key) was not set; nothing changed\n") }
        try ConfigCommand.store(context) { store in _ = try store.update { $0.unset(key) } }
        try context.output.write("Removed \(key) (was \(before))\n")
    }
}
