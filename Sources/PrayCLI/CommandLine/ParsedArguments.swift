/// The options and arguments given to one command, parsed against its declared options, with
/// typed access that turns a bad value into a usage error naming the option.
struct ParsedArguments: Sendable {
    /// The command path, for messages (`config set`).
    let commandPath: String
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    /// Whether `-h` or `--help` was given.
    private(set) var wantsHelp = false

    /// No arguments.
    static let empty = ParsedArguments(commandPath: "")

    private init(commandPath: String) {
        self.commandPath = commandPath
    }

    /// Parses `arguments` against `options` in the conventions of swift-argument-parser:
    /// `--name value`, `--name=value`, flags, `-h`/`--help`, and `--` before positional arguments.
    /// A value may be negative (`--lon -74.0`, `config set longitude -0.1278`): an argument that
    /// reads as a negative number is a value, never an option.
    /// - Throws: ``CLIError`` (usage) for an unknown option (with the closest one), a missing value,
    ///   a value given to a flag, an option given twice, or positional arguments that do not fit.
    init(
        _ arguments: [String], options: [any OptionDefinition], positionals declared: [Positional],
        commandPath: String
    ) throws(CLIError) {
        self.commandPath = commandPath
        func fail(_ message: String) -> CLIError { .usage(message, command: commandPath) }
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !Self.isOption(argument) {
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
                throw fail("Unknown option '\(argument)'" + Self.suggestion(for: argument, among: options))
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = options.first(where: { $0.name == name }) else {
                throw fail("Unknown option '--\(name)'" + Self.suggestion(for: "--" + name, among: options))
            }
            if option.isFlag {
                if inline != nil { throw fail("'--\(name)' does not take a value") }
                guard flags.insert(name).inserted else { throw fail("'--\(name)' was given twice") }
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                throw fail("Missing value for '\(option.synopsis)'")
            }
            if values[name] != nil, !option.isRepeatable {
                throw fail("'--\(name)' was given twice; give it once")
            }
            values[name, default: []].append(value)
        }
        guard !wantsHelp else { return }
        let variadic = declared.contains { $0.isVariadic }
        if positionals.count > declared.count, !variadic {
            throw fail("Unexpected argument '\(positionals[declared.count])'")
        }
        if let missing = declared.dropFirst(positionals.count).first(where: { !$0.isOptional }) {
            throw fail("Missing expected argument '<\(missing.name)>'")
        }
    }

    /// Whether an argument is an option (or `--`) rather than a value: it starts with `-`, is not
    /// `-` alone (standard input), and is not a negative number.
    static func isOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument != "-" else { return false }
        return !Double.isDecimal(argument)
    }

    private static func suggestion(for text: String, among options: [any OptionDefinition]) -> String {
        Suggestion.didYouMean(text, among: options.map { "--" + $0.name } + ["--help"])
    }

    // MARK: - Typed access

    /// The value of `option`, converted, or `nil` when it was not given.
    /// - Throws: ``CLIError`` (usage) naming the option and what it must be.
    func value<Value: ArgumentValue>(_ option: Option<Value>) throws(CLIError) -> Value? {
        guard let text = values[option.name]?.last else { return nil }
        return try convert(text, option)
    }

    /// Every value of a repeatable `option`, in order.
    /// - Throws: ``CLIError`` (usage) naming the option and what it must be.
    func allValues<Value: ArgumentValue>(_ option: Option<Value>) throws(CLIError) -> [Value] {
        var result: [Value] = []
        for text in values[option.name] ?? [] { result.append(try convert(text, option)) }
        return result
    }

    /// Whether `flag` was given.
    func has(_ flag: Flag) -> Bool { flags.contains(flag.name) }

    /// Whether `option` was given.
    func isGiven(_ option: any OptionDefinition) -> Bool {
        option.isFlag ? flags.contains(option.name) : values[option.name] != nil
    }

    /// The text given for `option`, unconverted.
    func text(_ option: any OptionDefinition) -> String? { values[option.name]?.last }

    /// Converts one text, checking a command's narrower set of values.
    private func convert<Value: ArgumentValue>(_ text: String, _ option: Option<Value>) throws(CLIError) -> Value {
        let value: Value
        do {
            value = try Value(argument: text)
        } catch {
            throw .usage("--\(option.name) \(error.reason), got '\(text)'\(error.suggestion)", command: commandPath)
        }
        if !option.choices.isEmpty, !option.choices.contains(value.argumentDescription) {
            let reason = Value.choiceReason(among: option.choices)
            let suggestion = Suggestion.didYouMean(text, among: option.choices)
            throw .usage("--\(option.name) \(reason), got '\(text)'\(suggestion)", command: commandPath)
        }
        return value
    }
}
