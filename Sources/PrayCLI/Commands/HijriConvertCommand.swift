import PrayCore

/// `praykit hijri convert`: the civil date of a Hijri date, or (`--from gregorian`) the Hijri date of a
/// civil one.
struct HijriConvertCommand: Command {
    static let name = "convert"
    static let abstract = "Convert a Hijri date to its civil date (or back with --from gregorian)."
    static let examples = ["praykit hijri convert 1448-09-01", "praykit hijri convert 2027-02-08 --from gregorian"]
    static let arguments = [
        Positional(name: "date", help: "YYYY-MM-DD: a Hijri date (or a civil one with --from gregorian).")
    ]

    /// Which calendar the date is in.
    enum From: String, CaseIterable, ArgumentValue {
        case hijri
        case gregorian
    }

    static let from = Option<From>("from", value: "calendar", help: "The calendar of <date>.", default: "hijri")
    static let options: [any OptionDefinition] = [from] + HijriQuery.options

    private enum Input {
        case hijri(HijriDate)
        case gregorian(CivilDate)
    }

    private let input: Input
    private let query: HijriQuery

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        let fromGregorian = try arguments.value(Self.from) == .gregorian
        try self.init(
            arguments.positionals.first ?? "", gregorian: fromGregorian, arguments: arguments, context: context)
    }

    /// Converts `text`, a Hijri date (also `hijri --to-gregorian`).
    init(hijri text: String, arguments: ParsedArguments, context: CommandContext) throws(CLIError) {
        try self.init(text, gregorian: false, arguments: arguments, context: context)
    }

    private init(
        _ text: String, gregorian: Bool, arguments: ParsedArguments, context: CommandContext
    ) throws(CLIError) {
        query = try HijriQuery(arguments, saved: try context.preferences(), context: context)
        if gregorian {
            do { input = .gregorian(try CivilDate(parsing: text)) } catch { throw context.usage(error.message) }
        } else {
            do { input = .hijri(try HijriDate(parsing: text)) } catch { throw context.usage(error.message) }
        }
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let service = context.dependency.hijriService()
        let day = try query.call(context) {
            switch input {
            case .hijri(let date): try service.day(of: date, calendar: query.calendar, offset: query.offset)
            case .gregorian(let date):
                try service.days(
                    for: HijriAPI.Request(date: date, days: 1, calendar: query.calendar, offset: query.offset))[0]
            }
        }
        try query.write([day], to: context.output)
    }
}
