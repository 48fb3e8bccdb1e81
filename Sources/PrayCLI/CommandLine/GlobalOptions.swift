import PrayCore
import PrayKit
import PrayServices

/// The options every command accepts, anywhere on the command line: where the log goes and from
/// which level. They are read before the command, so logging is set before any service starts.
struct GlobalOptions: Equatable {
    /// The options, for help.
    static let specs = [
        OptionSpec(
            name: "log-level", value: "level",
            help: "Log events from this level up, on standard error or in --log-file. Overrides PRAYKIT_LOG_LEVEL.",
            choices: LogLevel.allCases.map(\.rawValue), defaultText: LogLevel.warning.rawValue
        ),
        OptionSpec(
            name: "log-file", value: "path",
            help:
                "Append log events to this file instead of standard error. It is rotated at 5 MiB; three old files are kept."
        ),
    ]

    /// The level chosen: `--log-level`, else `PRAYKIT_LOG_LEVEL`, else `warning`.
    var level: LogLevel = .warning
    /// The log file, if any.
    var file: String?

    /// Takes the global options out of `arguments` (before a `--`), returning the rest.
    /// - Throws: ``CLIError`` (usage) for a missing or unknown level, or a missing path.
    static func extract(
        from arguments: [String], environment: [String: String]
    ) throws(CLIError) -> (options: GlobalOptions, rest: [String]) {
        var options = GlobalOptions()
        if let name = environment["PRAYKIT_LOG_LEVEL"], !name.isEmpty {
            options.level = try level(named: name, source: "PRAYKIT_LOG_LEVEL")
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
            guard let spec = specs.first(where: { argument == "--\($0.name)" || argument.hasPrefix("--\($0.name)=") })
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
                throw .usage("Missing value for '\(spec.synopsis)'", command: "")
            }
            switch spec.name {
            case "log-level": options.level = try level(named: value, source: "--log-level")
            default:
                guard !value.isEmpty else { throw .usage("Missing value for '\(spec.synopsis)'", command: "") }
                options.file = value
            }
        }
        return (options, rest)
    }

    /// Sets the process's logging: the file if one was given, else standard error.
    /// - Throws: ``CLIError`` (runtime) when the log file cannot be opened.
    func configureLogging() throws(CLIError) {
        let service: any LogService
        if let file {
            do {
                service = try LogServiceFile(path: file)
            } catch {
                throw .runtime(error.message)
            }
        } else {
            service = LogServiceConsole()
        }
        PrayLogging.configure(services: [service], minLevel: level)
    }

    private static func level(named name: String, source: String) throws(CLIError) -> LogLevel {
        guard let level = LogLevel(rawValue: name.lowercased()) else {
            let values = LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
            throw .usage("\(source) '\(name)' is not a log level (values: \(values))", command: "")
        }
        return level
    }
}
