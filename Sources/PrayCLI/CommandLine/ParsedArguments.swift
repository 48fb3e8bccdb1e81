/// The options and arguments given to one command, parsed against its declarations: every value is
/// converted and checked (type, allowed values, range, presence) when the command line is read, so
/// that a command reads typed values and a bad command line fails before any work.
struct ParsedArguments: Sendable {
    /// The typed value of every declared option and argument, by name (`--lat` as `lat`, `<key>`
    /// as `<key>`).
    private var values: [String: any Sendable] = [:]
    /// The options given on the command line.
    private(set) var given: Set<String> = []
    /// Whether `-h` or `--help` was given.
    private(set) var wantsHelp = false

    /// No arguments.
    static let empty = ParsedArguments()

    private init() {}

    /// Parses `arguments` against `command`'s declarations in the conventions of
    /// swift-argument-parser: `--name value`, `--name=value`, flags, `-h`/`--help`, and `--` before
    /// positional arguments. A value may be negative (`--lon -74.0`, `config set longitude -0.1278`):
    /// an argument that reads as a negative number is a value, never an option.
    /// - Throws: ``CLIError`` (usage) for an unknown option (with the closest one), a missing value,
    ///   a value given to a flag, an option given twice, a bad or out-of-range value, a missing
    ///   required option, or positional arguments that do not fit.
    init(_ arguments: [String], for command: any Command.Type) throws(CLIError) {
        let options = command.options
        var texts: [String: [String]] = [:]
        var positionals: [String] = []
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
                throw .usage("Unknown option '\(argument)'" + Self.suggestion(for: argument, among: options))
            }
            let body = argument.dropFirst(2)
            let typed = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = options.first(where: { $0.name == typed || $0.aliases.contains(typed) }) else {
                throw .usage("Unknown option '--\(typed)'" + Self.suggestion(for: "--" + typed, among: options))
            }
            // An old spelling is the option itself: given with the new one, it is given twice.
            let name = option.name
            if option.isFlag {
                if inline != nil { throw .usage("'--\(name)' does not take a value") }
                guard given.insert(name).inserted else { throw .usage("'--\(name)' was given twice") }
                texts[name] = [""]
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                throw .usage("Missing value for '\(option.synopsis)'")
            }
            if given.contains(name), !option.isRepeatable { throw .usage("'--\(name)' was given twice; give it once") }
            given.insert(name)
            texts[name, default: []].append(value)
        }
        guard !wantsHelp else { return }
        for option in options { values[option.name] = try option.parse(texts[option.name] ?? []) }
        try assign(positionals, to: command.arguments)
    }

    /// Converts the positional arguments, in order, into the declared ones.
    private mutating func assign(_ positionals: [String], to declared: [any ArgumentDefinition]) throws(CLIError) {
        var rest = positionals[...]
        for argument in declared {
            let texts = argument.isVariadic ? Array(rest) : Array(rest.prefix(1))
            rest = rest.dropFirst(texts.count)
            values["<\(argument.name)>"] = try argument.parse(texts)
        }
        if let extra = rest.first { throw .usage("Unexpected argument '\(extra)'") }
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

    /// The value of `option`: the one given, else its default (`nil` for an optional option).
    /// Reading an option the command did not declare is a programming error.
    subscript<Value>(option: Option<Value>) -> Value {
        guard let value = values[option.name] as? Value ?? option.defaultValue else {
            preconditionFailure("--\(option.name) is not an option of this command")
        }
        return value
    }

    /// Every value of a repeatable `option`, in order.
    func all<Value>(_ option: Option<Value>) -> [Value] {
        values[option.name] as? [Value] ?? []
    }

    /// Whether `flag` was given.
    subscript(flag: Flag) -> Bool { given.contains(flag.name) }

    /// The value of a positional argument.
    subscript<Value>(argument: Argument<Value>) -> Value {
        guard let value = values["<\(argument.name)>"] as? Value else {
            preconditionFailure("<\(argument.name)> is not an argument of this command")
        }
        return value
    }

    /// Every value of a variadic argument, in order.
    func all<Value>(_ argument: Argument<Value>) -> [Value] {
        values["<\(argument.name)>"] as? [Value] ?? []
    }

    /// Whether `option` was given on the command line (rather than taking its default).
    func isGiven(_ option: any OptionDefinition) -> Bool { given.contains(option.name) }
}
