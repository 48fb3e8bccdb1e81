import Foundation
import PrayCore

/// `praykit export`: all user data as one JSON file on standard output.
enum ExportCommand: Command {
    static let name = "export"
    static let abstract = "Write all preferences and the prayer log as JSON to standard output."
    static let discussion = "The file has sorted keys, so the same data always gives the same bytes."
    static let examples = ["praykit export > backup.json"]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let data = try context.dependency.backup().exportData().encoded()
        try context.output.write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
