import Foundation
import PrayCore

/// `praykit log record`.
struct LogRecordCommand: Command {
    static let name = "record"
    static let abstract = "Record how prayers were kept on a day (not more than a day ahead)."
    static let status = Option<PrayerStatus>("status", value: "status", help: "How it was kept.")
    static let options: [any OptionDefinition] = [LogCommand.prayer, status, LogCommand.date, LogCommand.timeZone]

    let prayers: [Prayer]
    let status: PrayerStatus
    let date: CivilDate

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        prayers = try LogCommand.prayers(arguments, context: context)
        guard let status = try arguments.value(Self.status) else {
            throw context.usage("Missing expected argument '--status <status>'")
        }
        self.status = status
        let today = try LogCommand.today(arguments, context: context)
        date = try arguments.value(LogCommand.date) ?? today
        guard date <= today.clampedAdding(days: 1) else {
            throw context.usage(
                "--date \(date) is in the future; prayers are recorded up to a day ahead (\(today.clampedAdding(days: 1)))"
            )
        }
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        var entries: [PrayerLogEntry] = []
        for prayer in prayers {
            do {
                entries.append(try PrayerLogEntry(date: date, prayer: prayer, status: status, recordedAt: context.now))
            } catch {
                throw CLIError(error, command: context.commandPath)
            }
        }
        // One transaction: all of them or none.
        if entries.count == 1 {
            let entry = try LogCommand.store(context) { try $0.record(status, for: prayers[0], on: date) }
            return try context.output.write("\(entry.date) \(entry.prayer) \(entry.status)\n")
        }
        try LogCommand.store(context) { try $0.record(entries) }
        try context.output.write(entries.map { "\($0.date) \($0.prayer) \($0.status)\n" }.joined())
    }
}
