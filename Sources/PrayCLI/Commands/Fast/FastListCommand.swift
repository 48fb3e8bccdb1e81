import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit fast list`.
enum FastListCommand: Command {
    static let name = "list"
    static let abstract = "List the fasts of a range of days."
    static let discussion = """
        A fast its day no longer allows is marked (the Problem column, "problem" in JSON and CSV): the Hijri
        calendar moved after it was recorded — an announced month start ('hijri set-start', a starts file,
        another device through sync, a backup), the offset or the calendar changed — and 'fast stats' does
        not count it until it is recorded again or removed; 'fast stats' says how.
        """
    static let from = Option<Day?>(
        "from", value: "day", help: "First day: YYYY-MM-DD, today, yesterday or -N.",
        defaultText: "a year before --to")
    // `--to`, as `log list` and `qada estimate` have it; `--through`, the first spelling, still works.
    static let to = Option<Day?>(
        "to", value: "day", help: "Last day: YYYY-MM-DD, today, tomorrow or ±N.", defaultText: "tomorrow"
    ).aliased("through")
    static let format = Option<OutputFormat>.format([.table, .json, .csv])
    static let options: [any OptionDefinition] = [from, to, LogCommand.timeZone, format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let today = try FastCommand.today(arguments, context: context)
        let end = arguments[to]?.day(today: today) ?? today.clampedAdding(days: 1)
        let start = arguments[from]?.day(today: today) ?? end.clampedAdding(days: -365)
        guard start <= end else { throw CLIError.usage("--from \(start) is after --to \(end)") }
        let entries = try context.dependency.fasts().entries(from: start, through: end)
        let output = context.output
        let fasts = try FastCommand.calendar(context: context)
        let problems = Dictionary(
            try fasts.conflicts(in: entries).map { ($0.entry.date, FastCommand.problem($0)) },
            uniquingKeysWith: { first, _ in first })
        switch arguments[format] {
        case .json:
            let hijri = try hijriDates(entries, fasts: fasts)
            try JSON.writeArray(
                entries.lazy.map { entry in
                    FastCommand.json(entry, hijri: hijri[entry.date], problem: problems[entry.date])
                }, to: output)
        case .csv:
            try output.write(CSV.row(["date", "hijri", "status", "recordedAt", "note", "problem"]))
            let hijri = try hijriDates(entries, fasts: fasts)
            for entry in entries {
                try output.write(
                    CSV.row([
                        entry.date.description, hijri[entry.date] ?? "", entry.status.rawValue,
                        PrayerLogEntry.timestamp(entry.recordedAt), entry.note ?? "", problems[entry.date] ?? "",
                    ]))
            }
        default:
            guard !entries.isEmpty else { return try output.write("No fasts recorded.\n") }
            let hijri = try hijriDates(entries, fasts: fasts)
            let notes = entries.contains { $0.note != nil }
            let flagged = !problems.isEmpty
            try output.write(
                Table.render(
                    [["Date", "Hijri", "Status", "Recorded"] + (notes ? ["Note"] : []) + (flagged ? ["Problem"] : [])]
                        + entries.map {
                            [
                                $0.date.description, hijri[$0.date] ?? "", $0.status.rawValue,
                                PrayerLogEntry.timestamp($0.recordedAt),
                            ] + (notes ? [$0.note ?? ""] : []) + (flagged ? [problems[$0.date] ?? ""] : [])
                        }))
            if flagged {
                let one = problems.count == 1
                let what =
                    one ? "fast is on a day that no longer allows it" : "fasts are on days that no longer allow them"
                try output.write(
                    "\n\(problems.count) \(what) (the Hijri calendar moved since): not counted; 'praykit fast stats' "
                        + "says how to fix \(one ? "it" : "each").\n")
            }
        }
    }

    /// The Hijri date (`1448-09-01`) of each entry's day on the saved calendar.
    private static func hijriDates(_ entries: [FastEntry], fasts: FastCalendar) throws -> [CivilDate: String] {
        var dates: [CivilDate: String] = [:]
        for entry in entries { dates[entry.date] = (try? fasts.day(entry.date))?.hijri.description }
        return dates
    }
}
