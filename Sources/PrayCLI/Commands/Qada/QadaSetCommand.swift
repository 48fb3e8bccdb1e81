import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit qada set PRAYER|all COUNT`: the opening count of prayers, given as a number.
enum QadaSetCommand: Command {
    static let name = "set"
    static let abstract = "Set the opening count of a prayer (or all five): what was owed before the log counts."
    static let discussion = """
        The opening replaces an earlier one of the same prayer. --date is the first day the prayer log
        counts after it: log entries and make-ups dated before it are taken as part of the count.
        """
    static let examples = [
        "praykit qada set fajr 300", "praykit qada set all 1200 --date 2026-12-01", "praykit qada set fajr,isha 0",
    ]
    static let count = Argument<Int>(
        "count", help: "How many of each prayer were owed before --date (0…\(QadaEntry.maximumOpeningCount)).")
    static let date = Option<Day?>(
        "date", value: "day",
        help: "The first day the log counts after the opening: YYYY-MM-DD, today, yesterday, +N or -N.",
        defaultText: "today")
    static let arguments: [any ArgumentDefinition] = [QadaCommand.prayer, count]
    static let options: [any OptionDefinition] = [date, QadaCommand.timeZone]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let prayers = try QadaCommand.prayers(arguments)
        let count = arguments[count]
        guard (0...QadaEntry.maximumOpeningCount).contains(count) else {
            throw CLIError.usage("<count> must be between 0 and \(QadaEntry.maximumOpeningCount), got \(count)")
        }
        let (today, _) = try QadaCommand.today(arguments, context: context)
        let day = arguments[date]?.day(today: today) ?? today
        guard day <= today.clampedAdding(days: 1) else {
            throw CLIError.usage(
                "--date \(day) is in the future; the log can count from tomorrow (\(today.clampedAdding(days: 1))) "
                    + "at the latest")
        }
        let entries = try prayers.map { prayer in
            try QadaEntry(
                id: QadaEntry.openingID(prayer), kind: .opening, prayer: prayer, count: count, date: day,
                source: QadaEntry.sourceSet, recordedAt: context.now)
        }
        try QadaCommand.saveOpenings(entries, context: context)
        try context.output.write(
            entries.map { "\($0.prayer): \($0.count) owed before \($0.date) (the log counts from that day)\n" }.joined()
        )
    }
}
