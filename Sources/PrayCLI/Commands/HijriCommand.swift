import Foundation
import PrayCore

/// `praykit hijri`: Hijri dates of civil days, the civil date of a Hijri date, a Hijri month, the next
/// notable day, or the Islamic date at a time and place (the day begins at maghrib).
struct HijriCommand {
    static let name = "hijri"
    static let overview = "Print Hijri dates (Umm al-Qura or tabular) and notable days."
    static let usage = "praykit hijri [--date <YYYY-MM-DD>] [--days <n>] [options]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "date", value: "YYYY-MM-DD", help: "First civil day.", defaultText: "today in the zone"),
        OptionSpec(name: "days", value: "n", help: "Number of consecutive days (1…60000).", defaultText: "1"),
        OptionSpec(name: "to-gregorian", value: "YYYY-MM-DD", help: "Convert this Hijri date to its civil date."),
        OptionSpec(name: "month", value: "YYYY-MM", help: "Every day of this Hijri month."),
        OptionSpec(name: "next-notable", value: nil, help: "The first notable day after --date."),
        OptionSpec(
            name: "calendar", value: "name", help: "Hijri calendar.", choices: HijriCalendar.allCases.map(\.rawValue),
            defaultText: "umm-al-qura"
        ),
        OptionSpec(
            name: "offset", value: "days", help: "Days to add for local moon sighting (-2…2).", defaultText: "0"),
        OptionSpec(name: "lat", value: "deg", help: "Latitude, with --lon and --at: the day begins at maghrib there."),
        OptionSpec(name: "lon", value: "deg", help: "Longitude, with --lat and --at."),
        .timeZone("Time zone of the days."),
        OptionSpec(name: "at", value: "HH:MM", help: "Local time on --date for the Islamic date at --lat/--lon."),
        .format(["table", "json"]),
    ]

    static var help: String {
        HelpText.render(
            overview: overview, usage: usage, options: options,
            footer: """
                The Umm al-Qura calendar follows the official table for 1343–1500 AH (1924-08-01 to
                2077-11-16); outside it, and with --calendar civil, the tabular calendar is used and the
                output says so.

                EXAMPLES:
                  praykit hijri --date 2026-11-29 --days 7
                  praykit hijri --to-gregorian 1448-09-01
                  praykit hijri --month 1448-09 --format json
                  praykit hijri --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --at 18:30
                """
        )
    }

    enum Mode {
        case days(HijriAPI.Request)
        case toGregorian(HijriDate)
        case month(year: Int, month: HijriMonth)
        case nextNotable(CivilDate)
        case islamicDay(Date, HijriAPI.Place)
    }

    let mode: Mode
    let calendar: HijriCalendar
    let offset: Int
    let format: String

    /// Reads the command line; stored preferences fill `--calendar`, `--offset` and `--tz`, and the
    /// place when `--at` is given.
    init(
        _ given: ParsedArguments, preferences: [String: String] = [:], environment: [String: String], now: Date
    ) throws(CLIError) {
        func fail(_ message: String) -> CLIError { .usage(message, command: Self.name) }
        var defaults = [
            "calendar": preferences["hijri-calendar"], "offset": preferences["hijri-offset"], "tz": preferences["tz"],
        ]
        if given["at"] != nil { (defaults["lat"], defaults["lon"]) = (preferences["lat"], preferences["lon"]) }
        let arguments = given.filling(defaults.compactMapValues { $0 })
        calendar = try CommandValues.choice(arguments, "calendar", HijriCalendar.self, command: Self.name) ?? .ummAlQura
        offset = try CommandValues.integer(arguments, "offset", command: Self.name) ?? 0
        guard (-2...2).contains(offset) else { throw fail("--offset must be between -2 and 2, got \(offset)") }
        format = try CommandValues.format(arguments["format"], allowed: ["table", "json"], command: Self.name)
        let (zone, _) = try CommandValues.zone(arguments["tz"], environment: environment, command: Self.name)
        let date =
            try CommandValues.date(arguments, "date", command: Self.name)
            ?? LocalClock(timeZone: zone).components(now).day
        let days = try CommandValues.integer(arguments, "days", command: Self.name) ?? 1
        guard (1...HijriAPI.Request.maximumDays).contains(days) else {
            throw fail("--days must be between 1 and \(HijriAPI.Request.maximumDays), got \(days)")
        }
        let chosen =
            ["to-gregorian", "month", "at"].filter { arguments[$0] != nil }
            + (arguments.has("next-notable") ? ["next-notable"] : [])
        guard chosen.count <= 1 else { throw fail("use only one of --\(chosen.joined(separator: ", --"))") }
        if let text = arguments["to-gregorian"] {
            do { mode = .toGregorian(try HijriDate(parsing: text)) } catch { throw fail(error.message) }
        } else if let text = arguments["month"] {
            mode = try Self.month(text)
        } else if arguments.has("next-notable") {
            mode = .nextNotable(date)
        } else if let text = arguments["at"] {
            let coordinates = try CommandValues.coordinates(arguments, command: Self.name)
            let instant = try Self.instant(text, on: date, in: zone)
            mode = .islamicDay(
                instant, HijriAPI.Place(coordinates: coordinates, timeZone: zone, calendar: calendar, offset: offset))
        } else {
            if given["lat"] != nil || given["lon"] != nil { throw fail("--lat and --lon go with --at") }
            mode = .days(HijriAPI.Request(date: date, days: days, calendar: calendar, offset: offset))
        }
    }

    func run(service: any HijriService) async throws(CLIError) -> String {
        do {
            switch mode {
            case .days(let request): return render(try service.days(for: request))
            case .toGregorian(let date): return render([try service.day(of: date, calendar: calendar, offset: offset)])
            case .month(let year, let month):
                return render(try service.month(month, of: year, calendar: calendar, offset: offset))
            case .nextNotable(let date):
                return render([
                    try service.nextNotableDay(
                        after: date, kinds: Set(NotableDay.Kind.allCases), calendar: calendar, offset: offset)
                ])
            case .islamicDay(let instant, let place):
                return render(try await service.islamicDay(at: instant, place: place), zone: place.timeZone)
            }
        } catch let error as HijriError {
            switch error.kind {
            case .invalidDate, .invalidOffset: throw .usage(error.message, command: Self.name)
            case .outOfRange: throw .runtime(error.message)
            }
        } catch let error as ValidationError {
            throw .usage(error.message, command: Self.name)
        } catch {
            throw .runtime("\(error)")
        }
    }

    // MARK: - Output

    /// The JSON object of one day (the contract of `praykit hijri --format json`).
    static func json(_ day: HijriDay) -> JSON {
        var members: [(String, JSON)] = [
            ("gregorian", .string(day.gregorian.description)),
            (
                "hijri",
                .object([
                    ("year", .int(day.hijri.year)), ("month", .int(day.hijri.monthNumber)),
                    ("day", .int(day.hijri.day)),
                    ("monthName", .string(day.hijri.monthName)),
                    ("monthNameArabic", .string(day.hijri.monthNameArabic)),
                    ("weekday", .string(day.weekday)), ("weekdayArabic", .string(day.weekdayArabic)),
                    ("monthLength", .int(day.monthLength)), ("date", .string(day.hijri.description)),
                ])
            ),
            ("calendar", .string(day.calendar.rawValue)),
            ("tabular", .bool(day.isTabular)),
            ("offset", .int(day.offset)),
        ]
        members.append(
            (
                "notableDays",
                .array(
                    day.notableDays.map {
                        .object([
                            ("id", .string($0.kind.rawValue)), ("name", .string($0.name)),
                            ("nameArabic", .string($0.arabicName)),
                        ])
                    })
            ))
        return .object(members)
    }

    private func render(_ days: [HijriDay]) -> String {
        if format == "json" { return JSON.array(days.map(Self.json)).rendered() + "\n" }
        var rows = [["Gregorian", "Weekday", "Hijri", "Date", "Month", "Notable"]]
        for day in days {
            let notes = day.notableDays.map(\.name) + (day.isTabular && calendar == .ummAlQura ? ["(tabular)"] : [])
            rows.append([
                day.gregorian.description, day.weekday, day.hijri.description,
                "\(day.hijri.day) \(day.hijri.monthName) \(day.hijri.year)",
                "\(day.hijri.monthNameArabic), \(day.monthLength) days", notes.joined(separator: ", "),
            ])
        }
        let header =
            "Calendar: \(calendar == .ummAlQura ? "Umm al-Qura" : "tabular (civil)")"
            + (offset == 0 ? "" : ", offset \(offset > 0 ? "+" : "")\(offset) day\(abs(offset) == 1 ? "" : "s")")
        return header + "\n\n" + Table.render(rows)
    }

    private func render(_ result: HijriAPI.IslamicDay, zone: TimeZone) -> String {
        let clock = LocalClock(timeZone: zone)
        if format == "json" {
            guard case .object(var members) = Self.json(result.day) else { return "" }
            members.append(("civilDate", .string(result.civilDate.description)))
            members.append(("maghrib", .string(result.maghrib.map(clock.iso8601))))
            members.append(("afterMaghrib", .bool(result.isAfterMaghrib)))
            return JSON.object(members).rendered() + "\n"
        }
        let maghrib = result.maghrib.map { "maghrib at \(clock.time($0, withSeconds: false))" } ?? "no maghrib that day"
        let when = result.isAfterMaghrib ? "after" : "before"
        return render([result.day])
            + "\n\(result.civilDate), \(maghrib): the time asked is \(when) maghrib, so the Hijri date is \(result.day.hijri).\n"
    }

    // MARK: - Parsing

    private static func month(_ text: String) throws(CLIError) -> Mode {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let number = Int(parts[1]), year >= 1,
            let month = HijriMonth(rawValue: number)
        else {
            throw .usage("--month must look like YYYY-MM with a month from 01 to 12, got '\(text)'", command: name)
        }
        return .month(year: year, month: month)
    }

    private static func instant(_ text: String, on date: CivilDate, in zone: TimeZone) throws(CLIError) -> Date {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour),
            (0...59).contains(minute)
        else { throw .usage("--at must look like HH:MM (24-hour), got '\(text)'", command: name) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute)
        guard let instant = calendar.date(from: components) else {
            throw .usage("\(date) \(text) does not exist in \(zone.identifier)", command: name)
        }
        return instant
    }
}
