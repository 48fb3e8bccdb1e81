import PrayCore
import PrayKit

/// The options every command accepts, anywhere on the command line before `--`: where the log goes
/// and from which level. They are read before the command, so the process's one configuration
/// carries them before any service starts.
struct GlobalOptions: Equatable {
    static let logLevel = Option(
        "log-level", value: "level",
        help: "Log events from this level up, on standard error or in --log-file. Overrides PRAYKIT_LOG_LEVEL.",
        default: LogLevel.warning
    )
    static let logFile = Option<String?>(
        "log-file", value: "path",
        help:
            "Append log events to this file instead of standard error. It is rotated at 5 MiB; three old files are kept.",
        completion: .file
    )

    /// The options, for help, completions and the man page.
    static let definitions: [any OptionDefinition] = [logLevel, logFile]

    /// The level chosen: `--log-level`, else `PRAYKIT_LOG_LEVEL`, else `warning`.
    var level: LogLevel = .warning
    /// The log file, if any.
    var file: String?
    /// Warnings about the environment to print before the command runs (an unknown
    /// `PRAYKIT_LOG_LEVEL` is a warning, not a failure of every command).
    var warnings: [String] = []

    /// Takes the global options out of `arguments` (before a `--`), returning the rest.
    /// - Throws: ``CLIError`` (usage) for a missing or unknown level, or a missing path.
    static func extract(
        from arguments: [String], environment: [String: String]
    ) throws(CLIError) -> (options: GlobalOptions, rest: [String]) {
        var options = GlobalOptions()
        if let name = environment["PRAYKIT_LOG_LEVEL"], !name.isEmpty {
            if let level = LogLevel(rawValue: name.lowercased()) {
                options.level = level
            } else {
                let values = LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
                options.warnings.append(
                    "PRAYKIT_LOG_LEVEL '\(name)' is not a log level (\(values)); using warning")
            }
        }
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                rest += arguments[(index - 1)...]
                break
            }
            guard
                let option = definitions.first(where: {
                    argument == "--\($0.name)" || argument.hasPrefix("--\($0.name)=")
                })
            else {
                rest.append(argument)
                continue
            }
            let value: String
            if argument.contains("=") {
                value = String(argument.drop { $0 != "=" }.dropFirst())
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                throw .usage("Missing value for '\(option.synopsis)'")
            }
            if option.name == logLevel.name {
                do {
                    options.level = try LogLevel(argument: value)
                } catch {
                    throw .usage(error.message(for: "--log-level", value: value))
                }
            } else {
                guard !value.isEmpty else { throw .usage("Missing value for '\(option.synopsis)'") }
                options.file = value
            }
        }
        return (options, rest)
    }

    /// The process's configuration with these logging choices, its database found in `environment`
    /// (the one the command line was given, read once: not Foundation's copy of it).
    func configuration(environment: [String: String]) -> PrayDependency.Configuration {
        PrayDependency.Configuration(
            minLogLevel: level, logDestinations: [file.map { .file(path: $0) } ?? .console],
            databasePath: environment["PRAYKIT_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
                ?? PrayDependency.Configuration.defaultDatabasePath(environment: environment)
        )
    }
}
