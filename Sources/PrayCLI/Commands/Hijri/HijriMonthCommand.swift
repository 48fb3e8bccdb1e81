import PrayCore

/// `praykit hijri month`: every day of a Hijri month.
enum HijriMonthCommand: Command {
    static let name = "month"
    static let abstract = "Print every day of a Hijri month."
    static let examples = ["praykit hijri month 1448-09"]
    static let month = Argument<YearMonth>("month", help: "YYYY-MM: a Hijri year and month (01…12).")
    static let arguments: [any ArgumentDefinition] = [month]
    static let options: [any OptionDefinition] = HijriQuery.options

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        try show(arguments[month], arguments: arguments, context: context)
    }

    /// Writes every day of `month` (also `hijri --month`).
    static func show(_ month: YearMonth, arguments: ParsedArguments, context: CommandContext) throws {
        let query = HijriQuery(arguments, choice: try context.hijriChoice())
        guard let hijriMonth = HijriMonth(rawValue: month.month) else { return }
        let days = try context.dependency.hijriService().following(query.starts).month(
            hijriMonth, of: month.year, calendar: query.calendar, offset: query.offset)
        try query.write(days, to: context.output)
    }
}
