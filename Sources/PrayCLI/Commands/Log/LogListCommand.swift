import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit log list`.
enum LogListCommand: Command {
    static let name = "list"
    static let abstract = "List the entries of a range of days."
    static let from = Option<Day?>(
        "from", value: "day", help: "First day: YYYY-MM-DD, today, yesterday or -N.", defaultText: "a week before --to")
    static let to = Option<Day?>(
        "to", value: "day", help: "Last day: YYYY-MM-DD, today, tomorrow or ±N.",
        defaultText: "tomorrow, as far as prayers are recorded")
    static let format = Option<OutputFormat>.format([.table, .json, .csv])
    static let options: [any OptionDefinition] = [from, to, LogCommand.timeZone, format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let today = try LogCommand.today(arguments, context: context)
        let end = arguments[to]?.day(today: today) ?? today.clampedAdding(days: 1)
        let start = arguments[from]?.day(today: today) ?? end.clampedAdding(days: -7)
        guard start <= end else { throw CLIError.usage("--from \(start) is after --to \(end)") }
        let entries = try context.dependency.prayerLog().entries(from: start, through: end)
        try write(entries, format: arguments[format], to: context.output)
    }

    /// Writes entries as a table, JSON or CSV.
    static func write(_ entries: [PrayerLogEntry], format: OutputFormat, to output: OutputSink) throws(CLIError) {
        switch format {
        case .json:
            try JSON.writeArray(entries.lazy.map(LogCommand.json), to: output)
        case .csv:
            try output.write(CSV.row(["date", "prayer", "status", "recordedAt", "note"]))
            for entry in entries {
                try output.write(
                    CSV.row([
                        entry.date.description, entry.prayer.rawValue, entry.status.rawValue,
                        PrayerLogEntry.timestamp(entry.recordedAt), entry.note ?? "",
                    ]))
            }
        default:
            guard !entries.isEmpty else { return try output.write("No entries.\n") }
            // The note column only when an entry has one.
            let notes = entries.contains { $0.note != nil }
            try output.write(
                Table.render(
                    [["Date", "Prayer", "Status", "Recorded"] + (notes ? ["Note"] : [])]
                        + entries.map {
                            [
                                $0.date.description, $0.prayer.rawValue, $0.status.rawValue,
                                PrayerLogEntry.timestamp($0.recordedAt),
                            ] + (notes ? [$0.note ?? ""] : [])
                        }))
        }
    }
}
