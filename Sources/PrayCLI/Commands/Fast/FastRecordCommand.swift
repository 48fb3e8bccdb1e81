import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit fast record`.
enum FastRecordCommand: Command {
    static let name = "record"
    static let abstract = "Record a day's fast (not more than a day ahead), or every past day of a Ramadan."
    static let discussion = """
        fasted, missed and excused are for the days of Ramadan; made-up and voluntary for other days,
        never 1 Shawwal or 10-13 Dhu al-Hijjah. Recording a day again replaces its fast. With --ramadan,
        every day of that Ramadan before today without a fast is recorded with --status, in one
        transaction.
        """
    static let status = Option<FastStatus>("status", value: "status", help: "How the fast went.")
    static let date = Option<Day?>(
        "date", value: "day", help: "The day: YYYY-MM-DD, today, tomorrow, yesterday, +N or -N.",
        defaultText: "today")
    // Bounded by the rule (FastCalendar.pastDays(ofRamadan:today:)), whose upper bound is today's year.
    static let ramadan = Option<Int?>(
        "ramadan", value: "Hijri year",
        help: "Every past day of this Ramadan without a fast: a Hijri year from \(FastCalendar.firstRamadanYear) "
            + "(where the Umm al-Qura table begins) to this year's (1448).")
    static let note = Option<String?>(
        "note", value: "text", help: "A note, up to 500 characters ('travel').")
    static let options: [any OptionDefinition] = [date, status, note, ramadan, LogCommand.timeZone]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let status = arguments[status]
        let today = try FastCommand.today(arguments, context: context)
        let fasts = try FastCommand.calendar(context: context)
        let store = context.dependency.fasts()
        if let year = arguments[ramadan] {
            if arguments.isGiven(date) { throw CLIError.usage("--ramadan records a whole month: leave out --date") }
            guard status.isRamadan else {
                throw CLIError.usage("--ramadan records fasted, missed or excused, not \(status)")
            }
            let days = try fasts.pastDays(ofRamadan: year, today: today).map(\.gregorian)
            guard let first = days.first, let last = days.last else {
                throw CLIError.usage("Ramadan \(year) has no day before today (\(today))")
            }
            let recorded = Set(try store.entries(from: first, through: last).map(\.date))
            let entries = try days.filter { !recorded.contains($0) }.map {
                try FastEntry(date: $0, status: status, recordedAt: context.now, note: arguments[note])
            }
            try store.record(entries)
            return try context.output.write(
                "Recorded \(entries.count) day\(entries.count == 1 ? "" : "s") of Ramadan \(year) as \(status) "
                    + "(\(days.count - entries.count) already recorded)\n")
        }
        let day = arguments[date]?.day(today: today) ?? today
        try fasts.check(status, on: day, today: today)
        let entry = try FastEntry(date: day, status: status, recordedAt: context.now, note: arguments[note])
        try store.record([entry])
        let hijri = try fasts.day(day).hijri
        try context.output.write("\(entry.date) \(entry.status) (\(hijri.day) \(hijri.monthName) \(hijri.year))\n")
    }
}
