import PrayCore

/// `praykit config`: the stored defaults of the commands (place, method, Hijri offset, clock).
enum ConfigCommand: CommandGroup {
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
    static let subcommands: [any CommandNode.Type] = [
        ConfigListCommand.self, ConfigGetCommand.self, ConfigSetCommand.self, ConfigUnsetCommand.self,
    ]

    /// The `<key>` of `get` and `unset`.
    static let key = Argument<Preferences.Key>("key", help: "The key, such as method or latitude.")
}

extension Preferences.Key: ArgumentValue {
    /// The stored name, or the option's (`lat`, `tz`), in any case.
    init(argument: String) throws(ArgumentValueError) {
        guard let key = PreferenceOptions.key(named: argument) else {
            let names = Preferences.Key.allCases.map(\.rawValue)
            throw ArgumentValueError(
                reason: "must be one of " + names.joined(separator: ", "),
                suggestion: Suggestion.didYouMean(argument, among: names))
        }
        self = key
    }

    /// Open to the option names too; completion lists the stored names.
    static var allValueStrings: [String] { [] }
}
