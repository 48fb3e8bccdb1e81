import Foundation
import PrayCore

/// `praykit times`: prayer times for a place and a run of days.
struct TimesCommand {
    static let name = "times"
    static let overview = "Print prayer times for a place and one or more days."
    static let usage = "praykit times --lat <deg> --lon <deg> [options]"

    static let options: [OptionSpec] = [
        .latitude,
        .longitude,
        OptionSpec(name: "elevation", value: "m", help: "Elevation in metres; lowers the horizon.", defaultText: "0"),
        .timeZone("Time zone of the days, such as Asia/Riyadh."),
        OptionSpec(name: "date", value: "YYYY-MM-DD", help: "First day.", defaultText: "today in the zone"),
        OptionSpec(name: "days", value: "n", help: "Number of consecutive days (1…3660).", defaultText: "1"),
        OptionSpec(
            name: "method", value: "name",
            help: "Calculation method or alias (mwl, isna, makkah, …); see 'praykit methods'.",
            defaultText: "muslim-world-league"
        ),
        OptionSpec(
            name: "madhab", value: "name", help: "Asr shadow: shafi (1) or hanafi (2).", choices: ["shafi", "hanafi"],
            defaultText: "shafi"),
        OptionSpec(name: "fajr-angle", value: "deg", help: "Fajr when the sun is this far below the horizon."),
        OptionSpec(name: "isha-angle", value: "deg", help: "Isha when the sun is this far below the horizon."),
        OptionSpec(name: "isha-interval", value: "min", help: "Isha this many minutes after maghrib."),
        OptionSpec(name: "maghrib-angle", value: "deg", help: "Maghrib when the sun is this far below the horizon."),
        OptionSpec(name: "maghrib-interval", value: "min", help: "Maghrib this many minutes after sunset."),
        OptionSpec(
            name: "imsak-minutes", value: "min", help: "Imsak this many minutes before fajr.", defaultText: "10"),
        OptionSpec(name: "imsak-angle", value: "deg", help: "Imsak when the sun is this far below the horizon."),
        OptionSpec(
            name: "high-latitude-rule", value: "rule", help: "How fajr and isha are bounded where twilight lasts long.",
            choices: HighLatitudeRule.allCases.map(\.rawValue), defaultText: "the method's, usually middle-of-the-night"
        ),
        OptionSpec(
            name: "polar-resolution", value: "rule", help: "What to do on days without sunrise or sunset.",
            choices: PolarResolution.allCases.map(\.rawValue), defaultText: "unresolved"
        ),
        OptionSpec(
            name: "shafaq", value: "name", help: "Twilight for the Moonsighting Committee's isha.",
            choices: Shafaq.allCases.map(\.rawValue), defaultText: "general"
        ),
        OptionSpec(
            name: "night", value: "measure", help: "The night divided by midnight and the thirds.",
            choices: NightMeasure.allCases.map(\.rawValue), defaultText: "the method's"
        ),
        OptionSpec(name: "adjust", value: "list", help: "Minutes to add per time, such as fajr=2,isha=-3."),
        OptionSpec(
            name: "rounding", value: "mode", help: "Rounding to the minute.",
            choices: Rounding.allCases.map(\.rawValue),
            defaultText: "the method's, usually nearest"
        ),
        .format(["table", "json", "csv"]),
        OptionSpec(
            name: "clock", value: "style", help: "Clock times in tables.", choices: ["24h", "12h"], defaultText: "24h"),
        OptionSpec(
            name: "hijri-calendar", value: "name", help: "Calendar of the Hijri dates shown.",
            choices: HijriCalendar.allCases.map(\.rawValue), defaultText: "umm-al-qura"
        ),
        OptionSpec(
            name: "hijri-offset", value: "days", help: "Hijri day offset for local sighting (-2…2).", defaultText: "0"
        ),
        OptionSpec(
            name: "source", value: "name",
            help: "Where the times come from: calculated here, or a published timetable.",
            choices: ["calculated"] + RemoteTimetable.Provider.allCases.map(\.rawValue), defaultText: "calculated"
        ),
        OptionSpec(
            name: "api-url", value: "URL", help: "The timetable server.",
            defaultText: "https://api.aladhan.com or https://www.londonprayertimes.com"
        ),
        OptionSpec(
            name: "api-key", value: "key", help: "The timetable's API key (London).", defaultText: "$PRAYKIT_API_KEY"),
    ]

    static var help: String {
        HelpText.render(
            overview: overview, usage: usage, options: options,
            footer: """
                Options not given come from 'praykit config' when set there.

                EXAMPLES:
                  praykit times --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --method umm-al-qura
                  praykit times --lat 51.5074 --lon -0.1278 --date 2026-06-21 --days 7 --format json
                """
        )
    }

    let request: PrayerAPI.Request
    let zoneSource: CommandValues.ZoneSource
    let format: String
    let clock12Hour: Bool
    let hijriCalendar: HijriCalendar
    let hijriOffset: Int

