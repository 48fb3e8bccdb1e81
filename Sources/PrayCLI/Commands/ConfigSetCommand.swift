import PrayCore

/// `praykit config set <key> <value>`, and `config set city <name>`, which saves a city's place, zone
/// and name in one step.
enum ConfigSetCommand: Command {
    static let name = "set"
    static let abstract =
        "Store a value ('city <name>' stores a place, its zone and name); a bad value changes nothing."
    static let key = Argument<String>("key", help: "The key, such as method or latitude, or city.")
    static let value = Argument<String>("value", help: "The value; negative numbers are values (-0.1278).")
    static let arguments: [any ArgumentDefinition] = [key, value]
    static let examples = [
        "praykit config set longitude -0.1278", "praykit config set hijri-offset -1",
        "praykit config set city 'Springfield, Illinois'",
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let text = arguments[value]
        if arguments[Self.key].lowercased() == "city" { return try await saveCity(text, context: context) }
        let key: Preferences.Key
        do {
            key = try Preferences.Key(argument: arguments[Self.key])
        } catch {
            throw CLIError.usage(error.message(for: "<key>", value: arguments[Self.key]))
        }
        // Check before touching the database, so a bad value changes nothing.
        var check = Preferences()
        try check.set(text, for: key)
        if key == .shafaq {
            let method = try context.preferences()[.method] ?? CalculationMethod.muslimWorldLeague.rawValue
            guard method == CalculationMethod.moonsightingCommittee.rawValue else {
                throw CLIError.usage(
                    "shafaq applies only to the moonsighting-committee method, and the saved method is \(method); "
                        + "set the method first")
            }
        }
        let saved = try context.dependency.preferences().update { try $0.set(text, for: key) }
        try context.output.write("\(key) = \(saved[key] ?? "")\n")
    }

    /// Saves the one city `query` names (``LocationManager/cityChoice(named:)``), its zone and its name
    /// (with its region when the country has two of the name: `Springfield, Illinois, US`), and says
    /// how it matched when not by its own name.
    private static func saveCity(_ query: String, context: CommandContext) async throws {
        guard let choice = try context.dependency.locationManager().cityChoice(named: query) else {
            throw CLIError.usage("no city matches '\(query)'")
        }
        let saved = try context.dependency.preferences().update { preferences in
            try preferences.setPlace(choice.place)
            try preferences.set(choice.match.shortName, for: .placeName)
        }
        let lines = [Preferences.Key.latitude, .longitude, .timeZone, .placeName].map { "\($0) = \(saved[$0] ?? "")" }
        var heading = "Saved \(choice.place.fullName)"
        if let note = MatchText.note(choice.match, query: query) { heading += " (\(note))" }
        if let others = MatchText.others(choice, option: "config set city") { heading += "\n" + others }
        try context.output.write(heading + "\n" + lines.joined(separator: "\n") + "\n")
    }
}
