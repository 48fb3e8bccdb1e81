import Foundation
import PrayCore

/// `praykit log delete`.
struct LogDeleteCommand: Command {
    static let name = "delete"
    static let abstract = "Delete the entries of prayers on a day, and say what was deleted."
    static let date = Option<CivilDate>("date", value: "YYYY-MM-DD", help: "The day.")
    static let options: [any OptionDefinition] = [LogCommand.prayer, date]

    let prayers: [Prayer]
    let date: CivilDate

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        prayers = try LogCommand.prayers(arguments, context: context)
        guard let date = try arguments.value(Self.date) else {
            throw context.usage("Missing expected argument '--date <YYYY-MM-DD>'")
        }
        self.date = date
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let removed = try LogCommand.store(context) { try $0.delete(prayers, on: date) }
        guard !removed.isEmpty else {
            return try context.output.write(
                "No entries for \(prayers.map(\.rawValue).joined(separator: ", ")) on \(date); nothing deleted\n")
        }
        try context.output.write(removed.map { "Deleted \($0.date) \($0.prayer) \($0.status)\n" }.joined())
    }
}
