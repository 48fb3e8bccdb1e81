import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit log export`.
enum LogExportCommand: Command {
    static let name = "export"
    static let abstract = "Write the whole prayer log as CSV or JSON."
    static let format = Option<OutputFormat>.format([.csv, .json])
    static let options: [any OptionDefinition] = [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let entries = try context.dependency.prayerLog().entries(from: CivilDate.first, through: CivilDate.last)
        try LogListCommand.write(entries, format: arguments[format], to: context.output)
    }
}
