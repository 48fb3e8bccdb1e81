import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The place and calculation options of `times` (and the commands that show times). The rules they
/// feed live in PrayCore: ``LocationManager`` finds the place, its zone and its country's method,
/// ``TimeZoneParser`` reads `--tz`, and ``CalculationSettings/resolve(given:saved:country:latitude:)`` decides
/// between the options given, the saved preferences and the country's method.
enum PlaceOptions {
    static let latitude = Option<Double?>(
        "lat", value: "deg", help: "Latitude in degrees, north positive.", range: -90...90, unit: "degrees")
    static let longitude = Option<Double?>(
        "lon", value: "deg", help: "Longitude in degrees, east positive.", range: -180...180, unit: "degrees")
    static let city = Option<String?>(
        "city", value: "name", help: "A city by name: 'Makkah', 'London, Canada', 'Springfield, Illinois', 'مكة'.")
    static let elevation = Option<Double?>(
        "elevation", value: "m", help: "Elevation in metres; above sea level it lowers the horizon.",
        defaultText: "0, or the saved elevation for the saved place", range: -1000...10000, unit: "metres")
    static let timeZone = Option<String?>(
        "tz", value: "zone",
        help: "Time zone: a tz database name (Asia/Riyadh, US/Eastern), UTC, an offset (+03:00), or 'local' for "
            + "the system's.",
        defaultText: "the saved zone for the saved place, else the city's, else the zone at the coordinates",
        completion: .timeZone
    )

    /// The place options.
    static let place: [any OptionDefinition] = [latitude, longitude, city, elevation, timeZone]

    static let method = Option<CalculationMethod?>(
        "method", value: "name",
        help:
            "Calculation method: a name, an alias (mwl, isna, makkah, …) or an AlAdhan number; see 'praykit methods'.",
        defaultText: "the saved method, else the one of the place's country, else muslim-world-league",
        completion: .list(CalculationMethod.allCases.flatMap { [$0.rawValue] + $0.aliases })
    )
    static let madhab = Option<Madhab?>("madhab", value: "name", help: "Asr shadow: shafi (1) or hanafi (2).")
    static let fajrAngle = Option<Double?>(
        "fajr-angle", value: "deg", help: "Fajr when the sun is this far below the horizon.", range: 0...89,
        unit: "degrees")
    static let ishaAngle = Option<Double?>(
        "isha-angle", value: "deg", help: "Isha when the sun is this far below the horizon.", range: 0...89,
        unit: "degrees")
    static let ishaInterval = Option<Int?>(
        "isha-interval", value: "min", help: "Isha this many minutes after maghrib.", range: 0...1440, unit: "minutes")
    static let maghribAngle = Option<Double?>(
        "maghrib-angle", value: "deg", help: "Maghrib when the sun is this far below the horizon.", range: 0...89,
        unit: "degrees")
    static let maghribInterval = Option<Int?>(
        "maghrib-interval", value: "min", help: "Maghrib this many minutes after sunset.", range: 0...1440,
        unit: "minutes")
    static let imsakMinutes = Option<Int?>(
        "imsak-minutes", value: "min", help: "Imsak this many minutes before fajr.", defaultText: "10",
        range: 0...120, unit: "minutes")
    static let imsakAngle = Option<Double?>(
        "imsak-angle", value: "deg", help: "Imsak when the sun is this far below the horizon (more than fajr's).",
        range: 0...89, unit: "degrees")
    static let highLatitudeRule = Option<HighLatitudeRule?>(
        "high-latitude-rule", value: "rule", help: "How fajr and isha are bounded where twilight lasts long.",
        defaultText: "the method's, usually middle-of-the-night")
    static let polarResolution = Option<PolarResolution?>(
        "polar-resolution", value: "rule", help: "What to do on days without sunrise or sunset.",
        defaultText: "the saved polar-resolution, else nearest-latitude from "
            + "\(CalculationSettings.polarLatitude.formattedCompactly)° north or south, else unresolved")
    static let shafaq = Option<Shafaq?>(
        "shafaq", value: "name", help: "Twilight of the Moonsighting Committee's isha.", defaultText: "general")
    static let night = Option<NightMeasure?>(
        "night", value: "measure", help: "The night divided by midnight and the thirds.", defaultText: "the method's")
    static let adjust = Option<PrayerAdjustments?>(
        "adjust", value: "list", help: "Minutes to add per time, such as fajr=2,isha=-3; each time at most once.")
    static let rounding = Option<Rounding?>(
        "rounding", value: "mode", help: "Rounding to the minute.", defaultText: "the method's, usually nearest")

    /// The calculation options.
    static let calculation: [any OptionDefinition] = [
        method, madhab, fajrAngle, ishaAngle, ishaInterval, maghribAngle, maghribInterval, imsakMinutes, imsakAngle,
        highLatitudeRule, polarResolution, shafaq, night, adjust, rounding,
    ]

