import Foundation
import PrayCore
import PrayKit

/// `praykit times`: prayer times for a place and a run of days.
struct TimesCommand: Command {
    static let name = "times"
    static let abstract = "Print prayer times for a place and one or more days."
    static let discussion = """
        Options not given come from 'praykit config' when set there (a saved value that does not apply
        to the method in use is ignored; --log-level info says so). A time that a rule held back to
        keep the day in order is marked '*'; a time on the day before or after is marked -1 or +1.
        """
    static let examples = [
        "praykit times --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --method umm-al-qura",
        "praykit times --lat 51.5074 --lon -0.1278 --date 2026-06-21 --days 7 --format json",
        "praykit times --lat 31.5 --lon 35.4 --elevation -430 --method 3",
    ]

    static let date = Option<CivilDate>("date", value: "YYYY-MM-DD", help: "First day.", default: "today in the zone")
    static let days = Option<Int>("days", value: "n", help: "Number of consecutive days (1…3660).", default: "1")
    static let format = Option<OutputFormat>.format([.table, .json, .csv])
    static let clock = Option<ClockStyle>("clock", value: "style", help: "Clock times in tables.", default: "24h")
    static let hijriCalendar = Option<HijriCalendar>(
        "hijri-calendar", value: "name", help: "Calendar of the Hijri dates shown (and of Ramadan).",
        default: "umm-al-qura")
    static let hijriOffset = Option<Int>(
        "hijri-offset", value: "days", help: "Hijri day offset for local sighting (-2…2).", default: "0")

    /// Where times come from.
    enum Source: String, CaseIterable, ArgumentValue {
        case calculated
        case aladhan
        case london
    }

    static let source = Option<Source>(
        "source", value: "name", help: "Where the times come from: calculated here, or a published timetable.",
        default: "calculated")
    static let apiURL = Option<String>(
        "api-url", value: "URL", help: "The timetable server (https).",
        default: "https://api.aladhan.com or https://www.londonprayertimes.com")
    static let apiKey = Option<String>(
        "api-key", value: "key", help: "The timetable's API key (London).", default: "$PRAYKIT_API_KEY")
    static let timeout = Option<Double>(
        "timeout", value: "seconds", help: "Give up on the timetable server after this long per attempt (1…300).",
        default: "10")
    static let offline = Flag("offline", help: "Serve the published timetable from the cache only; never connect.")

    static let options: [any OptionDefinition] =
        PlaceOptions.place + [date, days] + PlaceOptions.calculation.map(\.option) + [
            format, clock, hijriCalendar, hijriOffset, source, apiURL, apiKey, timeout, offline,
        ]

    /// Where London's timetable applies: within this distance of central London.
    static let londonRadiusKilometres = 60.0

    let request: PrayerAPI.Request
    let place: PlaceOptions.Place
    let format: OutputFormat
    let twelveHour: Bool
    let remote: RemoteTimetable?
    let iqama: IqamaSettings?

    static func configure(
        _ configuration: inout PrayDependency.Configuration, _ arguments: ParsedArguments, environment: [String: String]
    )
        throws(CLIError)
    {
        configuration.remoteTimetable = try remote(arguments, environment: environment)
        let seconds = try arguments.value(timeout) ?? 10
        guard (1...300).contains(seconds) else {
            throw .usage(
                "--timeout must be between 1 and 300 seconds, got \(seconds.formattedCompactly)", command: name)
        }
        configuration.network.totalTimeout = seconds
        configuration.network.connectTimeout = min(seconds, configuration.network.connectTimeout)
        configuration.network.retryBudget = min(configuration.network.retryBudget, seconds * 2)
    }

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        let saved = try context.preferences()
        let dayCount = try arguments.value(Self.days) ?? 1
        guard (1...3660).contains(dayCount) else {
            throw context.usage("--days must be between 1 and 3660, got \(dayCount)")
        }
        let calculation = try await PlaceOptions.calculation(
            arguments, context: context, date: try arguments.value(Self.date), days: dayCount,
            hijriCalendar: try arguments.value(Self.hijriCalendar), hijriOffset: try arguments.value(Self.hijriOffset))
        place = calculation.place
        request = calculation.request
        iqama = calculation.iqama
        format = try arguments.value(Self.format) ?? .table
        twelveHour =
            (try arguments.value(Self.clock) ?? saved[.clock].flatMap(ClockStyle.init(rawValue:))) == .twelveHour
        remote = try Self.remote(arguments, environment: context.environment)
        if remote?.provider == .london { try Self.checkLondon(place.coordinates, context: context) }
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let service = remote == nil ? context.dependency.prayerService() : context.dependency.remotePrayerService()
        let response = try await PlaceOptions.schedules(request, service: service, context: context)
        // The Hijri date of each day's daytime; a failure here loses only that column.
        let hijri = try? context.dependency.hijriService().days(
            for: HijriAPI.Request(
                date: request.date, days: request.days, calendar: request.hijriCalendar, offset: request.hijriOffset))
        let output = TimesOutput(
            request: request, response: response, place: place, hijri: hijri ?? [], clock12Hour: twelveHour,
            iqama: iqama)
        switch format {
        case .json: try output.writeJSON(to: context.output)
        case .csv: try output.writeCSV(to: context.output)
        default: try output.writeTable(to: context.output)
        }
    }

    /// The published timetable of `--source`, `--api-url` and `--api-key` (or `$PRAYKIT_API_KEY`).
    static func remote(_ arguments: ParsedArguments, environment: [String: String]) throws(CLIError) -> RemoteTimetable?
    {
        let chosen = try arguments.value(source) ?? .calculated
        guard chosen != .calculated else {
            for option in [apiURL, apiKey, timeout] as [any OptionDefinition] + [offline]
            where arguments.isGiven(option) {
                throw .usage("--\(option.name) goes with --source aladhan or london", command: name)
            }
            return nil
        }
        let provider: RemoteTimetable.Provider = chosen == .aladhan ? .aladhan : .london
        let defaultURL = provider == .aladhan ? "https://api.aladhan.com" : "https://www.londonprayertimes.com"
        let text = try arguments.value(apiURL) ?? defaultURL
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else {
            throw .usage("--api-url must be an http or https URL, got '\(text)'", command: name)
        }
        let key = try arguments.value(apiKey) ?? environment["PRAYKIT_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if provider == .london, key == nil {
            throw .usage("the London timetable needs --api-key or PRAYKIT_API_KEY", command: name)
        }
        return RemoteTimetable(provider: provider, baseURL: url, apiKey: key, cacheOnly: arguments.has(offline))
    }

    /// London's timetable is London's: another place is refused rather than given London's times.
    private static func checkLondon(_ coordinates: Coordinates, context: CommandContext) throws(CLIError) {
        let london = (latitude: 51.5074, longitude: -0.1278)
        let distance = Self.kilometres(
            from: (coordinates.latitude, coordinates.longitude), to: london)
        guard distance <= londonRadiusKilometres else {
            throw context.usage(
                "the London Unified Prayer Timetable is London's, and this place is "
                    + "\(Int(distance.rounded())) km from London; use --source calculated or aladhan here")
        }
    }

    /// The great-circle distance in kilometres (haversine on a sphere of 6371 km): enough to tell
    /// London from elsewhere.
    static func kilometres(from a: (Double, Double), to b: (Double, Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.0 - a.0) * radians
        let dLon = (b.1 - a.1) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * radians) * cos(b.0 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371 * asin(min(1, h.squareRoot()))
    }
}
