import PrayCore

/// `praykit config list`.
struct ConfigListCommand: Command {
    static let name = "list"
    static let abstract = "List every key with its stored value."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [format]

    let format: OutputFormat

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        format = try arguments.value(Self.format) ?? .table
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let preferences = try context.preferences()
        if format == .json {
            let members = Preferences.Key.allCases.compactMap { key in
                preferences[key].map { (key.rawValue, JSON.string($0)) }
            }
            return try context.output.write(JSON.object(members).rendered() + "\n")
        }
        let rows = [["Key", "Value"]] + Preferences.Key.allCases.map { [$0.rawValue, preferences[$0] ?? "-"] }
        try context.output.write(Table.render(rows))
    }
}