    /// The calculation settings given on the command line.
    static func settings(_ arguments: ParsedArguments) -> CalculationSettings {
        var given = CalculationSettings()
        given.method = arguments[method]
        given.madhab = arguments[madhab]
        given.fajrAngle = arguments[fajrAngle]
        given.ishaAngle = arguments[ishaAngle]
        given.ishaInterval = arguments[ishaInterval]
        given.maghribAngle = arguments[maghribAngle]
        given.maghribInterval = arguments[maghribInterval]
        given.imsakMinutes = arguments[imsakMinutes]
        given.imsakAngle = arguments[imsakAngle]
        given.highLatitudeRule = arguments[highLatitudeRule]
        given.polarResolution = arguments[polarResolution]
        given.shafaq = arguments[shafaq]
        given.night = arguments[night]
        given.adjustments = arguments[adjust]
        given.rounding = arguments[rounding]
        return given
    }

    // MARK: - Place

    /// The place of a command: its coordinates, name and zone, and where each came from.
    struct Place {
        let coordinates: Coordinates
        /// The city's name or the saved place name.
        let name: String?
        /// The nearest city, for coordinates ("near Makkah, SA").
        var near: String? = nil
        /// The zone, with the name shown.
        let zone: TimeZoneName
        let zoneSource: LocationAPI.TimeZoneSource
        /// The other zones claimed at the coordinates (disputed territory).
        var alternatives: [String] = []
        /// Whether the place is the saved one.
        let isSaved: Bool
        /// The method of the place's country, for the settings.
        let countryMethod: MethodChoice
        /// For `--city`, how the city matched and the other places the name also names.
        var cityChoice: PlaceAPI.CityChoice? = nil

        var timeZone: TimeZone { zone.timeZone }

        /// The name with how the city matched when not by its own name: `Makkah, SA (spelling
        /// correction of 'Makah')`; `nil` without a name.
        var nameWithNote: String? {
            guard let name else { return nil }
            guard let choice = cityChoice, let note = MatchText.note(choice.match, query: choice.query) else {
                return name
            }
            return "\(name) (\(note))"
        }

        /// The place of a resolved location, at `--elevation` when given (else the saved place's
        /// elevation, or 0 elsewhere).
        /// - Throws: ``ValidationError`` for an elevation out of range.
        init(_ location: LocationAPI.Location, saved: Preferences, elevation: Double?) throws {
            var coordinates = location.coordinates
            if let height = elevation ?? (location.isSavedPlace ? nil : 0) {
                coordinates = try Coordinates(
                    latitude: coordinates.latitude, longitude: coordinates.longitude, elevation: height)
            }
            self.coordinates = coordinates
            name = location.isSavedPlace ? saved[.placeName] ?? location.name : location.name
            near = location.nearest.map { "\($0.place.shortName), \(Int($0.distanceKilometers.rounded())) km" }
            zone = location.zone
            zoneSource = location.timeZoneSource
            alternatives = location.timeZoneAlternatives
            isSaved = location.isSavedPlace
            countryMethod = location.countryMethod
            cityChoice = location.cityChoice
        }
    }

    /// Resolves `--city` or `--lat`/`--lon` (else the saved place), `--elevation` and `--tz` through
    /// the container's ``LocationManager``.
    /// - Throws: ``CLIError`` (usage) for a missing, invalid or ambiguous place or zone; what the
    ///   services throw.
    static func place(_ arguments: ParsedArguments, saved: Preferences, context: CommandContext) async throws -> Place {
        let location = try await context.dependency.locationManager().resolve(
            request(arguments, saved: saved, context: context))
        return try Place(location, saved: saved, elevation: arguments[elevation])
    }

    /// The place of the options: `--city`, or `--lat` and `--lon`, else the saved place; with `--tz`
    /// and `--method`.
    /// - Throws: ``CLIError`` (usage) for a missing or half-given place or a bad zone.
    static func request(
        _ arguments: ParsedArguments, saved: Preferences, context: CommandContext
    ) throws -> LocationAPI.Request {
        let source: LocationAPI.PlaceSource
        switch ((arguments[latitude], arguments[longitude]), arguments[city]) {
        case ((nil, nil), let name?):
            guard !name.trimmingWhitespace().isEmpty else {
                throw CLIError.usage("--city needs a name")
            }
            source = .city(name)
        case (_, _?): throw CLIError.usage("--city and --lat/--lon both name a place; give one")
        case ((let lat?, let lon?), nil): source = .coordinates(try Coordinates(latitude: lat, longitude: lon))
        case ((nil, nil), nil):
            guard (try? saved.coordinates()) != nil else {
                throw latitude.missing(
                    "and \(longitude.synopsis), or \(city.synopsis), or save a place: 'praykit config set city <name>'")
            }
            source = .saved
        case ((nil, _), nil): throw latitude.missing("given with --lon")
        case ((_, nil), nil): throw longitude.missing("given with --lat")
        }
        let zone = try arguments[timeZone].map { text in try parseZone(text, context: context) }
        return LocationAPI.Request(source, timeZone: zone, method: arguments[method])
    }

