import PrayCore

/// `praykit hijri unset-start`: back to the calendar's first day of a Hijri month.
enum HijriUnsetStartCommand: Command {
    static let name = "unset-start"
    static let abstract = "Remove the announced first day of a Hijri month: the calendar's applies again."
    static let discussion = """
        Refused, with nothing changed, when the neighbouring months' announced starts would then make a
        month other than 29 or 30 days long.
        """
    static let examples = ["praykit hijri unset-start 1448-09"]
    static let month = Argument<YearMonth>("month", help: "YYYY-MM: the Hijri year and month (01…12).")
    static let arguments: [any ArgumentDefinition] = [month]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let saved = try context.preferences()
        let key = try HijriStartsStore.month(arguments[month])
        var starts = saved.hijriMonthStarts
        guard starts[key] != nil else {
            throw CLIError.usage("\(key) has no announced start; 'praykit hijri starts' lists them")
        }
        starts[key] = nil
        if let first = HijriStartsStore.problems(starts, changed: [key], saved: saved, context: context).first {
            throw CLIError.usage(first.problem + "; nothing was changed")
        }
        try HijriStartsStore.save(starts, context: context)
        try context.output.write("\(key.name) \(key.year) (\(key)) follows the calendar again.\n")
    }
}
