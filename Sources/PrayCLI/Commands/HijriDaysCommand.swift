import Foundation
import PrayCore

/// `praykit hijri days`: the Hijri dates of a run of civil days, or, with `--at`, the Islamic date at
/// a local time and place (the Islamic day begins at maghrib).
struct HijriDaysCommand: Command {
    static let name = "days"
    static let abstract = "Print the Hijri dates of civil days (the default of 'praykit hijri')."
    static let examples = [
        "praykit hijri days --date 2026-11-29 --days 7",
        "praykit hijri days --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --at 18:30",
    ]

    static let date = Option<CivilDate>(
        "date", value: "YYYY-MM-DD", help: "First civil day.", default: "today in the zone")
    static let days = Option<Int>("days", value: "n", help: "Number of consecutive days (1…60000).", default: "1")
    static let latitude = Option<Double>(
        "lat", value: "deg", help: "Latitude, with --lon and --at: the day begins at maghrib there.")
    static let longitude = Option<Double>("lon", value: "deg", help: "Longitude, with --lat and --at.")
    static let at = Option<String>(
        "at", value: "HH:MM", help: "Local time on --date: the Islamic date at --lat/--lon (or the saved place) then.")

    static let options: [any OptionDefinition] =
        [date, days, latitude, longitude, PlaceOptions.timeZone, at] + HijriQuery.options

    private enum Mode {
        case days(HijriAPI.Request)
        case islamicDay(Date, HijriAPI.Place)
    }

    private let mode: Mode
    private let query: HijriQuery

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        let saved = try context.preferences()
        query = try HijriQuery(arguments, saved: saved, context: context)
        let count = try arguments.value(Self.days) ?? 1
        guard (1...HijriAPI.Request.maximumDays).contains(count) else {
            throw context.usage("--days must be between 1 and \(HijriAPI.Request.maximumDays), got \(count)")
        }
        if let text = arguments.text(Self.at) {
            guard !arguments.isGiven(Self.days) else { throw context.usage("--days does not go with --at") }
            let place = try await PlaceOptions.place(arguments, saved: saved, context: context)
            let date =
                try arguments.value(Self.date) ?? LocalClock(timeZone: place.timeZone).components(context.now).day
            let parameters = try PlaceOptions.parameters(
                arguments, saved: saved, context: context, choice: place.method)
            mode = .islamicDay(
                try Self.instant(text, on: date, in: place.timeZone, context: context),
                HijriAPI.Place(
                    coordinates: place.coordinates, timeZone: place.timeZone, parameters: parameters,
                    calendar: query.calendar, offset: query.offset))
        } else {
            if arguments.isGiven(Self.latitude) || arguments.isGiven(Self.longitude) {
                throw context.usage("--lat and --lon go with --at")
            }
            let (zone, _) = try PlaceOptions.zone(
                arguments.value(PlaceOptions.timeZone), saved: saved[.timeZone], context: context)
            let date = try arguments.value(Self.date) ?? LocalClock(timeZone: zone).components(context.now).day
            mode = .days(HijriAPI.Request(date: date, days: count, calendar: query.calendar, offset: query.offset))
        }
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let service = context.dependency.hijriService()
        switch mode {
        case .days(let request):
            try query.write(try query.call(context) { try service.days(for: request) }, to: context.output)
        case .islamicDay(let instant, let place):
            let result: HijriAPI.IslamicDay
            do {
                result = try await service.islamicDay(at: instant, place: place)
            } catch {
                throw CLIError(error, command: context.commandPath)
            }
            try write(result, zone: place.timeZone, to: context.output)
        }
    }

    private func write(_ result: HijriAPI.IslamicDay, zone: TimeZone, to output: OutputSink) throws(CLIError) {
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

    /// The instant of `HH:MM` on `date` in `zone`.
    private static func instant(
        _ text: String, on date: CivilDate, in zone: TimeZone, context: CommandContext
    ) throws(CLIError) -> Date {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { throw context.usage("--at must look like HH:MM (24-hour), got '\(text)'") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute)
        guard let instant = calendar.date(from: components),
            calendar.dateComponents([.hour, .minute], from: instant) == DateComponents(hour: hour, minute: minute)
        else {
            throw context.usage("\(date) \(text) does not exist in \(zone.identifier) (its clocks skip it)")
        }
        return instant
    }
}