    /// Reads and checks the command line, with stored preferences for the options not given.
    /// - Parameters:
    ///   - given: The arguments after `times`.
    ///   - preferences: Stored values by option name (`lat`, `method`, …).
    ///   - environment: The process environment (for `TZ`).
    ///   - now: The current instant, for the default date.
    /// - Throws: ``CLIError`` (usage) for anything missing or invalid.
    init(
        _ given: ParsedArguments, preferences: [String: String] = [:], environment: [String: String], now: Date
    ) throws(CLIError) {
        let arguments = given.filling(preferences)
        func fail(_ message: String) -> CLIError { .usage(message, command: Self.name) }
        let coordinates = try CommandValues.coordinates(arguments, command: Self.name)
        let (timeZone, source) = try CommandValues.zone(arguments["tz"], environment: environment, command: Self.name)
        zoneSource = source == .option && given["tz"] == nil ? .preferences : source
        let date =
            try CommandValues.date(arguments, "date", command: Self.name)
            ?? LocalClock(timeZone: timeZone).components(now).day
        let days = try CommandValues.integer(arguments, "days", command: Self.name) ?? 1
        guard (1...3660).contains(days) else { throw fail("--days must be between 1 and 3660, got \(days)") }
        // The calculation options are the calculation preferences: checked and applied the same way.
        var chosen = Preferences()
        let parameters: CalculationParameters
        do {
            for key in Preferences.calculationKeys {
                if let text = arguments[key.rawValue] { try chosen.set(text, for: key) }
            }
            parameters = try chosen.calculationParameters()
        } catch {
            throw fail(CommandValues.optionMessage(error))
        }
        format = try CommandValues.format(arguments["format"], allowed: ["table", "json", "csv"], command: Self.name)
        clock12Hour = arguments["clock"]?.lowercased() == "12h"
        guard ["12h", "24h", nil].contains(arguments["clock"]?.lowercased()) else {
            throw fail("--clock must be 24h or 12h, got '\(arguments["clock"] ?? "")'")
        }
        hijriCalendar =
            try CommandValues.choice(arguments, "hijri-calendar", HijriCalendar.self, command: Self.name) ?? .ummAlQura
        hijriOffset = try CommandValues.integer(arguments, "hijri-offset", command: Self.name) ?? 0
        guard (-2...2).contains(hijriOffset) else {
            throw fail("--hijri-offset must be between -2 and 2, got \(hijriOffset)")
        }
        request = PrayerAPI.Request(
            coordinates: coordinates, timeZone: timeZone, date: date, days: days, parameters: parameters
        )
    }

    private var timeZone: TimeZone { request.timeZone }

    /// Calculates and renders the times.
    /// - Throws: ``CLIError`` (runtime) when the service fails.
    func run(service: any PrayerService, hijri: any HijriService) async throws(CLIError) -> String {
        let response: PrayerAPI.Response
        do {
            response = try await service.prayerTimes(for: request)
        } catch let error as ValidationError {
            throw .usage(error.message, command: Self.name)
        } catch let error as StorageError {
            throw .runtime(error.description)
        } catch {
            throw .runtime("\(error)")
        }
        // The Hijri date of each day's daytime, Umm al-Qura; a failure here loses only that column.
        let hijriDays = try? hijri.days(
            for: HijriAPI.Request(date: request.date, days: request.days, calendar: hijriCalendar, offset: hijriOffset)
        )
        let output = TimesOutput(
            request: request, response: response, zoneSource: zoneSource, hijri: hijriDays ?? [],
            clock12Hour: clock12Hour
        )
        switch format {
        case "json": return output.json()
        case "csv": return output.csv()
        default: return output.table()
        }
    }

    /// The published timetable of `--source`, `--api-url` and `--api-key` (or `$PRAYKIT_API_KEY`).
    static func remote(_ arguments: ParsedArguments, environment: [String: String]) throws(CLIError) -> RemoteTimetable?
    {
        let source = arguments["source"]?.lowercased() ?? "calculated"
        if source == "calculated" {
            guard arguments["api-url"] == nil, arguments["api-key"] == nil else {
                throw .usage("--api-url and --api-key go with --source aladhan or london", command: name)
            }
            return nil
        }
        guard let provider = RemoteTimetable.Provider(rawValue: source) else {
            throw .usage("--source must be one of calculated, aladhan, london, got '\(source)'", command: name)
        }
        let defaultURL = provider == .aladhan ? "https://api.aladhan.com" : "https://www.londonprayertimes.com"
        let text = arguments["api-url"] ?? defaultURL
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else {
            throw .usage("--api-url must be an http or https URL, got '\(text)'", command: name)
        }
        let key = arguments["api-key"] ?? environment["PRAYKIT_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if provider == .london, key == nil {
            throw .usage("the London timetable needs --api-key or PRAYKIT_API_KEY", command: name)
        }
        return RemoteTimetable(provider: provider, baseURL: url, apiKey: key)
    }
}
