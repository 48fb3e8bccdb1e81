import PrayCore

/// `praykit hijri set-start`: the first day of a Hijri month as a country or mosque announced it.
enum HijriSetStartCommand: Command {
    static let name = "set-start"
    static let abstract = "Save the announced first day of a Hijri month (1 Ramadan on 9 February)."
    static let discussion = """
        Every command that shows or uses a Hijri date then counts that month's days from the announced
        day: hijri, times (the Hijri column and --ramadan), next (the Ramadan countdown), notify (the
        imsak and iftar days), timetable, and the Umm al-Qura method's Ramadan isha. The month ends the
        day before the next month's start (announced or the calendar's). The offset (hijri-offset) does
        not apply to a month with an announced start.

        The day must be within 2 days of the calendar's first day of the month (the saved hijri-calendar),
        and every month must stay 29 or 30 days long with its neighbours' starts; otherwise nothing is
        saved. The starts are one setting (hijri-starts): they are backed up by 'praykit export' and sync
        as one value, the last device's list winning.

        A recorded fast that the new start moves out of Ramadan or onto an Eid (Ramadan recorded, then 1
        Shawwal announced a day earlier) is kept as recorded: a warning names the day and says what to
        do, and 'fast list' and 'fast stats' mark it, uncounted, until it is recorded again or removed.
        """
    static let examples = ["praykit hijri set-start 1448-09 2027-02-07", "praykit hijri set-start 1448-10 2027-03-10"]
    static let month = Argument<YearMonth>("month", help: "YYYY-MM: the Hijri year and month (01…12).")
    static let date = Argument<CivilDate>("date", help: "YYYY-MM-DD: the civil day announced as its first day.")
    static let arguments: [any ArgumentDefinition] = [month, date]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let saved = try context.preferences()
        let key = try HijriStartsStore.month(arguments[month])
        var starts = saved.hijriMonthStarts
        starts[key] = arguments[date]
        if let first = HijriStartsStore.problems(starts, changed: [key], saved: saved, context: context).first {
            throw CLIError.usage(first.problem + "; nothing was saved")
        }
        try HijriStartsStore.save(starts, context: context)
        try context.output.write("1 \(key.name) \(key.year) (\(key)) begins on \(arguments[date]).\n")
        HijriStartsStore.warnMovedFasts(saved: saved, starts: starts, context: context)
    }
}
