import PrayCore

/// `praykit config get <key>`.
enum ConfigGetCommand: Command {
    static let name = "get"
    static let abstract = "Print the stored value of a key."
    static let arguments: [any ArgumentDefinition] = [ConfigCommand.key]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let key = arguments[ConfigCommand.key]
        guard let value = try context.preferences()[key] else { throw CLIError.runtime("\(key) is not set") }
        try context.output.write(value + "\n")
    }
}
