import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit fast stats`.
enum FastStatsCommand: Command {
    static let name = "stats"
    static let abstract = "Print each Ramadan's fasts, the days still owed, and this year's voluntary fasts."
    static let discussion = """
        Owed: the missed and excused days of every Ramadan recorded, less the days made up (the oldest
        Ramadan's first). Excused days (travel, illness, a woman's period) are made up like missed ones;
        fidya, for those who cannot fast at all, is not counted here. 'Not recorded' counts the days of
        a Ramadan before today that have no fast. With --year, the totals are that Ramadan's alone: the
        days made up that paid its missed and excused days, and what it still owes.

        A fast its day no longer allows — the Hijri calendar moved after it was recorded (an announced
        month start, the offset), leaving a fasted day on the Eid or outside Ramadan — is counted nowhere:
        it is listed under 'Not counted' with the command that fixes it.
        """
    static let year = Option<Int?>(
        "year", value: "Hijri year", help: "Only this year's Ramadan and voluntary fasts (1448).",
        defaultText: "every Ramadan recorded, and this year's", range: 1...9999)
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [year, LogCommand.timeZone, format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let today = try FastCommand.today(arguments, context: context)
        let fasts = try FastCommand.calendar(context: context)
        let chosen = arguments[year]
        let account = try fasts.account(
            of: FastCommand.all(context: context), today: today, years: chosen.map { [$0] }, voluntaryYear: chosen)
        if arguments[format] == .json { return try context.output.write(json(account).rendered() + "\n") }
        let days = FastCommand.days
        var text = ""
        if account.ramadans.isEmpty {
            text += "No Ramadan recorded.\n\n"
        } else {
            let rows =
                [
                    [
                        "Ramadan", "From", "Through", "Days", "Fasted", "Missed", "Excused", "Not recorded", "Made up",
                        "Owed",
                    ]
                ]
                + account.ramadans.map { ramadan in
                    [
                        "\(ramadan.year)", ramadan.first.description, ramadan.last.description, "\(ramadan.days)",
                        "\(ramadan.fasted)", "\(ramadan.missed)", "\(ramadan.excused)", "\(ramadan.notRecorded)",
                        "\(ramadan.madeUp)", "\(ramadan.owed)",
                    ]
                }
            text += Table.render(rows) + "\n"
        }
        text += "Made up: \(days(account.madeUp))"
        if let chosen { text += " (for Ramadan \(chosen): made-up days pay the oldest Ramadan first)" }
        text += "\nOwed: \(days(account.owed))"
        if account.madeUpBeyondOwed > 0 {
            text += " (\(days(account.madeUpBeyondOwed)) made up beyond the missed and excused days recorded)"
        }
        text += "\nVoluntary fasts in \(account.voluntaryYear): \(account.voluntary)\n"
        if !account.notCounted.isEmpty {
            text +=
                "\nNot counted: \(days(account.notCounted.count)) whose fast the Hijri calendar no longer allows "
                + "(an announced start, the offset or the calendar changed since it was recorded):\n"
            for conflict in account.notCounted {
                text +=
                    "  \(conflict.entry.date) \(conflict.entry.status): \(FastCommand.problem(conflict)); "
                    + FastCommand.remedy(conflict) + "\n"
            }
        }
        try context.output.write(text)
    }

    /// The JSON of an account.
    static func json(_ account: FastAccount) -> JSON {
        .object([
            (
                "ramadans",
                .array(
                    account.ramadans.map { ramadan in
                        .object([
                            ("year", .int(ramadan.year)), ("first", .string(ramadan.first.description)),
                            ("last", .string(ramadan.last.description)), ("days", .int(ramadan.days)),
                            ("fasted", .int(ramadan.fasted)), ("missed", .int(ramadan.missed)),
                            ("excused", .int(ramadan.excused)), ("notRecorded", .int(ramadan.notRecorded)),
                            ("madeUp", .int(ramadan.madeUp)), ("owed", .int(ramadan.owed)),
                        ])
                    })
            ),
            ("madeUp", .int(account.madeUp)), ("owed", .int(account.owed)),
            ("madeUpBeyondOwed", .int(account.madeUpBeyondOwed)),
            ("voluntary", .object([("year", .int(account.voluntaryYear)), ("count", .int(account.voluntary))])),
            (
                "notCounted",
                .array(
                    account.notCounted.map { conflict in
                        .object([
                            ("date", .string(conflict.entry.date.description)),
                            ("status", .string(conflict.entry.status.rawValue)),
                            ("hijri", .string(conflict.day.hijri.description)),
                            ("problem", .string(FastCommand.problem(conflict))),
                            ("remedy", .string(FastCommand.remedy(conflict))),
                        ])
                    })
            ),
        ])
    }
}
