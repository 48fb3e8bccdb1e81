/// One option a command accepts.
struct OptionSpec {
    /// The long name without dashes: `lat` for `--lat`.
    let name: String
    /// The placeholder of the value (`deg`), or `nil` for a flag.
    let value: String?
    /// One line of help.
    let help: String
    /// The accepted values, listed in help, or empty for any.
    var choices: [String] = []
    /// The value used when the option is absent, shown in help.
    var defaultText: String?

    /// `--lat <deg>` or `--json`.
    var synopsis: String { value.map { "--\(name) <\($0)>" } ?? "--\(name)" }
}

extension OptionSpec {
    /// `--lat <deg>`.
    static let latitude = OptionSpec(name: "lat", value: "deg", help: "Latitude in degrees, north positive (-90…90).")
    /// `--lon <deg>`.
    static let longitude = OptionSpec(
        name: "lon", value: "deg", help: "Longitude in degrees, east positive (-180…180).")

    /// `--format <format>` with these choices, the first being the default.
    static func format(_ choices: [String], help: String = "Output format.") -> OptionSpec {
        OptionSpec(name: "format", value: "format", help: help, choices: choices, defaultText: choices.first)
    }

    /// `--tz <IANA>`.
    static func timeZone(_ help: String) -> OptionSpec {
        OptionSpec(name: "tz", value: "IANA", help: help, defaultText: "$TZ, else the system zone")
    }
}

/// The options and arguments given to one command.
struct ParsedArguments {
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    /// Whether `-h` or `--help` was given.
    private(set) var wantsHelp = false

    /// The value of `--name`, if given.
    subscript(name: String) -> String? { values[name] }

    /// Whether the flag `--name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// These arguments with `defaults` for the options that were not given (stored preferences).
    func filling(_ defaults: [String: String]) -> ParsedArguments {
        var filled = self
        for (name, value) in defaults where filled.values[name] == nil { filled.values[name] = value }
        return filled
    }

    /// Parses `arguments` against `options` in the conventions of swift-argument-parser:
    /// `--name value`, `--name=value`, flags, `-h`/`--help`, and `--` before positional arguments.
    /// A value may start with `-` (`--lon -74.0`). The last of repeated options wins.
    /// - Throws: ``CLIError`` (usage) for an unknown option, a missing value, or a value given to a
    ///   flag.
    init(_ arguments: [String], options: [OptionSpec], command: String, positionalsAllowed: Int = 0) throws(CLIError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                wantsHelp = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw .usage("Unknown option '\(argument)'", command: command)
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let spec = options.first(where: { $0.name == name }) else {
                throw .usage("Unknown option '--\(name)'", command: command)
            }
            guard spec.value != nil else {
                if inline != nil { throw .usage("'--\(name)' does not take a value", command: command) }
                flags.insert(name)
                continue
            }
            if let inline {
                values[name] = inline
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                values[name] = arguments[index]
                index += 1
            } else {
                throw .usage("Missing value for '\(spec.synopsis)'", command: command)
            }
        }
        if positionals.count > positionalsAllowed, !wantsHelp {
            throw .usage("Unexpected argument '\(positionals[positionalsAllowed])'", command: command)
        }
    }
}

/// Help text in the layout of swift-argument-parser: OVERVIEW, USAGE, OPTIONS (and SUBCOMMANDS).
enum HelpText {
    static func render(overview: String, usage: String, options: [OptionSpec], footer: String? = nil) -> String {
        var lines = ["OVERVIEW: \(overview)", "", "USAGE: \(usage)", "", "OPTIONS:"]
        let all = options + [OptionSpec(name: "help", value: nil, help: "Show help information.")]
        lines += all.map { row($0) }
        lines += ["", "GLOBAL OPTIONS:"] + GlobalOptions.specs.map { row($0) }
        if let footer { lines += ["", footer] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An option and its help, with its values and default, as one help row.
    static func row(_ option: OptionSpec) -> String {
        var help = option.help
        if !option.choices.isEmpty { help += " (values: \(option.choices.joined(separator: ", ")))" }
        if let defaultText = option.defaultText { help += " (default: \(defaultText))" }
        return row(option.name == "help" ? "-h, --help" : option.synopsis, help)
    }

    /// An option and its help, aligned at column 28, the help wrapped at 100 columns.
    static func row(_ left: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: 28)
        var first = "  " + left
        first += first.count < 27 ? String(repeating: " ", count: 28 - first.count) : "\n" + indent
        var lines: [String] = []
        var current = ""
        for word in help.split(separator: " ") {
            if current.count + word.count + 1 > 72, !current.isEmpty {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        lines.append(current)
        return first + lines.joined(separator: "\n" + indent)
    }
}
