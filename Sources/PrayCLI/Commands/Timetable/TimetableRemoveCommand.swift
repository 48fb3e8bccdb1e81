import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit timetable remove --mosque NAME`: forgets a mosque's timetable.
enum TimetableRemoveCommand: Command {
    static let name = "remove"
    static let abstract = "Remove a mosque's kept timetable (and stop using it if it is the chosen one)."
    static let mosque = Option<String>("mosque", value: "name", help: "The mosque's name.")
    static let options: [any OptionDefinition] = [mosque]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[mosque].trimmingWhitespace()
        guard try context.dependency.mosqueTimetables().remove(named: name) else {
            let names = try context.dependency.mosqueTimetables().mosques().map(\.name)
            throw CLIError.runtime(
                "no mosque timetable named '\(name)' is kept"
                    + (names.isEmpty ? "" : "; kept: " + names.joined(separator: ", ")))
        }
        var message = "Removed the timetable of \(name).\n"
        if try context.preferences()[.mosque] == name {
            try context.dependency.preferences().update { $0.unset(.mosque) }
            message += "It was the chosen mosque: calculated times apply again.\n"
        }
        try context.output.write(message)
    }
}
