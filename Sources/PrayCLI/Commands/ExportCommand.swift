import Foundation
import PrayCore

/// `praykit export`: all user data as one JSON file on standard output.
struct ExportCommand: Command {
    static let name = "export"
    static let abstract = "Write all preferences and the prayer log as JSON to standard output."
    static let discussion = "The file has sorted keys, so the same data always gives the same bytes."
    static let examples = ["praykit export > backup.json"]

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {}

    func run(_ context: CommandContext) async throws(CLIError) {
        let data: Data
        do {
            data = try context.dependency.backup().exportData().encoded()
        } catch {
            throw CLIError(error, command: Self.name)
        }
        try context.output.write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
