import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit hijri`: Hijri dates of civil days (`days`, the default), the civil date of a Hijri date
/// (`convert`), a Hijri month (`month`), the next notable day (`notable`). The flags of the first
/// version (`--to-gregorian`, `--month`, `--next-notable`) keep working, as options of `days`.
enum HijriCommand: CommandGroup {
    static let name = "hijri"
    static let abstract = "Print Hijri dates (Umm al-Qura or tabular) and notable days."
    static let discussion = """
        The Umm al-Qura calendar follows the official table for 1343–1500 AH (1924-08-01 to 2077-11-16);
        outside it the tabular calendar continues from the table's edge, and with --calendar civil the
        tabular calendar is used throughout; the output says so. Without a verb, 'hijri' is 'hijri days'.
        Where a month's start was announced ('hijri set-start', 'hijri import-starts'), every command
        counts that month's days from the announced day, and the offset does not apply to that month.
        """
    static let examples = [
        "praykit hijri --date 2026-11-29 --days 7",
        "praykit hijri convert 1448-09-01",
        "praykit hijri month 1448-09 --format json",
        "praykit hijri days --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --at 18:30",
        "praykit hijri set-start 1448-09 2027-02-07",
    ]
    static let subcommands: [any CommandNode.Type] = [
        HijriDaysCommand.self, HijriConvertCommand.self, HijriMonthCommand.self, HijriNotableCommand.self,
        HijriSetStartCommand.self, HijriUnsetStartCommand.self, HijriStartsCommand.self, HijriImportStartsCommand.self,
        HijriExportStartsCommand.self,
    ]
    static let defaultSubcommand: (any Command.Type)? = HijriDaysCommand.self
}

/// What the Hijri verbs share: the calendar, the offset, the format, and how days are shown.
struct HijriQuery {
    static let calendar = Option<HijriCalendar?>(
        "calendar", value: "name", help: "Hijri calendar.", defaultText: "umm-al-qura, or the saved hijri-calendar")
    static let offset = Option<Int?>(
        "offset", value: "days", help: "Days to add for local moon sighting (not for months with an announced start).",
        defaultText: "0, or the saved hijri-offset", range: HijriAPI.offsets)
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [calendar, offset, format]

    let calendar: HijriCalendar
    let offset: Int
    let format: OutputFormat
    /// The announced month starts: the person's (`hijri set-start`) and the chosen mosque's.
    let starts: HijriMonthStarts
    /// The chosen mosque whose calendar this is, if any (not when `--calendar` or `--offset` chose another).
    let mosque: String?

    /// Reads `--calendar`, `--offset` and `--format`, over the calendar, offset and month starts the
    /// person follows (the chosen mosque's, else the saved ones).
    init(_ arguments: ParsedArguments, choice: HijriCalendarChoice) {
        calendar = arguments[Self.calendar] ?? choice.calendar
        offset = arguments[Self.offset] ?? choice.offset
        format = arguments[Self.format]
        starts = choice.starts
        // The calendar is the mosque's only when no option chose another.
        mosque = arguments.isGiven(Self.calendar) || arguments.isGiven(Self.offset) ? nil : choice.mosque
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
        let announced = Set(
            days.compactMap { try? HijriMonthStarts.Month(year: $0.hijri.year, month: $0.hijri.monthNumber) }
        ).filter { starts[$0] != nil }.sorted()
        try output.write(
            header
                + (announced.isEmpty
                    ? "" : "; announced start of " + announced.map(\.description).joined(separator: ", "))
                + "\n\n")
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
            + (mosque.map { " (as \($0.escapingControlCharacters()) follows it)" } ?? "")
    }
}
