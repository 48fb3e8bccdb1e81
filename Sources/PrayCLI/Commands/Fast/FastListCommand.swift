import Foundation
import PrayCore

/// `praykit fast list`.
enum FastListCommand: Command {
    static let name = "list"
    static let abstract = "List the fasts of a range of days."
    static let from = Option<Day?>(
        "from", value: "day", help: "First day: YYYY-MM-DD, today, yesterday or -N.",
        defaultText: "a year before --through")
    static let through = Option<Day?>(
        "through", value: "day", help: "Last day: YYYY-MM-DD, today, tomorrow or ±N.", defaultText: "tomorrow")
    static let format = Option<OutputFormat>.format([.table, .json, .csv])
    static let options: [any OptionDefinition] = [from, through, LogCommand.timeZone, format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let today = try FastCommand.today(arguments, context: context)
        let end = arguments[through]?.day(today: today) ?? today.clampedAdding(days: 1)
        let start = arguments[from]?.day(today: today) ?? end.clampedAdding(days: -365)
        guard start <= end else { throw CLIError.usage("--from \(start) is after --through \(end)") }
        let entries = try context.dependency.fasts().entries(from: start, through: end)
        let output = context.output
        switch arguments[format] {
        case .json:
            try JSON.writeArray(entries.lazy.map(FastCommand.json), to: output)
        case .csv:
            try output.write(CSV.row(["date", "hijri", "status", "recordedAt", "note"]))
            let hijri = try hijriDates(entries, context: context)
            for entry in entries {
                try output.write(
                    CSV.row([
                        entry.date.description, hijri[entry.date] ?? "", entry.status.rawValue,
                        PrayerLogEntry.timestamp(entry.recordedAt), entry.note ?? "",
                    ]))
            }
        default:
            guard !entries.isEmpty else { return try output.write("No fasts recorded.\n") }
            let hijri = try hijriDates(entries, context: context)
            let notes = entries.contains { $0.note != nil }
            try output.write(
                Table.render(
                    [["Date", "Hijri", "Status", "Recorded"] + (notes ? ["Note"] : [])]
                        + entries.map {
                            [
                                $0.date.description, hijri[$0.date] ?? "", $0.status.rawValue,
                                PrayerLogEntry.timestamp($0.recordedAt),
                            ] + (notes ? [$0.note ?? ""] : [])
                        }))
        }
    }

    /// The Hijri date (`1448-09-01`) of each entry's day on the saved calendar.
    private static func hijriDates(_ entries: [FastEntry], context: CommandContext) throws -> [CivilDate: String] {
        let fasts = try FastCommand.calendar(context: context)
        var dates: [CivilDate: String] = [:]
        for entry in entries { dates[entry.date] = (try? fasts.day(entry.date))?.hijri.description }
        return dates
    }
}
