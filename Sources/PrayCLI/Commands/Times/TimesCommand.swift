import PrayCore
import PrayKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit times`: prayer times for a place and a run of days.
enum TimesCommand: Command {
    static let name = "times"
    static let abstract = "Print prayer times for a place and one or more days."
    static let discussion = """
        Options not given come from 'praykit config' when set there (a saved value that does not apply
        to the method in use is ignored; --log-level info says so). A time that a rule held back to
        keep the day in order is marked '*'; a time on the day before or after is marked -1 or +1.
        With 'praykit config set fast-suggestions on', the days suggested for a voluntary fast are listed
        after the table (a fastSuggestion per day in JSON and CSV; see 'praykit fast').
        """
    static let examples = [
        "praykit times --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --method umm-al-qura",
        "praykit times --lat 51.5074 --lon -0.1278 --date 2026-06-21 --days 7 --format json",
        "praykit times --lat 31.5 --lon 35.4 --elevation -430 --method 3",
        "praykit times --city Istanbul --extra",
        "praykit times --city Jakarta --ramadan",
    ]

    static let date = Option<Day?>(
        "date", value: "day", help: "First day: YYYY-MM-DD, today, tomorrow, yesterday, +N or -N.",
        defaultText: "today in the zone")
    static let days = Option("days", value: "n", help: "Number of consecutive days.", default: 1, range: 1...3660)
    static let ramadan = Flag(
        "ramadan",
        help:
            "The month of Ramadan that contains or follows --date: suhoor's end, fajr, iftar, isha, the fast's length.")
    static let format = Option<OutputFormat>.format([.table, .json, .csv])
    static let clock = Option<ClockStyle?>(
        "clock", value: "style", help: "Clock times in tables.", defaultText: "24h, or the saved clock")
    static let hijriCalendar = Option<HijriCalendar?>(
        "hijri-calendar", value: "name", help: "Calendar of the Hijri dates shown (and of Ramadan).",
        defaultText: "umm-al-qura, or the saved hijri-calendar")
    static let hijriOffset = Option<Int?>(
        "hijri-offset", value: "days",
        help: "Hijri day offset for local sighting (not for months with an announced start).",
        defaultText: "0, or the saved hijri-offset", range: HijriAPI.offsets)

    /// Where times come from.
    enum Source: String, CaseIterable, ArgumentValue {
        case calculated
        case aladhan
        case london
    }

    static let source = Option(
        "source", value: "name", help: "Where the times come from: calculated here, or a published timetable.",
        default: Source.calculated)
    static let apiURL = Option<String?>(
        "api-url", value: "URL", help: "The timetable server (https).",
        defaultText: RemoteTimetable.Provider.allCases.map(\.defaultBaseURL.absoluteString).joined(separator: " or "))
    static let apiKeyFile = Option<String?>(
        "api-key-file", value: "path",
        help: "A file holding the timetable's API key (London), readable by you alone (chmod 600).",
        defaultText: "$PRAYKIT_API_KEY", completion: .file)
    /// Declared so that it is refused with a way out: any user of the machine can read a command line.
    static let apiKey = Option<String?>(
        "api-key", value: "key",
        help: "Refused (other users can read a command line): use --api-key-file or PRAYKIT_API_KEY.")
    static let timeout = Option(
        "timeout", value: "seconds", help: "Give up on the timetable server after this long per attempt.",
        default: 10.0, range: 1...300, unit: "seconds")
    static let offline = Flag("offline", help: "Serve the published timetable from the cache only; never connect.")

    static let options: [any OptionDefinition] =
        PlaceOptions.place + [date, days, ramadan] + PlaceOptions.calculation + ExtraTimeOptions.all + [
            format, clock, hijriCalendar, hijriOffset, source, apiURL, apiKeyFile, apiKey, timeout, offline,
        ]

    static func configure(
        _ configuration: inout PrayDependency.Configuration, _ arguments: ParsedArguments, environment: [String: String]
    ) throws {
        configuration.remoteTimetable = try remote(arguments, environment: environment)
        let seconds = arguments[timeout]
        configuration.network.totalTimeout = seconds
        configuration.network.connectTimeout = min(seconds, configuration.network.connectTimeout)
        configuration.network.retryBudget = min(configuration.network.retryBudget, seconds * 2)
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        if arguments[ramadan] { return try await runRamadan(arguments, context: context) }
        let calculation = try await PlaceOptions.calculation(
            arguments, context: context, date: arguments[date], days: arguments[days],
            hijriCalendar: arguments[hijriCalendar], hijriOffset: arguments[hijriOffset])
        var request = calculation.request
        let extra = try ExtraTimeOptions.settings(arguments)
        request.extraTimes = extra
        let remote = try remote(arguments, environment: context.environment)
        if extra != nil, remote != nil {
            throw CLIError.usage("--extra times are calculated here: use it with --source calculated")
        }
        let response = try await prayerTimes(for: request, from: remote, context: context)
        // The Hijri date of each day's daytime; a failure here loses only that column.
        let hijri = try? context.dependency.hijriService().following(request.hijriMonthStarts).days(
            for: HijriAPI.Request(
                date: request.date, days: request.days, calendar: request.hijriCalendar, offset: request.hijriOffset))
        let style = try arguments[clock] ?? context.preferences()[.clock].flatMap(ClockStyle.init(rawValue:))
        let output = TimesOutput(
            request: request, response: response, place: calculation.place, method: calculation.method,
            hijri: hijri ?? [], clock12Hour: style == .twelveHour, iqama: calculation.iqama, extra: extra,
            fastSuggestions: FastCommand.suggestions(
                from: request.date, count: request.days, request: request, context: context),
            mosqueSource: MosqueSource.line(response.schedules, context: context))
        switch arguments[format] {
        case .json: try output.writeJSON(to: context.output)
        case .csv: try output.writeCSV(to: context.output)
        default: try output.writeTable(to: context.output)
        }
    }

    /// The times of `request`, calculated, or from the published timetable `remote` when it serves
    /// the place.
    /// - Throws: ``CLIError`` (usage) for a timetable that does not serve the place; what the
    ///   service throws.
    private static func prayerTimes(
        for request: PrayerAPI.Request, from remote: RemoteTimetable?, context: CommandContext
    ) async throws -> PrayerAPI.Response {
        if let remote {
            do {
                try remote.checkServes(request.coordinates)
            } catch {
                throw CLIError.usage(error.message + "; use --source calculated or aladhan here")
            }
        }
        let service = remote == nil ? context.dependency.prayerService() : context.dependency.remotePrayerService()
        return try await service.prayerTimes(for: request)
    }

    /// `--ramadan`: the Ramadan that contains or follows `--date` (today), by the Hijri calendar and
    /// offset of the options or the saved ones.
    private static func runRamadan(_ arguments: ParsedArguments, context: CommandContext) async throws {
        for option in [days, ExtraTimeOptions.extra] as [any OptionDefinition] where arguments.isGiven(option) {
            throw CLIError.usage("--\(option.name) does not go with --ramadan, which shows the whole month")
        }
        let calculation = try await PlaceOptions.calculation(
            arguments, context: context, date: arguments[date], hijriCalendar: arguments[hijriCalendar],
            hijriOffset: arguments[hijriOffset])
        var request = calculation.request
        let hijri = context.dependency.hijriService().following(request.hijriMonthStarts)
        guard
            let today = try hijri.days(
                for: HijriAPI.Request(
                    date: request.date, days: 1, calendar: request.hijriCalendar, offset: request.hijriOffset)
            ).first
        else { throw CLIError.runtime("no Hijri date for \(request.date)") }
        let year = today.hijri.year + (today.hijri.monthNumber > HijriMonth.ramadan.rawValue ? 1 : 0)
        let month = try hijri.month(.ramadan, of: year, calendar: request.hijriCalendar, offset: request.hijriOffset)
        guard let first = month.first else { throw CLIError.runtime("no days of Ramadan \(year)") }
        request.date = first.gregorian
        request.days = month.count
        let remote = try remote(arguments, environment: context.environment)
        let response = try await prayerTimes(for: request, from: remote, context: context)
        let style = try arguments[clock] ?? context.preferences()[.clock].flatMap(ClockStyle.init(rawValue:))
        let output = RamadanOutput(
            request: request, schedules: response.schedules, days: month, place: calculation.place,
            method: calculation.method, clock12Hour: style == .twelveHour)
        switch arguments[format] {
        case .json: try output.writeJSON(to: context.output)
        case .csv: try output.writeCSV(to: context.output)
        default: try output.writeTable(to: context.output)
        }
    }

    /// The published timetable of `--source`, `--api-url` and `--api-key-file` (or `$PRAYKIT_API_KEY`).
    /// - Throws: ``CLIError`` (usage) for timetable options without a timetable, a bad URL, a missing
    ///   key or a key on the command line (`--api-key`); (runtime) for a key file others can read.
    static func remote(_ arguments: ParsedArguments, environment: [String: String]) throws -> RemoteTimetable? {
        if arguments.isGiven(apiKey) {
            throw CLIError.usage(
                "--api-key is refused: every user of this machine can read a command line (/proc/<pid>/cmdline), so "
                    + "that key is no longer secret; put the key in PRAYKIT_API_KEY, or in a file only you can read "
                    + "(chmod 600) given with --api-key-file")
        }
        let provider: RemoteTimetable.Provider
        switch arguments[source] {
        case .calculated:
            for option in [apiURL, apiKeyFile, timeout, offline] as [any OptionDefinition]
            where arguments.isGiven(option) {
                throw CLIError.usage("--\(option.name) goes with --source aladhan or london")
            }
            return nil
        case .aladhan: provider = .aladhan
        case .london: provider = .london
        }
        var timetable = RemoteTimetable(provider, cacheOnly: arguments[offline])
        if let text = arguments[apiURL] {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else { throw CLIError.usage("--api-url must be an http or https URL, got '\(text)'") }
            timetable.baseURL = url
        }
        timetable.apiKey =
            try arguments[apiKeyFile].map { try SecretFile.read($0, what: "the API key file") }
            ?? environment["PRAYKIT_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if provider.needsAPIKey, timetable.apiKey == nil {
            throw CLIError.usage("the London timetable needs --api-key-file or PRAYKIT_API_KEY")
        }
        return timetable
    }
}
