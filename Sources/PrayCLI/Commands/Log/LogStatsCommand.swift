import Foundation
import PrayCore

/// `praykit log stats`.
enum LogStatsCommand: Command {
    static let name = "stats"
    static let abstract = "Print streaks, counts and the qada still owed."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [LogCommand.timeZone, format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let today = try LogCommand.today(arguments, context: context)
        let statistics = try context.dependency.prayerLog().statistics(today: today)
        if arguments[format] == .json {
            return try context.output.write(
                JSON.object([
                    ("currentStreak", .int(statistics.currentStreak)), ("bestStreak", .int(statistics.bestStreak)),
                    ("qadaOwed", .int(statistics.qadaOwed)), ("daysLogged", .int(statistics.daysLogged)),
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
            Qada owed: \(statistics.qadaOwed)
            Entries: \(counts) over \(days(statistics.daysLogged))

            """)
    }
}
