import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit qada estimate --from DATE`: the opening count of all five prayers, counted from a range of
/// days.
enum QadaEstimateCommand: Command {
    static let name = "estimate"
    static let abstract = "Estimate the opening count of all five prayers from the days since they became due."
    static let discussion = """
        Each of the five is owed once a day from --from through --to, less the days of each --except range
        (prayed then, or counted apart) and --excused-days-per-month days a month when no prayer is owed
        (a woman's period), rounded down per calendar month for a month counted in part. The opening's date
        is the day after --to: the prayer log counts from it, so --to defaults to the day before the first
        log entry (yesterday when the log is empty). The openings of all five are replaced; with --dry-run
        the count is printed and nothing is saved.

        Refused, with nothing saved: --from after --to, a day in the future, a range that overlaps another
        or lies outside --from..--to, or more than 15 excused days a month.
        """
    static let examples = [
        "praykit qada estimate --from 2012-03-01",
        "praykit qada estimate --from 2012-03-01 --to 2026-11-30 --except 2019-06-01..2019-08-31 --dry-run",
        "praykit qada estimate --from 2014-09-01 --excused-days-per-month 7",
    ]
    static let from = Option<Day>(
        "from", value: "day", help: "The first day the prayers were owed: YYYY-MM-DD (or today, yesterday, -N).")
    static let to = Option<Day?>(
        "to", value: "day", help: "The last day counted: YYYY-MM-DD (or today, yesterday, -N).",
        defaultText: "the day before the first log entry, else yesterday")
    static let except = Option<DayRange>(
        "except", value: "from..to", help: "Days not owed: FROM..TO (YYYY-MM-DD..YYYY-MM-DD) or one day; repeatable.",
        repeatable: true)
    static let excused = Option(
        "excused-days-per-month", value: "n", help: "Days a month when no prayer is owed (a woman's period).",
        default: 0, range: QadaEstimate.excusedDaysRange)
    static let dryRun = Flag("dry-run", help: "Print the estimate without saving it.")
    static let options: [any OptionDefinition] = [from, to, except, excused, dryRun, QadaCommand.timeZone]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let (today, _) = try QadaCommand.today(arguments, context: context)
        let first = arguments[from].day(today: today)
        try QadaCommand.notFuture(first, option: "--from", today: today)
        let last: CivilDate
        var defaultNote = ""
        if let given = arguments[to] {
            last = given.day(today: today)
            try QadaCommand.notFuture(last, option: "--to", today: today)
        } else if let logStart = try context.dependency.prayerLog().entries(from: .first, through: .last)
            .map(\.date).min()
        {
            last = logStart.clampedAdding(days: -1)
            defaultNote = " (the day before the first log entry, \(logStart))"
        } else {
            last = today.clampedAdding(days: -1)
            defaultNote = " (yesterday)"
        }
        guard first <= last else {
            throw CLIError.usage("--from \(first) is after --to \(last)\(defaultNote); nothing was saved")
        }
        let estimate: QadaEstimate
        do throws(ValidationError) {
            estimate = try QadaEstimate(
                from: first, through: last, except: arguments.all(except).map(\.days),
                excusedDaysPerMonth: arguments[excused])
        } catch {
            let option = ["except": "--except", "excused": "--excused-days-per-month"][error.field]
            throw CLIError.usage((option.map { "\($0): " } ?? "") + error.message + "; nothing was saved")
        }
        var text = "Counted \(estimate.from) through \(estimate.through): \(counted(estimate.days, "day"))"
        if estimate.excepted > 0 { text += " − \(estimate.excepted) excepted" }
        if arguments[excused] > 0 { text += " − \(estimate.excused) excused (\(arguments[excused]) a month)" }
        text += " = \(estimate.owed) of each prayer.\n"
        let entries = try Prayer.obligatory.map { prayer in
            try QadaEntry(
                id: QadaEntry.openingID(prayer), kind: .opening, prayer: prayer, count: estimate.owed,
                date: estimate.openingDate, source: QadaEntry.sourceEstimate, recordedAt: context.now)
        }
        text += entries.map { "\($0.prayer): \($0.count) owed before \($0.date)\n" }.joined()
        if arguments[dryRun] {
            text += "Dry run: nothing was saved.\n"
        } else {
            try QadaCommand.saveOpenings(entries, context: context)
            text += "Saved as the opening of all five prayers; the log counts from \(estimate.openingDate).\n"
        }
        try context.output.write(text)
    }
}
