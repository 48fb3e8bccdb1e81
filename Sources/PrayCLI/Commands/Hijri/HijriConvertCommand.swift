import PrayCore

/// `praykit hijri convert`: the civil date of a Hijri date, or (`--from gregorian`) the Hijri date of a
/// civil one.
enum HijriConvertCommand: Command {
    static let name = "convert"
    static let abstract = "Convert a Hijri date to its civil date, or a civil date to its Hijri date."
    static let discussion = """
        Without --from, the year says which calendar the date is in: a year from 1800 on is a civil
        (Gregorian) year — 1800 AH is AD 2368 — and an earlier one a Hijri year. --from decides when the
        date means otherwise.
        """
    static let examples = ["praykit hijri convert 1448-09-01", "praykit hijri convert 2027-02-08"]
    static let date = Argument<String>("date", help: "YYYY-MM-DD: a Hijri date (or a civil one with --from gregorian).")
    static let arguments: [any ArgumentDefinition] = [date]

    /// Which calendar the date is in.
    enum From: String, CaseIterable, ArgumentValue {
        case hijri
        case gregorian
    }

    /// The first year read as Gregorian when `--from` is not given.
    static let firstGregorianYear = 1800

    static let from = Option<From?>(
        "from", value: "calendar", help: "The calendar of <date>.",
        defaultText: "gregorian for a year from \(firstGregorianYear) on, else hijri")
    static let options: [any OptionDefinition] = [from] + HijriQuery.options

    /// A date to convert, in its calendar.
    enum Input {
        case hijri(HijriDate)
        case gregorian(CivilDate)
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let text = arguments[date]
        let input: Input
        do {
            let year = Int(text.prefix { $0 != "-" }) ?? 0
            let calendar = arguments[from] ?? (year >= firstGregorianYear ? .gregorian : .hijri)
            input =
                calendar == .gregorian
                ? .gregorian(try CivilDate(parsing: text)) : .hijri(try HijriDate(parsing: text))
        } catch let error as ValidationError {
            throw CLIError.usage(error.message)
        } catch let error as HijriError {
            throw CLIError.usage(error.message)
        }
        try convert(input, arguments: arguments, context: context)
    }

    /// Converts `input` and writes the day (also `hijri --to-gregorian`).
    static func convert(_ input: Input, arguments: ParsedArguments, context: CommandContext) throws {
        let query = HijriQuery(arguments, choice: try context.hijriChoice())
        let service = context.dependency.hijriService().following(query.starts)
        let day =
            switch input {
            case .hijri(let date): try service.day(of: date, calendar: query.calendar, offset: query.offset)
            case .gregorian(let date):
                try service.days(
                    for: HijriAPI.Request(date: date, days: 1, calendar: query.calendar, offset: query.offset))[0]
            }
        try query.write([day], to: context.output)
    }
}
