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

/// `praykit config set <key> <value>`, and `config set city <name>`, which saves a city's place, zone
/// and name in one step.
struct ConfigSetCommand: Command {
    static let name = "set"
    static let abstract =
        "Store a value ('city <name>' stores a place, its zone and name); a bad value changes nothing."
    static let arguments = [
        Positional(name: "key", help: "The key, such as method or latitude, or city."),
        Positional(name: "value", help: "The value; negative numbers are values (-0.1278)."),
    ]
    static let examples = [
        "praykit config set longitude -0.1278", "praykit config set hijri-offset -1",
        "praykit config set city 'Springfield, Illinois'",
    ]

    private enum Change {
        case value(Preferences.Key, String)
        case city(String)
    }

    private let change: Change

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        let value = arguments.positionals[1]
        if arguments.positionals[0].lowercased() == "city" {
            change = .city(value)
            return
        }
        let key = try ConfigCommand.key(arguments.positionals[0], context: context)
        // Check before touching the database, so a bad value changes nothing.
        var check = Preferences()
        do { try check.set(value, for: key) } catch { throw context.usage(CLIError.optionMessage(error)) }
        change = .value(key, value)
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        switch change {
        case .city(let query):
            let result: PlaceAPI.SearchResult
            do {
                result = try context.dependency.placeService().search(query, limit: 5)
            } catch {
                throw CLIError(error, command: context.commandPath)
            }
            guard let place = result.best else {
                let names = result.places.map(\.fullName)
                throw context.usage(
                    names.isEmpty
                        ? "no city matches '\(query)'"
                        : "'\(query)' matches several places: \(names.joined(separator: "; ")); add the region or country"
                )
            }
            let saved = try ConfigCommand.store(context) { store in try store.update { try $0.setPlace(place) } }
            let lines = [Preferences.Key.latitude, .longitude, .timeZone, .placeName].map {
                "\($0) = \(saved[$0] ?? "")"
            }
            try context.output.write("Saved \(place.fullName)\n" + lines.joined(separator: "\n") + "\n")
        case .value(let key, let value):
            if key == .shafaq {
                let method = try context.preferences()[.method] ?? CalculationMethod.muslimWorldLeague.rawValue
                guard method == CalculationMethod.moonsightingCommittee.rawValue else {
                    throw context.usage(
                        "shafaq applies only to the moonsighting-committee method, and the saved method is \(method); "
                            + "set the method first")
                }
            }
            let saved = try ConfigCommand.store(context) { store in try store.update { try $0.set(value, for: key) } }
            try context.output.write("\(key) = \(saved[key] ?? "")\n")
        }
    }
}

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
