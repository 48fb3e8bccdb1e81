import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit log stats`.
enum LogStatsCommand: Command {
    static let name = "stats"
    static let abstract = "Print streaks, counts and the qada still owed."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [LogCommand.timeZone, format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let zone = try PlaceOptions.zone(arguments, option: LogCommand.timeZone, context: context)
        let today = try CivilDate(containing: context.now, in: zone)
        let statistics = try context.dependency.prayerLog().statistics(today: today)
        // What `qada` says is owed: the openings and the make-ups counted, not only the log's misses.
        let owed = try QadaCommand.ledger(today: today, zone: zone, context: context).total.balance
        if arguments[format] == .json {
            return try context.output.write(
                JSON.object([
                    ("currentStreak", .int(statistics.currentStreak)), ("bestStreak", .int(statistics.bestStreak)),
                    ("qadaOwed", .int(owed)), ("daysLogged", .int(statistics.daysLogged)),
                    (
                        "counts",
                        .object(PrayerStatus.allCases.map { ($0.rawValue, .int(statistics.counts[$0] ?? 0)) })
                    ),
                ]).rendered() + "\n")
        }
        func days(_ count: Int) -> String { "\(count) day\(count == 1 ? "" : "s")" }
        let counts = PrayerStatus.allCases.map { "\($0) \(statistics.counts[$0] ?? 0)" }.joined(separator: ", ")
        try context.output.write(
            """
            Current streak: \(days(statistics.currentStreak)) with all five prayed
            Best streak: \(days(statistics.bestStreak))
            Qada owed: \(owed)
            Entries: \(counts) over \(days(statistics.daysLogged))

            """)
    }
}
