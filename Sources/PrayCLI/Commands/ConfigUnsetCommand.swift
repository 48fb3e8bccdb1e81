import PrayCore

/// `praykit config unset <key>`.
enum ConfigUnsetCommand: Command {
    static let name = "unset"
    static let abstract = "Remove a stored value, and say what was removed."
    static let arguments: [any ArgumentDefinition] = [ConfigCommand.key]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let key = arguments[ConfigCommand.key]
        guard let before = try context.preferences()[key] else {
            return try context.output.write("\(key) was not set; nothing changed\n")
        }
        try context.dependency.preferences().update { $0.unset(key) }
        try context.output.write("Removed \(key) (was \(before))\n")
    }
}
