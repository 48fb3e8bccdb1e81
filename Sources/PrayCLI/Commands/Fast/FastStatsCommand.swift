import Foundation
import PrayCore

/// `praykit fast stats`.
enum FastStatsCommand: Command {
    static let name = "stats"
    static let abstract = "Print each Ramadan's fasts, the days still owed, and this year's voluntary fasts."
    static let discussion = """
        Owed: the missed and excused days of every Ramadan recorded, less the days made up (the oldest
        Ramadan's first). Excused days (travel, illness, a woman's period) are made up like missed ones;
        fidya, for those who cannot fast at all, is not counted here. 'Not recorded' counts the days of
        a Ramadan before today that have no fast.
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
        func days(_ count: Int) -> String { "\(count) day\(count == 1 ? "" : "s")" }
        var text = ""
        if account.ramadans.isEmpty {
            text += "No Ramadan recorded.\n\n"
        } else {
            let rows =
                [["Ramadan", "From", "Through", "Days", "Fasted", "Missed", "Excused", "Not recorded", "Owed"]]
                + account.ramadans.map { ramadan in
                    [
                        "\(ramadan.year)", ramadan.first.description, ramadan.last.description, "\(ramadan.days)",
                        "\(ramadan.fasted)", "\(ramadan.missed)", "\(ramadan.excused)", "\(ramadan.notRecorded)",
                        "\(ramadan.owed)",
                    ]
                }
            text += Table.render(rows) + "\n"
        }
        text += "Made up: \(days(account.madeUp))\n"
        text += "Owed: \(days(account.owed))"
        if account.madeUpBeyondOwed > 0 {
            text += " (\(days(account.madeUpBeyondOwed)) made up beyond the missed and excused days recorded)"
        }
        text += "\nVoluntary fasts in \(account.voluntaryYear): \(account.voluntary)\n"
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
                            ("owed", .int(ramadan.owed)),
                        ])
                    })
            ),
            ("madeUp", .int(account.madeUp)), ("owed", .int(account.owed)),
            ("madeUpBeyondOwed", .int(account.madeUpBeyondOwed)),
            ("voluntary", .object([("year", .int(account.voluntaryYear)), ("count", .int(account.voluntary))])),
        ])
    }
}
