import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit fast remove`.
enum FastRemoveCommand: Command {
    static let name = "remove"
    static let abstract = "Remove the fast recorded on a day, and say what was removed."
    static let date = Option<Day>("date", value: "day", help: "The day: YYYY-MM-DD, today, yesterday or -N.")
    static let options: [any OptionDefinition] = [date, LogCommand.timeZone]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let day = try arguments[date].day(today: FastCommand.today(arguments, context: context))
        guard let removed = try context.dependency.fasts().delete(on: day) else {
            return try context.output.write("No fast recorded on \(day); nothing removed\n")
        }
        try context.output.write("Removed \(removed.date) \(removed.status)\n")
    }
}
