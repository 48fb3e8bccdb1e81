import Foundation
import PrayCore

/// The place and calculation options of `times` (and the commands that show times), and how they
/// meet the stored preferences: an option given wins; a stored value fills an option not given,
/// unless the option given says the same thing another way (`--isha-angle` over a stored isha
/// interval) or the value does not apply to the method in use (a stored shafaq with ISNA).
enum PlaceOptions {
    static let latitude = Option<Double>("lat", value: "deg", help: "Latitude in degrees, north positive (-90…90).")
    static let longitude = Option<Double>(
        "lon", value: "deg", help: "Longitude in degrees, east positive (-180…180).")
    static let city = Option<String>(
        "city", value: "name", help: "A city by name: 'Makkah', 'London, Canada', 'Springfield, Illinois', 'مكة'.")
    static let elevation = Option<Double>(
        "elevation", value: "m", help: "Elevation in metres; above sea level it lowers the horizon.", default: "0")
    static let timeZone = Option<String>(
        "tz", value: "zone",
        help: "Time zone: an IANA name (Asia/Riyadh), UTC, an offset (+03:00), or 'local' for the system's.",
        default: "the saved zone for the saved place, else the city's, else the zone at the coordinates",
        completion: .timeZone
    )

    /// The place options.
    static let place: [any OptionDefinition] = [latitude, longitude, city, elevation, timeZone]

    static let method = Option<String>(
        "method", value: "name",
        help:
            "Calculation method: a name, an alias (mwl, isna, makkah, …) or an AlAdhan number; see 'praykit methods'.",
        default: "muslim-world-league",
        completion: .list(CalculationMethod.allCases.flatMap { [$0.rawValue] + $0.aliases })
    )
    static let madhab = Option<Madhab>("madhab", value: "name", help: "Asr shadow: shafi (1) or hanafi (2).")
    static let fajrAngle = Option<Double>(
        "fajr-angle", value: "deg", help: "Fajr when the sun is this far below the horizon.")
    static let ishaAngle = Option<Double>(
        "isha-angle", value: "deg", help: "Isha when the sun is this far below the horizon.")
    static let ishaInterval = Option<Int>("isha-interval", value: "min", help: "Isha this many minutes after maghrib.")
    static let maghribAngle = Option<Double>(
        "maghrib-angle", value: "deg", help: "Maghrib when the sun is this far below the horizon.")
    static let maghribInterval = Option<Int>(
        "maghrib-interval", value: "min", help: "Maghrib this many minutes after sunset.")
    static let imsakMinutes = Option<Int>(
        "imsak-minutes", value: "min", help: "Imsak this many minutes before fajr (0…120).", default: "10")
    static let imsakAngle = Option<Double>(
        "imsak-angle", value: "deg", help: "Imsak when the sun is this far below the horizon (more than fajr's).")
    static let highLatitudeRule = Option<HighLatitudeRule>(
        "high-latitude-rule", value: "rule", help: "How fajr and isha are bounded where twilight lasts long.",
        default: "the method's, usually middle-of-the-night"
    )
    static let polarResolution = Option<PolarResolution>(
        "polar-resolution", value: "rule", help: "What to do on days without sunrise or sunset.",
        default: "unresolved")
    static let shafaq = Option<Shafaq>(
        "shafaq", value: "name", help: "Twilight of the Moonsighting Committee's isha.", default: "general")
    static let night = Option<NightMeasure>(
        "night", value: "measure", help: "The night divided by midnight and the thirds.", default: "the method's")
    static let adjust = Option<String>(
        "adjust", value: "list", help: "Minutes to add per time, such as fajr=2,isha=-3; each time at most once.")
    static let rounding = Option<Rounding>(
        "rounding", value: "mode", help: "Rounding to the minute.", default: "the method's, usually nearest")

    /// The calculation options, with the preference each stands for.
    static let calculation: [(key: Preferences.Key, option: any OptionDefinition)] = [
        (.method, method), (.madhab, madhab), (.fajrAngle, fajrAngle), (.ishaAngle, ishaAngle),
        (.ishaInterval, ishaInterval), (.maghribAngle, maghribAngle), (.maghribInterval, maghribInterval),
        (.imsakMinutes, imsakMinutes), (.imsakAngle, imsakAngle), (.highLatitudeRule, highLatitudeRule),
        (.polarResolution, polarResolution), (.shafaq, shafaq), (.night, night), (.adjust, adjust),
        (.rounding, rounding),
    ]

    // MARK: - Place

