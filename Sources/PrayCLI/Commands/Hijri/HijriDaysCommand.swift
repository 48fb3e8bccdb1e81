import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit hijri days`: the Hijri dates of a run of civil days, or, with `--at`, the Islamic date at
/// a local time and place (the Islamic day begins at maghrib).
enum HijriDaysCommand: Command {
    static let name = "days"
    static let abstract = "Print the Hijri dates of civil days (the default of 'praykit hijri')."
    static let examples = [
        "praykit hijri days --date 2026-11-29 --days 7",
        "praykit hijri days --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --at 18:30",
    ]

    static let date = Option<Day?>(
        "date", value: "day", help: "First civil day: YYYY-MM-DD, today, tomorrow, +N or -N.",
        defaultText: "today in the zone")
    static let days = Option(
        "days", value: "n", help: "Number of consecutive days.", default: 1, range: 1...HijriAPI.Request.maximumDays)
    static let latitude = Option<Double?>(
        "lat", value: "deg", help: "Latitude, with --lon and --at: the day begins at maghrib there.", range: -90...90,
        unit: "degrees")
    static let longitude = Option<Double?>(
        "lon", value: "deg", help: "Longitude, with --lat and --at.", range: -180...180, unit: "degrees")
    static let at = Option<ClockTime?>(
        "at", value: "HH:MM", help: "Local time on --date: the Islamic date at --lat/--lon (or the saved place) then.")

    // The flags of the first version, each the same as a verb.
    static let toGregorian = Option<HijriDate?>(
        "to-gregorian", value: "YYYY-MM-DD", help: "The civil date of this Hijri date (as 'hijri convert').")
    static let month = Option<YearMonth?>(
        "month", value: "YYYY-MM", help: "Every day of this Hijri month (as 'hijri month').")
    static let nextNotable = Flag("next-notable", help: "The first notable day after --date (as 'hijri notable').")

    static let options: [any OptionDefinition] =
        [date, days, latitude, longitude, PlaceOptions.timeZone, at] + HijriQuery.options
        + [toGregorian, month, nextNotable]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let modes: [any OptionDefinition] = [toGregorian, month, nextNotable, at]
        let chosen = modes.filter(arguments.isGiven)
        guard chosen.count <= 1 else {
            throw CLIError.usage("use only one of " + chosen.map { "--" + $0.name }.joined(separator: ", "))
        }
        func refuse(_ options: [any OptionDefinition], with mode: String) throws {
            if let given = options.first(where: arguments.isGiven) {
                throw CLIError.usage("--\(given.name) does not go with \(mode)")
            }
        }
        if let hijri = arguments[toGregorian] {
            try refuse([date, days], with: "--to-gregorian")
            return try HijriConvertCommand.convert(.hijri(hijri), arguments: arguments, context: context)
        }
        if let month = arguments[month] {
            try refuse([date, days], with: "--month")
            return try HijriMonthCommand.show(month, arguments: arguments, context: context)
        }
        if arguments[nextNotable] {
            try refuse([days], with: "--next-notable")
            return try await HijriNotableCommand.run(arguments, context: context)
        }
        let query = HijriQuery(arguments, choice: try context.hijriChoice())
        let service = context.dependency.hijriService().following(query.starts)
        guard let time = arguments[at] else {
            if arguments.isGiven(latitude) || arguments.isGiven(longitude) {
                throw CLIError.usage("--lat and --lon go with --at")
            }
            let zone = try PlaceOptions.zone(arguments, option: PlaceOptions.timeZone, context: context)
            let today = try CivilDate(containing: context.now, in: zone)
            let start = arguments[date]?.day(today: today) ?? today
            let request = HijriAPI.Request(
                date: start, days: arguments[days], calendar: query.calendar, offset: query.offset)
            return try query.write(try service.days(for: request), to: context.output)
        }
        guard !arguments.isGiven(days) else { throw CLIError.usage("--days does not go with --at") }
        let calculation = try await PlaceOptions.calculation(arguments, context: context, date: arguments[date])
        let place = calculation.place
        let result = try await service.islamicDay(
            at: try instant(time, on: calculation.request.date, in: place.zone),
            place: HijriAPI.Place(
                coordinates: place.coordinates, timeZone: place.timeZone, parameters: calculation.request.parameters,
                calendar: query.calendar, offset: query.offset))
        try write(result, query: query, zone: place.timeZone, to: context.output)
    }

    private static func write(
        _ result: HijriAPI.IslamicDay, query: HijriQuery, zone: TimeZone, to output: OutputSink
    ) throws(CLIError) {
        let clock = LocalClock(timeZone: zone)
        if query.format == .json {
            guard case .object(var members) = HijriQuery.json(result.day) else { return }
            members.append(("civilDate", .string(result.civilDate.description)))
            members.append(("maghrib", .string(result.maghrib.map(clock.iso8601))))
            members.append(("afterMaghrib", .bool(result.isAfterMaghrib)))
            return try output.write(JSON.object(members).rendered() + "\n")
        }
        try query.write([result.day], to: output)
        let maghrib = result.maghrib.map { "maghrib at \(clock.time($0, withSeconds: false))" } ?? "no maghrib that day"
        let when = result.isAfterMaghrib ? "after" : "before"
        try output.write(
            "\n\(result.civilDate), \(maghrib): the time asked is \(when) maghrib, so the Hijri date is \(result.day.hijri).\n"
        )
    }

    /// The instant of `time` on `date` in `zone`.
    /// - Throws: ``CLIError`` (usage) for a time the zone's clocks skip.
    private static func instant(_ time: ClockTime, on date: CivilDate, in zone: TimeZoneName) throws -> Date {
        guard let instant = WallClock.instant(of: date, hour: time.hour, minute: time.minute, in: zone) else {
            throw CLIError.usage(
                "\(date) \(time.argumentDescription) does not exist in \(zone.identifier) (its clocks skip it)")
        }
        return instant
    }
}
