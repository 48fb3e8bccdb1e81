import PrayCore

/// `praykit config`: the stored defaults of the commands (place, method, Hijri offset, clock).
struct ConfigCommand: Command {
    static let name = "config"
    static let abstract = "Show or change the stored defaults (place, method, Hijri offset, clock)."
    static var discussion: String {
        """
        KEYS:
        \(Preferences.Key.allCases.map { HelpText.row($0.rawValue, PreferenceOptions.valueDescription($0)) }.joined(separator: "\n"))

        A value set here is used when the matching option is not given on the command line (the keys are
        the 'praykit times' options without dashes; lat and lon name latitude and longitude). The database
        is $PRAYKIT_DATABASE, else $XDG_DATA_HOME/praykit/praykit.sqlite, else
        ~/.local/share/praykit/praykit.sqlite.
        """
    }
    static let examples = [
        "praykit config set latitude 21.4225", "praykit config set longitude -0.1278",
        "praykit config set method umm-al-qura", "praykit config unset method", "praykit config list",
    ]
    static let subcommands: [any Command.Type] = [
        ConfigListCommand.self, ConfigGetCommand.self, ConfigSetCommand.self, ConfigUnsetCommand.self,
    ]

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        throw context.usage("Missing subcommand of 'config': list, get, set or unset")
    }

    func run(_ context: CommandContext) async throws(CLIError) {}

    /// The key named `text` (`method`, `lat`).
    /// - Throws: ``CLIError`` (usage) with the closest key.
    static func key(_ text: String, context: CommandContext) throws(CLIError) -> Preferences.Key {
        guard let key = PreferenceOptions.key(named: text) else {
            let names = Preferences.Key.allCases.map(\.rawValue)
            throw context.usage(
                "Unknown key '\(text)'\(Suggestion.didYouMean(text, among: names)); use one of "
                    + names.joined(separator: ", "))
        }
        return key
    }

    /// Runs a store call, turning its errors into the tool's.
    static func store<T>(_ context: CommandContext, _ body: (any PreferencesStore) throws -> T) throws(CLIError) -> T {
        do { return try body(context.dependency.preferences()) } catch {
            throw CLIError(error, command: context.commandPath)
        }
    }
}
