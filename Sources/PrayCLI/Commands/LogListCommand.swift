import Foundation
import PrayCore

/// `praykit log list`.
struct LogListCommand: Command {
    static let name = "list"
    static let abstract = "List the entries of a range of days."
    static let from = Option<CivilDate>(
        "from", value: "YYYY-MM-DD", help: "First day.", default: "six days before --to")
    static let to = Option<CivilDate>("to", value: "YYYY-MM-DD", help: "Last day.", default: "today")
    static let format = Option<OutputFormat>.format([.table, .json, .csv])
    static let options: [any OptionDefinition] = [from, to, LogCommand.timeZone, format]

    let start: CivilDate
    let end: CivilDate
    let format: OutputFormat

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        let today = try LogCommand.today(arguments, context: context)
        end = try arguments.value(Self.to) ?? today
        start = try arguments.value(Self.from) ?? end.clampedAdding(days: -6)
        guard start <= end else { throw context.usage("--from \(start) is after --to \(end)") }
        format = try arguments.value(Self.format) ?? .table
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let entries = try LogCommand.store(context) { try $0.entries(from: start, through: end) }
        try LogListCommand.write(entries, format: format, to: context.output)
    }

    /// Writes entries as a table, JSON or CSV.
    static func write(_ entries: [PrayerLogEntry], format: OutputFormat, to output: OutputSink) throws(CLIError) {
        switch format {
        case .json:
            try JSON.writeArray(entries.lazy.map(LogCommand.json), to: output)
        case .csv:
            try output.write(CSV.row(["date", "prayer", "status", "recordedAt"]))
            for entry in entries {
                try output.write(
                    CSV.row([
                        entry.date.description, entry.prayer.rawValue, entry.status.rawValue,
                        PrayerLogEntry.timestamp(entry.recordedAt),
                    ]))
            }
        default:
            guard !entries.isEmpty else { return try output.write("No entries.\n") }
            try output.write(
                Table.render(
                    [["Date", "Prayer", "Status", "Recorded"]]
                        + entries.map {
                            [
                                $0.date.description, $0.prayer.rawValue, $0.status.rawValue,
                                PrayerLogEntry.timestamp($0.recordedAt),
                            ]
                        }))
        }
    }
}
