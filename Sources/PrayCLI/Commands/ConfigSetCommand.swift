import PrayCore

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
