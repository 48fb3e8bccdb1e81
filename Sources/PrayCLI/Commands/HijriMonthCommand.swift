import PrayCore

/// `praykit hijri month`: every day of a Hijri month.
struct HijriMonthCommand: Command {
    static let name = "month"
    static let abstract = "Print every day of a Hijri month."
    static let examples = ["praykit hijri month 1448-09"]
    static let arguments = [Positional(name: "month", help: "YYYY-MM: a Hijri year and month (01…12).")]
    static let options: [any OptionDefinition] = HijriQuery.options

    private let year: Int
    private let month: HijriMonth
    private let query: HijriQuery

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        try self.init(month: arguments.positionals.first ?? "", arguments: arguments, context: context)
    }

    /// Reads `text`, `YYYY-MM` (also `hijri --month`).
    init(month text: String, arguments: ParsedArguments, context: CommandContext) throws(CLIError) {
        query = try HijriQuery(arguments, saved: try context.preferences(), context: context)
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let year = Int(parts[0]), let number = Int(parts[1]), year >= 1,
            let month = HijriMonth(rawValue: number)
        else {
            throw context.usage("the month must look like YYYY-MM with a month from 01 to 12, got '\(text)'")
        }
        (self.year, self.month) = (year, month)
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let service = context.dependency.hijriService()
        let days = try query.call(context) {
            try service.month(month, of: year, calendar: query.calendar, offset: query.offset)
        }
        try query.write(days, to: context.output)
    }
}
