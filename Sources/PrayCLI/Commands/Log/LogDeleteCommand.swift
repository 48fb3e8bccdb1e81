import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit log delete`.
enum LogDeleteCommand: Command {
    static let name = "delete"
    static let abstract = "Delete the entries of prayers on a day, and say what was deleted."
    static let date = Option<Day>("date", value: "day", help: "The day: YYYY-MM-DD, today, yesterday or -N.")
    static let options: [any OptionDefinition] = [LogCommand.prayer, date, LogCommand.timeZone]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let prayers = try LogCommand.prayers(arguments)
        let date = try arguments[date].day(today: LogCommand.today(arguments, context: context))
        let removed = try context.dependency.prayerLog().delete(prayers, on: date)
        guard !removed.isEmpty else {
            return try context.output.write(
                "No entries for \(prayers.map(\.rawValue).joined(separator: ", ")) on \(date); nothing deleted\n")
        }
        try context.output.write(removed.map { "Deleted \($0.date) \($0.prayer) \($0.status)\n" }.joined())
    }
}