    /// Where a zone came from, as the output says (`timeZoneSource`).
    enum ZoneSource: String {
        case option
        case saved
        case coordinates
        case city
        case environment
        case system

        /// The value written in JSON: a city's own zone is the zone at its coordinates.
        var contractValue: String { self == .city ? ZoneSource.coordinates.rawValue : rawValue }
    }

    /// The place of a command: its coordinates, name and zone, the method chosen for it, and where
    /// each came from.
    struct Place {
        let coordinates: Coordinates
        /// The city's name or the saved place name.
        let name: String?
        /// The nearest city, for coordinates ("near Makkah, SA").
        var near: String? = nil
        let timeZone: TimeZone
        let zoneSource: ZoneSource
        /// The other zones claimed at the coordinates (disputed territory).
        var alternatives: [String] = []
        /// Whether the place is the saved one.
        let isSaved: Bool
        /// The method for the place when none is given or saved, and why.
        var method: MethodChoice? = nil

        /// Where the method of `parameters` came from: `option`, `saved`, `country:SA` or `default`.
        func methodSource(_ parameters: CalculationParameters) -> String {
            guard let method else { return "default" }
            if case .country = method.source, method.method != parameters.method { return "option" }
            return method.source.description
        }
    }

    /// Resolves `--city` or `--lat`/`--lon` (else the saved place), `--elevation` and `--tz` by the
    /// zone rule: `--tz`; else the saved zone for the saved place; else the city's zone; else the zone
    /// at the coordinates (offline boundaries) — never the machine's zone for a place elsewhere.
    /// - Throws: ``CLIError`` (usage) for a missing, invalid or ambiguous place or zone.
    static func place(
        _ arguments: ParsedArguments, saved: Preferences, context: CommandContext
    ) async throws(CLIError) -> Place {
        let given = (try arguments.value(latitude), try arguments.value(longitude))
        let cityName = try arguments.value(city)
        let source: LocationAPI.PlaceSource
        switch (given, cityName) {
        case ((nil, nil), let name?):
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw context.usage("--city needs a name") }
            source = .city(name)
        case (_, _?): throw context.usage("--city and --lat/--lon both name a place; give one")
        case ((let lat?, let lon?), nil):
            do {
                source = .coordinates(try Coordinates(latitude: lat, longitude: lon))
            } catch {
                throw CLIError(error, command: context.commandPath)
            }
        case ((nil, nil), nil):
            guard (try? saved.coordinates()) != nil else {
                throw context.usage(
                    "Missing expected argument '--lat <deg>' and '--lon <deg>' (or --city <name>, or save a place: "
                        + "'praykit config set city <name>')")
            }
            source = .saved
        case ((nil, _), nil): throw context.usage("Missing expected argument '--lat <deg>' (given with --lon)")
        case ((_, nil), nil): throw context.usage("Missing expected argument '--lon <deg>' (given with --lat)")
        }
        var zoneOption: String?
        if let text = try arguments.value(timeZone) {
            zoneOption =
                text.lowercased() == "local"
                ? "local" : try parseZone(text, option: "--tz", context: context).identifier
        }
        let methodText = arguments.text(method)
        let location: LocationAPI.Location
        do {
            location = try await context.dependency.locationManager().resolve(
                LocationAPI.Request(
                    source, timeZone: zoneOption, method: methodText.flatMap { try? CalculationMethod.named($0) }))
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
        var coordinates = location.coordinates
        if let height = try arguments.value(elevation) ?? (location.isSavedPlace ? nil : 0) {
            do {
                coordinates = try Coordinates(
                    latitude: coordinates.latitude, longitude: coordinates.longitude, elevation: height)
            } catch {
                throw CLIError(error, command: context.commandPath)
            }
        }
        let zoneSource: ZoneSource =
            switch location.timeZoneSource {
            case .option: .option
            case .saved: .saved
            case .coordinates: .coordinates
            case .city: .city
            case .system: .system
            }
        return Place(
            coordinates: coordinates, name: location.isSavedPlace ? saved[.placeName] ?? location.name : location.name,
            near: location.nearest.map { "\($0.place.shortName), \(Int($0.distanceKilometers.rounded())) km" },
            timeZone: location.timeZone, zoneSource: zoneSource, alternatives: location.timeZoneAlternatives,
            isSaved: location.isSavedPlace, method: location.method)
    }