    /// The zone of a command that shows dates, not a place's times: `--tz`, else the saved zone,
    /// else `local`.
    /// - Throws: ``CLIError`` (usage) for a zone that does not exist.
    static func zone(_ arguments: ParsedArguments, option: Option<String?>, context: CommandContext) throws
        -> TimeZoneName
    {
        if let text = arguments[option] { return try parseZone(text, option: option.name, context: context) }
        return try context.preferences()[.timeZone].flatMap(TimeZoneName.init) ?? context.zones.local
    }

    /// Whether `identifier` is a POSIX-style `Etc/GMT±N` with N ≠ 0: whether it is behind UTC (`+`),
    /// and N. (By hand: a regex literal would be compiled at every start.)
    private static func posixOffset(_ identifier: String) -> (behind: Bool, hours: String)? {
        guard identifier.hasPrefix("Etc/GMT") else { return nil }
        let rest = identifier.dropFirst("Etc/GMT".count)
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        let hours = rest.dropFirst()
        guard (1...2).contains(hours.count), hours.allSatisfy({ $0.isASCII && $0.isNumber }), hours != "0" else {
            return nil
        }
        return (sign == "+", String(hours))
    }

    /// A zone given on the command line: a tz name, UTC, an offset, or `local`.
    /// - Throws: ``CLIError`` (usage) naming the closest known zone.
    static func parseZone(_ text: String, option: String = "tz", context: CommandContext) throws -> TimeZoneName {
        do {
            let zone = try context.zones.parse(text)
            // POSIX's Etc/GMT+3 is three hours *behind* UTC; people who write it usually mean ahead.
            if let (behind, hours) = posixOffset(zone.identifier) {
                try context.diagnostics.write(
                    "Note: \(zone.identifier) is UTC\(behind ? "−" : "+")\(hours): POSIX names count the other way. "
                        + "For \(hours) hours \(behind ? "ahead of" : "behind") UTC, give --\(option) "
                        + "\(behind ? "+" : "-")\(hours).\n")
                try context.diagnostics.flush()
            }
            return zone
        } catch let error as CLIError {
            throw error
        } catch {
            let suggestion = Suggestion.didYouMean(text, among: TimeZoneName.knownIdentifiers)
            throw CLIError.usage(
                "Unknown time zone '\(text)' for --\(option)\(suggestion) (an IANA name such as Europe/London, UTC, "
                    + "+03:00 or local)")
        }
    }

    // MARK: - Calculation

    /// A request for a place's times, with the place, the method chosen and the saved iqama settings.
    struct Calculation {
        var request: PrayerAPI.Request
        let place: Place
        /// The method and why (`methodSource`).
        let method: MethodChoice
        let iqama: IqamaSettings?
    }

    /// The place, parameters, Hijri calendar and offset of a command line and the saved preferences,
    /// as a request for `days` days from `date` (today in the place's zone by default): the
    /// container's ``LocationManager/prayerRequest(for:at:days:given:)``, the one call apps make too,
    /// with the command line's elevation, date and Hijri options on top.
    /// - Throws: ``CLIError`` (usage) for anything missing, invalid or conflicting; what the services
    ///   throw.
    static func calculation(
        _ arguments: ParsedArguments, context: CommandContext, date: Day? = nil, days: Int = 1,
        hijriCalendar: HijriCalendar? = nil, hijriOffset: Int? = nil
    ) async throws -> Calculation {
        let saved = try context.preferences()
        let prepared = try await context.dependency.locationManager().prayerRequest(
            for: request(arguments, saved: saved, context: context), at: context.now, days: days,
            given: settings(arguments))
        let place = try Place(prepared.location, saved: saved, elevation: arguments[elevation])
        var request = prepared.request
        request.coordinates = place.coordinates
        if let date { request.date = date.day(today: request.date) }
        if let hijriCalendar { request.hijriCalendar = hijriCalendar }
        if let hijriOffset { request.hijriOffset = hijriOffset }
        try checkCustom(request.parameters)
        return Calculation(request: request, place: place, method: prepared.settings.method, iqama: prepared.iqama)
    }

    /// `--method custom` without its rules is refused: the tool does not show a day without fajr or
    /// isha by accident.
    /// - Throws: ``CLIError`` (usage) naming the missing rules.
    static func checkCustom(_ parameters: CalculationParameters) throws {
        guard parameters.method == .custom else { return }
        var missing: [String] = []
        if parameters.fajrAngle == nil { missing.append("a fajr rule (--fajr-angle)") }
        if parameters.ishaAngle == nil, parameters.ishaInterval == nil {
            missing.append("an isha rule (--isha-angle or --isha-interval)")
        }
        if !missing.isEmpty { throw CLIError.usage("--method custom needs \(missing.joined(separator: " and "))") }
    }
}
