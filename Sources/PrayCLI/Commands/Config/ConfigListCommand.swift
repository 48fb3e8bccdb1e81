import PrayCore

/// `praykit config list`.
enum ConfigListCommand: Command {
    static let name = "list"
    static let abstract = "List every key with its stored value."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let preferences = try context.preferences()
        if arguments[format] == .json {
            let members = Preferences.Key.allCases.compactMap { key in
                preferences[key].map { (key.rawValue, JSON.string($0)) }
            }
            return try context.output.write(JSON.object(members).rendered() + "\n")
        }
        let rows = [["Key", "Value"]] + Preferences.Key.allCases.map { [$0.rawValue, preferences[$0] ?? "-"] }
        try context.output.write(Table.render(rows))
    }
}
