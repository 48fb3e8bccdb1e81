import PrayCore

/// `praykit config`: the stored defaults of the commands (place, method, Hijri offset, clock).
enum ConfigCommand: CommandGroup {
    static let name = "config"
    static let abstract = "Show or change the stored defaults (place, method, Hijri offset, clock)."
    static var discussion: String {
        """
        \(keys)

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
    /// `praykit config` alone lists the settings.
    static let defaultSubcommand: (any Command.Type)? = ConfigListCommand.self

    /// The keys and what their values look like, for help.
    static var keys: String {
        "KEYS:\n"
            + (Preferences.Key.allCases.map { HelpText.row($0.rawValue, PreferenceOptions.valueDescription($0)) }
            + [HelpText.row("city", "a city by name: sets latitude, longitude, tz and place-name at once")])
            .joined(separator: "\n")
    }

    /// The `<key>` of `get` and `unset`.
    static let key = Argument<ConfigKey>(
        "key", help: "The key, such as method or latitude, or city.", completion: .list(keyNames))

    /// The stored keys and `city`, offered by completion.
    static let keyNames = Preferences.Key.allCases.map(\.rawValue) + ["city"]
}

/// A key of `config get` and `config unset`: a stored setting, or `city`, the saved place as a whole
/// (latitude, longitude, elevation, tz and place-name), as `config set city` saves it.
enum ConfigKey: ArgumentValue, Equatable {
    case setting(Preferences.Key)
    case city

    /// The keys `city` stands for.
    static let place: [Preferences.Key] = [.latitude, .longitude, .elevation, .timeZone, .placeName]

    init(argument: String) throws(ArgumentValueError) {
        if argument.lowercased() == "city" {
            self = .city
            return
        }
        do {
            self = .setting(try Preferences.Key(argument: argument))
        } catch {
            throw ArgumentValueError(
                reason: error.reason + ", or city",
                suggestion: Suggestion.didYouMean(argument, among: ["city"]) + error.suggestion)
        }
    }

    var argumentDescription: String {
        switch self {
        case .setting(let key): key.rawValue
        case .city: "city"
        }
    }
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
