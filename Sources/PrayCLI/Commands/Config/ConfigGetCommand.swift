import PrayCore

/// `praykit config get <key>`.
enum ConfigGetCommand: Command {
    static let name = "get"
    static let abstract = "Print the stored value of a key ('city': the saved place)."
    static let arguments: [any ArgumentDefinition] = [ConfigCommand.key]
    static var discussion: String { ConfigCommand.keys }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let saved = try context.preferences()
        switch arguments[ConfigCommand.key] {
        case .setting(let key):
            guard let value = saved[key] else { throw CLIError.runtime("\(key) is not set") }
            try context.output.write(value + "\n")
        case .city:
            guard saved[.latitude] != nil || saved[.longitude] != nil else {
                throw CLIError.runtime("no place is saved")
            }
            try context.output.write(
                ConfigKey.place.compactMap { key in saved[key].map { "\(key) = \($0)\n" } }.joined())
        }
    }
}
