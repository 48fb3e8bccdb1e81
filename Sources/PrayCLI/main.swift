import Foundation
import PrayCore
import PrayKit

/// The `praykit` command: parses the command line, runs one subcommand, and maps failures to exit
/// codes (64 for usage, 1 for runtime) with `Error: …` on standard error.
enum PrayCommandLine {
    static let overview = "Prayer times, calculated from the sun's position."
    static let usage = "praykit <subcommand>"

    static var help: String {
        [
            "OVERVIEW: \(overview)",
            "",
            "USAGE: \(usage)",
            "",
            "OPTIONS:",
            HelpText.row("--version", "Show the version."),
            HelpText.row("-h, --help", "Show help information."),
            "",
            "SUBCOMMANDS:",
            HelpText.row(TimesCommand.name, TimesCommand.overview),
            HelpText.row(MethodsCommand.name, MethodsCommand.overview),
            HelpText.row(QiblaCommand.name, QiblaCommand.overview),
            HelpText.row(HijriCommand.name, HijriCommand.overview),
            HelpText.row("help", "Show help for a subcommand."),
            "",
            "  See 'praykit help <subcommand>' for detailed help.",
        ].joined(separator: "\n") + "\n"
    }

    static func main() async -> Int32 {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            let output = try await run(arguments, environment: ProcessInfo.processInfo.environment, now: Date())
            FileHandle.standardOutput.write(Data(output.utf8))
            return 0
        } catch {
            var message = "Error: \(error.message)\n"
            if case .usage(let command) = error.kind {
                message +=
                    "Usage: \(usage(of: command))\n  See 'praykit \(command.isEmpty ? "" : command + " ")--help' for more information.\n"
            }
            FileHandle.standardError.write(Data(message.utf8))
            return error.exitCode
        }
    }

    /// Runs one command line and returns what goes to standard output.
    static func run(_ arguments: [String], environment: [String: String], now: Date) async throws(CLIError) -> String {
        guard let first = arguments.first else { return help }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help":
            return help
        case "--version":
            return "praykit \(PrayKitInfo.version)\n"
        case "help":
            guard let topic = rest.first else { return help }
            return try helpText(for: topic)
        case TimesCommand.name:
            let parsed = try ParsedArguments(rest, options: TimesCommand.options, command: TimesCommand.name)
            if parsed.wantsHelp { return TimesCommand.help }
            let command = try TimesCommand(parsed, environment: environment, now: now)
            let dependency = PrayDependency()
            return try await command.run(service: dependency.prayerService(), hijri: dependency.hijriService())
        case QiblaCommand.name:
            let parsed = try ParsedArguments(rest, options: QiblaCommand.options, command: QiblaCommand.name)
            if parsed.wantsHelp { return QiblaCommand.help }
            return try QiblaCommand(parsed).run(service: PrayDependency().qiblaService())
        case HijriCommand.name:
            let parsed = try ParsedArguments(rest, options: HijriCommand.options, command: HijriCommand.name)
            if parsed.wantsHelp { return HijriCommand.help }
            let command = try HijriCommand(parsed, environment: environment, now: now)
            return try await command.run(service: PrayDependency().hijriService())
        case MethodsCommand.name:
            let parsed = try ParsedArguments(rest, options: MethodsCommand.options, command: MethodsCommand.name)
            if parsed.wantsHelp { return MethodsCommand.help }
            return try MethodsCommand(parsed).run()
        default:
            throw .usage("Unknown subcommand '\(first)'", command: "")
        }
    }

    static func helpText(for topic: String) throws(CLIError) -> String {
        switch topic {
        case TimesCommand.name: TimesCommand.help
        case MethodsCommand.name: MethodsCommand.help
        case HijriCommand.name: HijriCommand.help
        case QiblaCommand.name: QiblaCommand.help
        default: throw .usage("Unknown subcommand '\(topic)'", command: "")
        }
    }

    static func usage(of command: String) -> String {
        switch command {
        case TimesCommand.name: TimesCommand.usage
        case MethodsCommand.name: MethodsCommand.usage
        case HijriCommand.name: HijriCommand.usage
        case QiblaCommand.name: QiblaCommand.usage
        default: usage
        }
    }
}

exit(await PrayCommandLine.main())
