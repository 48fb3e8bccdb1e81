import Foundation
import PrayCore
import PrayKit

/// The `praykit` command: parses the command line, runs one subcommand, and maps failures to exit
/// codes (64 for usage, 1 for runtime) with `Error: …` on standard error.
enum PrayCommandLine {
    static let overview = "Prayer times, calculated from the sun's position."
    static let usage = "praykit [--log-level <level>] [--log-file <path>] <subcommand>"

    static var help: String {
        let options = [HelpText.row("--version", "Show the version.")] + GlobalOptions.specs.map { HelpText.row($0) }
        return
            ([
                "OVERVIEW: \(overview)",
                "",
                "USAGE: \(usage)",
                "",
                "OPTIONS:",
            ] + options + [
                HelpText.row("-h, --help", "Show help information."),
                "",
                "SUBCOMMANDS:",
            ] + commands.map { HelpText.row($0.name, $0.overview) } + [
                HelpText.row("help", "Show help for a subcommand."),
                "",
                "  See 'praykit help <subcommand>' for detailed help.",
            ]).joined(separator: "\n") + "\n"
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
    /// The global options (`--log-level`, `--log-file`) may appear anywhere before a `--`; logging is
    /// set from them before any service is created.
    static func run(_ commandLine: [String], environment: [String: String], now: Date) async throws(CLIError) -> String
    {
        let (global, arguments) = try GlobalOptions.extract(from: commandLine, environment: environment)
        try global.configureLogging()
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
            // The configuration is fixed at the first service used: set the timetable first.
            let remote = try TimesCommand.remote(parsed, environment: environment)
            PrayDependency.configure(PrayDependency.Configuration(remoteTimetable: remote))
            let dependency = PrayDependency()
            let preferences = try storedPreferences(dependency)
            let command = try TimesCommand(parsed, preferences: preferences, environment: environment, now: now)
            let service = remote == nil ? dependency.prayerService() : dependency.remotePrayerService()
            return try await command.run(service: service, hijri: dependency.hijriService())
        case QiblaCommand.name:
            let parsed = try ParsedArguments(rest, options: QiblaCommand.options, command: QiblaCommand.name)
            if parsed.wantsHelp { return QiblaCommand.help }
            return try QiblaCommand(parsed).run(service: PrayDependency().qiblaService())
        case HijriCommand.name:
            let parsed = try ParsedArguments(rest, options: HijriCommand.options, command: HijriCommand.name)
            if parsed.wantsHelp { return HijriCommand.help }
            let dependency = PrayDependency()
            let preferences = try storedPreferences(dependency)
            let command = try HijriCommand(parsed, preferences: preferences, environment: environment, now: now)
            return try await command.run(service: dependency.hijriService())
        case ConfigCommand.name:
            let parsed = try ParsedArguments(
                rest, options: ConfigCommand.options, command: ConfigCommand.name, positionalsAllowed: 3
            )
            if parsed.wantsHelp { return ConfigCommand.help }
            return try ConfigCommand(parsed).run(store: PrayDependency().preferences())
        case LogCommand.name:
            let parsed = try ParsedArguments(
                rest, options: LogCommand.options, command: LogCommand.name, positionalsAllowed: 2)
            if parsed.wantsHelp { return LogCommand.help }
            let dependency = PrayDependency()
            let filled = parsed.filling(try storedPreferences(dependency).filter { $0.key == "tz" })
            return try LogCommand(filled, environment: environment, now: now).run(store: dependency.prayerLog())
        case BackupCommands.exportName:
            let parsed = try ParsedArguments(rest, options: [], command: BackupCommands.exportName)
            if parsed.wantsHelp { return BackupCommands.exportHelp }
            return try BackupCommands.export(service: PrayDependency().backup())
        case BackupCommands.importName:
            let parsed = try ParsedArguments(
                rest, options: [], command: BackupCommands.importName, positionalsAllowed: 1)
            if parsed.wantsHelp { return BackupCommands.importHelp }
            return try BackupCommands.import(parsed, service: PrayDependency().backup())
        case MethodsCommand.name:
            let parsed = try ParsedArguments(rest, options: MethodsCommand.options, command: MethodsCommand.name)
            if parsed.wantsHelp { return MethodsCommand.help }
            return try MethodsCommand(parsed).run()
        default:
            throw .usage("Unknown subcommand '\(first)'", command: "")
        }
    }

    /// The stored preferences as option values: the `praykit times` option names, with `lat` and
    /// `lon` for `latitude` and `longitude`.
    static func storedPreferences(_ dependency: PrayDependency) throws(CLIError) -> [String: String] {
        let preferences: Preferences
        do {
            preferences = try dependency.preferences().preferences()
        } catch let error as StorageError {
            throw .runtime(error.description)
        } catch {
            throw .runtime("\(error)")
        }
        var options: [String: String] = [:]
        for (key, value) in preferences.values {
            switch key {
            case .latitude: options["lat"] = value
            case .longitude: options["lon"] = value
            default: options[key.rawValue] = value
            }
        }
        return options
    }

    /// Each subcommand's name, overview, help and usage, in the order `--help` lists them.
    static let commands: [(name: String, overview: String, help: String, usage: String)] = [
        (TimesCommand.name, TimesCommand.overview, TimesCommand.help, TimesCommand.usage),
        (MethodsCommand.name, MethodsCommand.overview, MethodsCommand.help, MethodsCommand.usage),
        (QiblaCommand.name, QiblaCommand.overview, QiblaCommand.help, QiblaCommand.usage),
        (HijriCommand.name, HijriCommand.overview, HijriCommand.help, HijriCommand.usage),
        (ConfigCommand.name, ConfigCommand.overview, ConfigCommand.help, ConfigCommand.usage),
        (LogCommand.name, LogCommand.overview, LogCommand.help, LogCommand.usage),
        (
            BackupCommands.exportName, BackupCommands.exportOverview, BackupCommands.exportHelp,
            BackupCommands.exportUsage
        ),
        (
            BackupCommands.importName, BackupCommands.importOverview, BackupCommands.importHelp,
            BackupCommands.importUsage
        ),
    ]

    static func helpText(for topic: String) throws(CLIError) -> String {
        guard let command = commands.first(where: { $0.name == topic }) else {
            throw .usage("Unknown subcommand '\(topic)'", command: "")
        }
        return command.help
    }

    static func usage(of command: String) -> String {
        commands.first { $0.name == command }?.usage ?? usage
    }
}

exit(await PrayCommandLine.main())
