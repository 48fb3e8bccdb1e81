import PrayCore

/// `praykit config set <key> <value>`, and `config set city <name>`, which saves a city's place, zone
/// and name in one step.
enum ConfigSetCommand: Command {
    static let name = "set"
    static let abstract =
        "Store a value ('city <name>' stores a place, its zone and name); a bad value changes nothing."
    static let key = Argument<String>(
        "key", help: "The key, such as method or latitude, or city.", completion: .list(ConfigCommand.keyNames))
    static let value = Argument<String>("value", help: "The value; negative numbers are values (-0.1278).")
    static let arguments: [any ArgumentDefinition] = [key, value]
    static let examples = [
        "praykit config set longitude -0.1278", "praykit config set hijri-offset -1",
        "praykit config set city 'Springfield, Illinois'",
    ]
    static var discussion: String { ConfigCommand.keys }

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
        do {
            try check.set(text, for: key)
        } catch {
            throw CLIError.usage(error.message + Self.suggestion(text, for: key))
        }
        if key == .latitude || key == .longitude { return try await moveCoordinate(text, for: key, context: context) }
        if key == .shafaq {
            let method = try context.preferences()[.method] ?? CalculationMethod.muslimWorldLeague.rawValue
            guard method == CalculationMethod.moonsightingCommittee.rawValue else {
                throw CLIError.usage(
                    "shafaq applies only to the moonsighting-committee method, and the saved method is \(method); "
                        + "set the method first")
            }
        }
        if key == .mosque {
            // A name no timetable, settings or followed space is kept under would silently change nothing.
            let store = context.dependency.mosqueTimetables()
            let spaces = try context.dependency.syncService().spaces().map(\.localName)
            let known = try store.mosques().map(\.name) + spaces
            let settings = try store.settings(of: text)
            guard known.contains(text) || settings != nil else {
                let hint =
                    known.isEmpty
                    ? "none is kept yet: 'praykit timetable import FILE.csv --mosque NAME' or 'praykit mosque set NAME' first"
                    : "the mosques kept are " + known.map { "'\($0)'" }.joined(separator: ", ")
                throw CLIError.usage("no timetable or settings are kept for a mosque named '\(text)'; \(hint)")
            }
        }
        let before = try context.preferences()
        let saved = try context.dependency.preferences().update { try $0.set(text, for: key) }
        if Self.calculationKeys.contains(key) {
            try await checkCalculation(key, text: text, before: before, context: context)
        }
        try context.output.write("\(key) = \(saved[key] ?? "")\n")
        // The Hijri calendar, its offset and the announced starts say which days are Ramadan's.
        // So does the chosen mosque's calendar.
        if [.hijriCalendar, .hijriOffset, .hijriStarts, .mosque].contains(key) {
            FastCommand.warnMoved(
                before: try FastCommand.calendar(saved: before, context: context),
                after: try FastCommand.calendar(saved: saved, context: context), context: context)
        }
        if key == .jumuah { try await warnJumuahSeasons(saved, context: context) }
        if key == .iqama { try await warnIqamaSeasons(saved, context: context) }
        if [.hijriCalendar, .hijriOffset].contains(key), let mosque = saved[.mosque],
            try context.dependency.mosqueTimetables().settings(of: mosque) != nil
        {
            try context.diagnostics.write(
                "Note: while \(mosque.escapingControlCharacters()) is your mosque its Hijri calendar and offset are "
                    + "used; yours apply after 'praykit config unset mosque'.\n")
        }
    }

    /// The keys of the calculation: a value valid alone may make it impossible with the others (an
    /// imsak angle below the fajr angle, adjustments that put sunrise before fajr).
    static let calculationKeys: Set<Preferences.Key> = [
        .method, .madhab, .fajrAngle, .ishaAngle, .ishaInterval, .maghribAngle, .maghribInterval, .imsakMinutes,
        .imsakAngle, .highLatitudeRule, .polarResolution, .shafaq, .night, .adjust, .rounding, .elevation,
    ]

    /// Calculates the coming year with the settings just saved — at the saved place, or at Makkah
    /// without one — and, when the calculation refuses them, puts the key back as it was and says why:
    /// a setting every later `times`, `next` and `notify` would stop on is never kept.
    private static func checkCalculation(
        _ key: Preferences.Key, text: String, before: Preferences, context: CommandContext
    ) async throws {
        do {
            let saved = try context.preferences()
            let place =
                (try? saved.coordinates()) != nil
                ? LocationAPI.Request(.saved)
                : LocationAPI.Request(
                    .coordinates(try Coordinates(latitude: 21.4225, longitude: 39.8262)),
                    timeZone: TimeZoneName("Asia/Riyadh"))
            let prepared = try await context.dependency.locationManager().prayerRequest(
                for: place, at: context.now, days: 366)
            _ = try context.dependency.prayerCalculator().schedules(for: prepared.request)
        } catch let error as ValidationError {
            _ = try context.dependency.preferences().update { preferences in
                if let old = before[key] { try preferences.set(old, for: key) } else { preferences.unset(key) }
            }
            throw CLIError.usage(
                "\(key) \(text) cannot be used with the saved settings: "
                    + "\(error.message); nothing was saved")
        }
    }

    /// Warns when a saved Jumu'ah time leaves dhuhr's time on Fridays of the coming year at the saved
    /// place (``JumuahSeasonCheck``); says nothing without a saved place.
    private static func warnJumuahSeasons(_ saved: Preferences, context: CommandContext) async throws {
        guard let text = saved[.jumuah], (try? saved.coordinates()) != nil,
            let jumuah = try? IqamaSettings(parsing: "", jumuah: text).jumuah, !jumuah.isEmpty
        else { return }
        let prepared = try await context.dependency.locationManager().prayerRequest(
            for: LocationAPI.Request(.saved), at: context.now, days: 366)
        let schedules = try context.dependency.prayerCalculator().schedules(for: prepared.request)
        try context.diagnostics.write(JumuahSeasonCheck.warning(JumuahSeasonCheck.findings(jumuah, in: schedules)))
    }

    /// Warns when a saved fixed iqama falls outside its prayer's time on days of the coming year at the
    /// saved place (``IqamaSeasonCheck``); says nothing without a saved place or a fixed iqama.
    private static func warnIqamaSeasons(_ saved: Preferences, context: CommandContext) async throws {
        guard (try? saved.coordinates()) != nil, let settings = saved.iqamaSettings,
            settings.rules.values.contains(where: { if case .fixed = $0 { true } else { false } })
        else { return }
        let prepared = try await context.dependency.locationManager().prayerRequest(
            for: LocationAPI.Request(.saved), at: context.now, days: 366)
        let schedules = try context.dependency.prayerCalculator().schedules(for: prepared.request)
        try context.diagnostics.write(IqamaSeasonCheck.warning(IqamaSeasonCheck.findings(settings, in: schedules)))
    }

    /// Saves a coordinate; a name and zone saved for the old place are removed, and the zone is found
    /// again from the new coordinates when both are set. Says what changed.
    private static func moveCoordinate(_ text: String, for key: Preferences.Key, context: CommandContext) async throws {
        var removed: [(Preferences.Key, String)] = []
        var saved = try context.dependency.preferences().update { removed = try $0.setCoordinate(text, for: key) }
        var lines = ["\(key) = \(saved[key] ?? "")"]
        for (stale, value) in removed where stale == .placeName {
            lines.append("place-name removed (it named the old place: \(value))")
        }
        if let was = removed.first(where: { $0.0 == .timeZone })?.1, let coordinates = try saved.coordinates() {
            let zone = try context.dependency.locationManager().timeZone(at: coordinates).zone
            saved = try context.dependency.preferences().update { try $0.set(zone.identifier, for: .timeZone) }
            lines.append("tz = \(saved[.timeZone] ?? zone.identifier) (the zone at the new coordinates; was \(was))")
        }
        try context.output.write(lines.joined(separator: "\n") + "\n")
    }

    /// `; did you mean 'isna'?` for a value of a key with named values.
    private static func suggestion(_ text: String, for key: Preferences.Key) -> String {
        let names: [String] =
            switch key {
            case .method: CalculationMethod.allCases.flatMap { [$0.rawValue] + $0.aliases }
            case .madhab: Madhab.allValueStrings
            case .highLatitudeRule: HighLatitudeRule.allValueStrings
            case .polarResolution: PolarResolution.allValueStrings
            case .shafaq: Shafaq.allValueStrings
            case .night: NightMeasure.allValueStrings
            case .rounding: Rounding.allValueStrings
            case .hijriCalendar: HijriCalendar.allValueStrings
            case .clock: ClockStyle.allValueStrings
            case .timeZone: TimeZoneName.knownIdentifiers
            default: []
            }
        return Suggestion.didYouMean(text, among: names)
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
