import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit log record`.
enum LogRecordCommand: Command {
    static let name = "record"
    static let abstract = "Record how prayers were kept on a day (not more than a day ahead)."
    static let status = Option<PrayerStatus>("status", value: "status", help: "How it was kept.")
    static let note = Option<String?>(
        "note", value: "text", help: "A note, up to 500 characters ('at the mosque'); synced with the entry.")
    static let options: [any OptionDefinition] = [
        LogCommand.prayer, status, note, LogCommand.date, LogCommand.timeZone,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let prayers = try LogCommand.prayers(arguments)
        let status = arguments[status]
        let today = try LogCommand.today(arguments, context: context)
        let date = arguments[LogCommand.date]?.day(today: today) ?? today
        guard date <= today.clampedAdding(days: 1) else {
            throw CLIError.usage(
                "--date \(date) is in the future; prayers are recorded up to a day ahead (\(today.clampedAdding(days: 1)))"
            )
        }
        let note = arguments[Self.note]
        let store = context.dependency.prayerLog()
        let entries: [PrayerLogEntry]
        if prayers.count == 1 {
            entries = [try store.record(status, for: prayers[0], on: date, note: note)]
        } else {
            // One transaction: all of them or none.
            entries = try prayers.map {
                try PrayerLogEntry(date: date, prayer: $0, status: status, recordedAt: context.now, note: note)
            }
            try store.record(entries)
        }
        try context.output.write(entries.map { "\($0.date) \($0.prayer) \($0.status)\n" }.joined())
    }
}
