import Foundation
import PrayCore

/// `praykit log export`.
struct LogExportCommand: Command {
    static let name = "export"
    static let abstract = "Write the whole prayer log as CSV or JSON."
    static let format = Option<OutputFormat>.format([.csv, .json])
    static let options: [any OptionDefinition] = [format]

    let format: OutputFormat

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        format = try arguments.value(Self.format) ?? .csv
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let entries = try LogCommand.store(context) {
            try $0.entries(from: CivilDate.first, through: CivilDate.last)
        }
        try LogListCommand.write(entries, format: format, to: context.output)
    }
}
