import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit export`: all user data as one JSON file on standard output, written as the log is read.
enum ExportCommand: Command {
    static let name = "export"
    static let abstract = "Write all preferences and the prayer log as JSON to standard output."
    static let discussion = """
        The file has sorted keys, so the same data always gives the same bytes. It is written while the
        log is read, in one snapshot of the database, so a long log never has to fit in memory.
        """
    static let examples = ["praykit export > backup.json"]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let backup = context.dependency.backup()
        try UserData.write(to: { try context.output.write($0) }) { rest, entry in
            try backup.exportData(rest: rest, entries: entry)
        }
        try context.output.write("\n")
    }
}