    /// The zone: `text` (from `--tz`), else `saved`, else `$TZ`, else the system's.
    /// - Throws: ``CLIError`` (usage) for a zone that does not exist, with the closest name.
    static func zone(
        _ text: String?, saved: String?, context: CommandContext
    ) throws(CLIError) -> (TimeZone, ZoneSource) {
        if let text {
            if text.lowercased() == "local" { return localZone(context.environment) }
            return (try parseZone(text, option: "--tz", context: context), .option)
        }
        if let saved, let zone = TimeZone(identifier: saved) { return (zone, .saved) }
        return localZone(context.environment)
    }

    /// The system's zone: `$TZ` when set and known, else the machine's.
    static func localZone(_ environment: [String: String]) -> (TimeZone, ZoneSource) {
        if let variable = environment["TZ"], !variable.isEmpty {
            // POSIX allows a leading colon: TZ=:Europe/London.
            let identifier = variable.hasPrefix(":") ? String(variable.dropFirst()) : variable
            if let zone = zone(named: identifier) { return (zone, .environment) }
        }
        return (TimeZone.current, .system)
    }

    /// A zone by IANA name (any case), `UTC`/`GMT`/`Z`, or a fixed offset (`+03:00`, `-0930`, `+3`).
    static func zone(named text: String) -> TimeZone? {
        let upper = text.uppercased()
        if ["UTC", "GMT", "Z", "UCT", "ZULU"].contains(upper) { return TimeZone(identifier: "UTC") }
        if let zone = TimeZone(identifier: text) { return zone }
        if let offset = offsetSeconds(upper.hasPrefix("UTC") ? String(upper.dropFirst(3)) : upper) {
            return TimeZone(secondsFromGMT: offset)
        }
        let lowered = text.lowercased()
        return TimeZone.knownTimeZoneIdentifiers.first { $0.lowercased() == lowered }.flatMap {
            TimeZone(identifier: $0)
        }
    }

