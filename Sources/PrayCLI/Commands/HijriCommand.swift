import Foundation
import PrayCore

/// `praykit hijri`: Hijri dates of civil days (`days`, the default), the civil date of a Hijri date
/// (`convert`), a Hijri month (`month`), the next notable day (`notable`). The flags of the first
/// version (`--to-gregorian`, `--month`, `--next-notable`) keep working.
struct HijriCommand: Command {
    static let name = "hijri"
    static let abstract = "Print Hijri dates (Umm al-Qura or tabular) and notable days."
    static let discussion = """
        The Umm al-Qura calendar follows the official table for 1343–1500 AH (1924-08-01 to 2077-11-16);
        outside it the tabular calendar continues from the table's edge, and with --calendar civil the
        tabular calendar is used throughout; the output says so. Without a verb, 'hijri' is 'hijri days'.
        """
    static let examples = [
        "praykit hijri --date 2026-11-29 --days 7",
        "praykit hijri convert 1448-09-01",
        "praykit hijri month 1448-09 --format json",
        "praykit hijri days --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --at 18:30",
    ]
    static let subcommands: [any Command.Type] = [
        HijriDaysCommand.self, HijriConvertCommand.self, HijriMonthCommand.self, HijriNotableCommand.self,
    ]
    static let runsWithoutSubcommand = true

    static let toGregorian = Option<String>(
        "to-gregorian", value: "YYYY-MM-DD", help: "The civil date of this Hijri date (as 'hijri convert').")
    static let month = Option<String>(
        "month", value: "YYYY-MM", help: "Every day of this Hijri month (as 'hijri month').")
    static let nextNotable = Flag("next-notable", help: "The first notable day after --date (as 'hijri notable').")

    static let options: [any OptionDefinition] =
        HijriDaysCommand.options.filter { $0.name != "format" } + [toGregorian, month, nextNotable, HijriQuery.format]

    private let verb: any Command

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        let modes: [any OptionDefinition] = [Self.toGregorian, Self.month, Self.nextNotable, HijriDaysCommand.at]
        let chosen = modes.filter(arguments.isGiven)
        guard chosen.count <= 1 else {
            throw context.usage("use only one of " + chosen.map { "--" + $0.name }.joined(separator: ", "))
        }
        if let text = arguments.text(Self.toGregorian) {
            try Self.refuse([HijriDaysCommand.date, HijriDaysCommand.days], with: "--to-gregorian", arguments, context)
            verb = try HijriConvertCommand(hijri: text, arguments: arguments, context: context)
        } else if let text = arguments.text(Self.month) {
            try Self.refuse([HijriDaysCommand.date, HijriDaysCommand.days], with: "--month", arguments, context)
            verb = try HijriMonthCommand(month: text, arguments: arguments, context: context)
        } else if arguments.has(Self.nextNotable) {
            try Self.refuse([HijriDaysCommand.days], with: "--next-notable", arguments, context)
            verb = try await HijriNotableCommand(arguments, context: context)
        } else {
            verb = try await HijriDaysCommand(arguments, context: context)
        }
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        try await verb.run(context)
    }

    /// Refuses options that mean nothing with `mode`.
    private static func refuse(
        _ options: [any OptionDefinition], with mode: String, _ arguments: ParsedArguments, _ context: CommandContext
    ) throws(CLIError) {
        if let given = options.first(where: arguments.isGiven) {
            throw context.usage("--\(given.name) does not go with \(mode)")
        }
    }
}

/// What the Hijri verbs share: the calendar, the offset, the format, and how days are shown.
struct HijriQuery {
    static let calendar = Option<HijriCalendar>(
        "calendar", value: "name", help: "Hijri calendar.", default: "umm-al-qura, or the saved hijri-calendar")
    static let offset = Option<Int>(
        "offset", value: "days", help: "Days to add for local moon sighting (-2…2).",
        default: "0, or the saved hijri-offset")
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [calendar, offset, format]

    let calendar: HijriCalendar
    let offset: Int
    let format: OutputFormat

    /// Reads `--calendar`, `--offset` and `--format`, with the saved calendar and offset.
    init(_ arguments: ParsedArguments, saved: Preferences, context: CommandContext) throws(CLIError) {
        calendar =
            try arguments.value(Self.calendar) ?? saved[.hijriCalendar].flatMap(HijriCalendar.init(rawValue:))
            ?? .ummAlQura
        offset = try arguments.value(Self.offset) ?? saved[.hijriOffset].flatMap { Int($0) } ?? 0
        guard (-2...2).contains(offset) else { throw context.usage("--offset must be between -2 and 2, got \(offset)") }
        format = try arguments.value(Self.format) ?? .table
    }

    /// Runs a service call, turning its errors into the tool's.
    func call<T>(_ context: CommandContext, _ body: () throws -> T) throws(CLIError) -> T {
        do { return try body() } catch { throw CLIError(error, command: context.commandPath) }
    }

    /// The JSON object of one day (the contract of `praykit hijri --format json`).
    static func json(_ day: HijriDay) -> JSON {
        .object([
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
            (
                "notableDays",
                .array(
                    day.notableDays.map {
                        .object([
                            ("id", .string($0.kind.rawValue)), ("name", .string($0.name)),
                            ("nameArabic", .string($0.arabicName)),
                            ("observedTheEveningBefore", .bool($0.kind.isObservedTheEveningBefore)),
                        ])
                    })
            ),
        ])
    }

    /// Writes days as a table or a JSON array.
    func write(_ days: [HijriDay], to output: OutputSink) throws(CLIError) {
        if format == .json { return try JSON.writeArray(days.lazy.map(Self.json), to: output) }
        try output.write(header + "\n\n")
        var rows = [["Gregorian", "Weekday", "Hijri", "Date", "Month", "Notable"]]
        var eveningBefore = false
        for day in days {
            var notes = day.notableDays.map { notable in
                notable.kind.isObservedTheEveningBefore ? notable.name + " (the night before)" : notable.name
            }
            eveningBefore = eveningBefore || day.notableDays.contains { $0.kind.isObservedTheEveningBefore }
            if day.isTabular, calendar == .ummAlQura { notes.append("(tabular)") }
            rows.append([
                day.gregorian.description, day.weekday, day.hijri.description,
                "\(day.hijri.day) \(day.hijri.monthName) \(day.hijri.year)",
                "\(day.hijri.monthNameArabic), \(day.monthLength) days", notes.joined(separator: ", "),
            ])
        }
        try output.write(Table.render(rows))
        if eveningBefore {
            try output.write(
                "\nThe Islamic day begins at maghrib: a night marked 'the night before' is kept from the maghrib of "
                    + "the previous civil day.\n")
        }
    }

    private var header: String {
        "Calendar: \(calendar == .ummAlQura ? "Umm al-Qura" : "tabular (civil)")"
            + (offset == 0 ? "" : ", offset \(offset > 0 ? "+" : "")\(offset) day\(abs(offset) == 1 ? "" : "s")")
    }
}