    /// Seconds east of UTC of `+03:00`, `-0930`, `+3`; `nil` for anything else or beyond ±14 h.
    private static func offsetSeconds(_ text: String) -> Int? {
        guard let match = text.wholeMatch(of: /([+-])([0-9]{1,2})(?::?([0-9]{2}))?/),
            let hours = Int(match.output.2), hours <= 14
        else { return nil }
        let minutes = match.output.3.flatMap { Int($0) } ?? 0
        guard minutes < 60 else { return nil }
        return (match.output.1 == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// A zone given on the command line.
    /// - Throws: ``CLIError`` (usage) naming the closest known zone.
    static func parseZone(_ text: String, option: String, context: CommandContext) throws(CLIError) -> TimeZone {
        if let zone = zone(named: text) { return zone }
        let suggestion = Suggestion.didYouMean(text, among: TimeZone.knownTimeZoneIdentifiers)
        throw context.usage(
            "Unknown time zone '\(text)' for \(option)\(suggestion) (an IANA name such as Europe/London, UTC, "
                + "+03:00 or local)")
    }

    // MARK: - Calculation

    /// A request for a place's times, with the place and the saved iqama settings.
    struct Calculation {
        let request: PrayerAPI.Request
        let place: Place
        let iqama: IqamaSettings?
    }

    /// The place, parameters, Hijri calendar and offset of a command line and the saved preferences,
    /// as a request for `days` days from `date` (today in the place's zone by default).
    /// - Throws: ``CLIError`` (usage) for anything missing, invalid or conflicting.
    static func calculation(
        _ arguments: ParsedArguments, context: CommandContext, date: CivilDate? = nil, days: Int = 1,
        hijriCalendar: HijriCalendar? = nil, hijriOffset: Int? = nil
    ) async throws(CLIError) -> Calculation {
        let saved = try context.preferences()
        let place = try await place(arguments, saved: saved, context: context)
        let start = date ?? LocalClock(timeZone: place.timeZone).components(context.now).day
        var request = PrayerAPI.Request(
            coordinates: place.coordinates, timeZone: place.timeZone, date: start, days: days,
            parameters: try parameters(arguments, saved: saved, context: context, choice: place.method)
        )
        request.hijriCalendar =
            hijriCalendar ?? saved[.hijriCalendar].flatMap(HijriCalendar.init(rawValue:)) ?? .ummAlQura
        request.hijriOffset = hijriOffset ?? saved[.hijriOffset].flatMap { Int($0) } ?? 0
        guard (-2...2).contains(request.hijriOffset) else {
            throw context.usage("--hijri-offset must be between -2 and 2, got \(request.hijriOffset)")
        }
        return Calculation(request: request, place: place, iqama: saved.iqamaSettings)
    }

    /// Runs the prayer service, turning its errors into the tool's.
    static func schedules(
        _ request: PrayerAPI.Request, service: any PrayerService, context: CommandContext
    ) async throws(CLIError) -> PrayerAPI.Response {
        do {
            return try await service.prayerTimes(for: request)
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
    }

    /// The calculation parameters of the options given and the stored preferences.
    /// - Throws: ``CLIError`` (usage) for conflicting, invalid or missing options.
    /// - Parameter choice: The method chosen for the place, used when no method is given or saved.
    static func parameters(
        _ arguments: ParsedArguments, saved: Preferences, context: CommandContext, choice: MethodChoice? = nil
    ) throws(CLIError) -> CalculationParameters {
        let given = Dictionary(
            uniqueKeysWithValues: calculation.compactMap { pair in arguments.text(pair.option).map { (pair.key, $0) } })
        for (first, second) in PreferenceOptions.alternatives where given[first] != nil && given[second] != nil {
            throw context.usage(
                "--\(PreferenceOptions.optionName(first)) and --\(PreferenceOptions.optionName(second)) say the "
                    + "same thing two ways; give one")
        }
        // Typed checks first, so a bad value is reported in the option's terms.
        for pair in calculation where given[pair.key] != nil { try check(pair.option, arguments) }
        var chosen = Preferences()
        var ignored: [String] = []
        do {
            for key in Preferences.calculationKeys {
                if let text = given[key] {
                    try chosen.set(text, for: key)
                } else if let text = saved[key] {
                    let superseded = PreferenceOptions.alternatives.contains { pair in
                        (pair.0 == key && given[pair.1] != nil) || (pair.1 == key && given[pair.0] != nil)
                    }
                    if superseded {
                        ignored.append("\(key) (the command line gives another)")
                    } else {
                        try chosen.set(text, for: key)
                    }
                }
            }
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
        if chosen[.method] == nil, let choice, case .country = choice.source {
            // The country's method, with the recommended rule at high latitudes unless one is set.
            do {
                try chosen.set(choice.method.rawValue, for: .method)
                if chosen[.highLatitudeRule] == nil, let rule = choice.highLatitudeRule {
                    try chosen.set(rule.rawValue, for: .highLatitudeRule)
                }
            } catch {
                throw CLIError(error, command: context.commandPath)
            }
        }
        let method = chosen[.method].flatMap { try? CalculationMethod.named($0) } ?? .muslimWorldLeague
        if given[.shafaq] == nil, chosen[.shafaq] != nil, method != .moonsightingCommittee {
            chosen.unset(.shafaq)
            ignored.append("shafaq (it applies only to moonsighting-committee)")
        }
        for setting in ignored {
            context.dependency.log().info(
                "Saved setting ignored", metadata: ["config.setting": setting, "config.method": method.rawValue])
        }
        let parameters: CalculationParameters
        do {
            parameters = try chosen.calculationParameters()
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
        if parameters.method == .custom {
            var missing: [String] = []
            if parameters.fajrAngle == nil { missing.append("a fajr rule (--fajr-angle)") }
            if parameters.ishaAngle == nil, parameters.ishaInterval == nil {
                missing.append("an isha rule (--isha-angle or --isha-interval)")
            }
            if !missing.isEmpty {
                throw context.usage("--method custom needs \(missing.joined(separator: " and "))")
            }
        }
        return parameters
    }

    /// Converts an option's value for its type's error message (`--imsak-minutes must be a whole
    /// number`); the value itself is then applied as a preference.
    private static func check(_ option: any OptionDefinition, _ arguments: ParsedArguments) throws(CLIError) {
        switch option {
        case let option as Option<Double>: _ = try arguments.value(option)
        case let option as Option<Int>: _ = try arguments.value(option)
        case let option as Option<Madhab>: _ = try arguments.value(option)
        case let option as Option<HighLatitudeRule>: _ = try arguments.value(option)
        case let option as Option<PolarResolution>: _ = try arguments.value(option)
        case let option as Option<Shafaq>: _ = try arguments.value(option)
        case let option as Option<NightMeasure>: _ = try arguments.value(option)
        case let option as Option<Rounding>: _ = try arguments.value(option)
        default: break
        }
        if option.name == method.name, let text = arguments.text(option), (try? CalculationMethod.named(text)) == nil {
            let names = CalculationMethod.allCases.flatMap { [$0.rawValue] + $0.aliases }
            throw .usage(
                "--method: unknown method '\(text)'\(Suggestion.didYouMean(text, among: names)); "
                    + "see 'praykit methods'", command: arguments.commandPath)
        }
    }
}
