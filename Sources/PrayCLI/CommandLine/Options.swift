/// What every declared option has, whatever the type of its value: the material of parsing, help,
/// completions and the man page.
protocol OptionDefinition: Sendable {
    /// The long name without dashes: `lat` for `--lat`.
    var name: String { get }
    /// The placeholder of the value (`deg`), or `nil` for a flag.
    var valueName: String? { get }
    /// One line of help.
    var help: String { get }
    /// The accepted values, listed in help and offered by completion; empty for any.
    var choices: [String] { get }
    /// The default shown in help, when the option has one.
    var defaultText: String? { get }
    /// Whether the option must be given.
    var isRequired: Bool { get }
    /// Whether the option may be given more than once.
    var isRepeatable: Bool { get }
    /// What completion offers for the value.
    var completion: CompletionKind { get }
    /// Old spellings still read as this option (`--through` of `fast list`), hidden from help,
    /// completions and the man page.
    var aliases: [String] { get }

    /// Converts and checks the texts given (in order), or returns the value of the option when it
    /// was not given (`texts` empty): the typed value, ready for ``ParsedArguments``.
    /// - Throws: ``CLIError`` (usage) naming the option and what it must be, or that it is missing.
    func parse(_ texts: [String]) throws(CLIError) -> any Sendable
}

extension OptionDefinition {
    var aliases: [String] { [] }

    /// `--lat <deg>` or `--json`.
    var synopsis: String { valueName.map { "--\(name) <\($0)>" } ?? "--\(name)" }

    /// The usage error of this option left out: `Missing expected argument '--lat <deg>'`, with a
    /// note in brackets when given (`given with --lon`).
    func missing(_ note: String? = nil) -> CLIError {
        .usage("Missing expected argument '\(synopsis)'" + (note.map { " (\($0))" } ?? ""))
    }
    /// Whether the option takes no value.
    var isFlag: Bool { valueName == nil }
}

/// An option with a typed value, declared once with its default, its range and its help, as
/// `@Option var days = 1` is in swift-argument-parser:
///
/// ```swift
/// static let days = Option("days", value: "n", help: "Number of days.", default: 1, range: 1...3660)
/// static let limit = Option<Int?>("limit", value: "n", help: "Stop after this many.")   // optional
/// static let status = Option<PrayerStatus>("status", value: "status", help: "How it was kept.")  // required
/// ```
///
/// Reading it gives its type: `arguments[Self.days]` is an `Int`, `arguments[Self.limit]` an `Int?`.
/// A value out of range, a bad value and a missing required option are usage errors worded from
/// the declaration, before the command runs.
struct Option<Value: ArgumentValue>: OptionDefinition {
    let name: String
    let valueName: String?
    /// One line of help, written when help is shown (a command's start does not format it).
    var help: String { helpText() }
    /// The default shown in help, written when help is shown.
    var defaultText: String? { defaultDescription() }
    private let helpText: @Sendable () -> String
    private let defaultDescription: @Sendable () -> String?
    let isRepeatable: Bool
    let choices: [String]
    let completion: CompletionKind
    /// The value when the option is not given: the declared default, `nil` for an optional value,
    /// or none at all for a required option.
    let defaultValue: Value?
    /// Says what is wrong with a converted value (`must be between 1 and 3660`), or `nil`.
    private let check: (@Sendable (Value) -> String?)?
    private(set) var aliases: [String] = []

    var isRequired: Bool { defaultValue == nil && !isRepeatable }

    /// This option, also read under the old spellings `names` (without dashes), which help,
    /// completions and the man page do not show.
    func aliased(_ names: String...) -> Self {
        var option = self
        option.aliases += names
        return option
    }

    /// Declares `--name <value>`.
    /// - Parameters:
    ///   - name: The long name without dashes.
    ///   - value: The placeholder of the value in help.
    ///   - help: One line of help.
    ///   - default: The value when the option is not given. Without one, an option of an optional
    ///     type is `nil` when not given, and an option of any other type is required.
    ///   - defaultText: The default in words for help, when it is not a value (`today in the zone`);
    ///     written only when help is shown.
    ///   - repeatable: Whether the option may be given more than once (read with
    ///     ``ParsedArguments/all(_:)``).
    ///   - allowed: The values this command accepts when fewer than the type's (`--format` of
    ///     `qibla`: table and json).
    ///   - completion: What completion offers; the choices by default.
    init(
        _ name: String, value: String, help: String, default: Value? = nil,
        defaultText: @autoclosure @escaping @Sendable () -> String? = nil,
        repeatable: Bool = false, allowed: [Value]? = nil, completion: CompletionKind? = nil
    ) {
        self.init(
            name, value: value, help: { help }, default: `default`, defaultText: defaultText, repeatable: repeatable,
            allowed: allowed, completion: completion, check: nil)
    }

    private init(
        _ name: String, value: String, help: @escaping @Sendable () -> String, default: Value?,
        defaultText: @escaping @Sendable () -> String?,
        repeatable: Bool, allowed: [Value]?, completion: CompletionKind?, check: (@Sendable (Value) -> String?)?
    ) {
        self.name = name
        valueName = value
        helpText = help
        defaultValue = `default` ?? Value.absentValue
        defaultDescription = { defaultText() ?? `default`.map(\.argumentDescription) }
        isRepeatable = repeatable
        let choices = allowed.map { $0.map(\.argumentDescription) } ?? Value.allValueStrings
        self.choices = choices
        self.completion = completion ?? (choices.isEmpty ? .none : .list(choices))
        self.check = check
    }

    func parse(_ texts: [String]) throws(CLIError) -> any Sendable {
        guard !texts.isEmpty else {
            if isRepeatable { return [Value]() }
            guard let defaultValue else { throw missing() }
            return defaultValue
        }
        var values: [Value] = []
        for text in texts { values.append(try convert(text)) }
        return isRepeatable ? values : values[values.count - 1]
    }

    /// Converts one text, checking the command's narrower set of values and the range.
    private func convert(_ text: String) throws(CLIError) -> Value {
        let value: Value
        do {
            value = try Value(argument: text)
        } catch {
            // A command that offers fewer values than the type names only its own.
            guard choices.isEmpty || choices == Value.allValueStrings else { throw notAChoice(text) }
            throw .usage(error.message(for: "--" + name, value: text))
        }
        if !choices.isEmpty, !choices.contains(value.argumentDescription) { throw notAChoice(text) }
        if let reason = check?(value) { throw .usage("--\(name) \(reason), got \(value.argumentDescription)") }
        return value
    }

    /// `--format must be one of table, json, got 'x'`.
    private func notAChoice(_ text: String) -> CLIError {
        .usage(
            "--\(name) \(Value.choiceReason(among: choices)), got '\(text)'"
                + Suggestion.didYouMean(text, among: choices))
    }
}

extension Option where Value: Comparable & Sendable {
    /// Declares `--name <value>` whose value must lie in `range` (help shows it).
    init(
        _ name: String, value: String, help: String, default: Value? = nil,
        defaultText: @autoclosure @escaping @Sendable () -> String? = nil,
        range: ClosedRange<Value>, unit: String = "", repeatable: Bool = false
    ) {
        self.init(
            name, value: value, help: { Self.helpWithRange(help, range, unit) }, default: `default`,
            defaultText: defaultText, repeatable: repeatable, allowed: nil, completion: nil,
            check: Self.rangeCheck(range, unit))
    }
}

extension Option {
    /// Declares an optional `--name <value>` whose value, when given, must lie in `range`.
    init<Bound: ArgumentValue & Comparable & Sendable>(
        _ name: String, value: String, help: String, defaultText: @autoclosure @escaping @Sendable () -> String? = nil,
        range: ClosedRange<Bound>,
        unit: String = ""
    ) where Value == Bound? {
        let check = Option<Bound>.rangeCheck(range, unit)
        self.init(
            name, value: value, help: { Option<Bound>.helpWithRange(help, range, unit) }, default: nil,
            defaultText: defaultText, repeatable: false, allowed: nil, completion: nil,
            check: { value in value.flatMap(check) })
    }

    /// Declares an optional `--name <value>` that, when given, must be at least `minimum`.
    init<Bound: ArgumentValue & Comparable & Sendable>(
        _ name: String, value: String, help: String, atLeast minimum: Bound
    ) where Value == Bound? {
        self.init(
            name, value: value, help: { help }, default: nil, defaultText: { nil }, repeatable: false, allowed: nil,
            completion: nil,
            check: { value in
                guard let value, value < minimum else { return nil }
                return "must be at least \(minimum.argumentDescription)"
            })
    }

    /// `Number of days (1…3660).`: the range in the help, unless the help already says it.
    fileprivate static func helpWithRange<Bound>(_ help: String, _ range: ClosedRange<Bound>, _ unit: String) -> String
    where Bound: ArgumentValue {
        let text = "\(range.lowerBound.argumentDescription)…\(range.upperBound.argumentDescription)"
        guard !help.contains(text) else { return help }
        let body = help.hasSuffix(".") ? String(help.dropLast()) : help
        return "\(body) (\(text)\(unit.isEmpty ? "" : " " + unit))."
    }

    /// `must be between 1 and 3660 minutes` for a value outside `range`.
    fileprivate static func rangeCheck<Bound: ArgumentValue & Comparable & Sendable>(
        _ range: ClosedRange<Bound>, _ unit: String
    ) -> @Sendable (Bound) -> String? {
        { value in
            guard !range.contains(value) else { return nil }
            return "must be between \(range.lowerBound.argumentDescription) and "
                + "\(range.upperBound.argumentDescription)\(unit.isEmpty ? "" : " " + unit)"
        }
    }
}

/// An option without a value: `--watch`. Reading it gives whether it was given.
struct Flag: OptionDefinition {
    let name: String
    let help: String
    var valueName: String? { nil }
    var choices: [String] { [] }
    var defaultText: String? { nil }
    var isRequired: Bool { false }
    var isRepeatable: Bool { false }
    var completion: CompletionKind { .none }

    /// Declares `--name`.
    init(_ name: String, help: String) {
        self.name = name
        self.help = help
    }

    func parse(_ texts: [String]) throws(CLIError) -> any Sendable { !texts.isEmpty }
}

/// What every declared positional argument has.
protocol ArgumentDefinition: Sendable {
    /// The placeholder: `key`.
    var name: String { get }
    /// One line of help.
    var help: String { get }
    /// Whether it may be left out.
    var isOptional: Bool { get }
    /// Whether it takes every remaining argument.
    var isVariadic: Bool { get }
    /// What completion offers.
    var completion: CompletionKind { get }

    /// Converts the texts given for it (one, none when left out, or several when variadic).
    /// - Throws: ``CLIError`` (usage) naming the argument and what it must be.
    func parse(_ texts: [String]) throws(CLIError) -> any Sendable
}

extension ArgumentDefinition {
    /// The usage error of this argument left out: `Missing expected argument '<shell>'`.
    var missing: CLIError { .usage("Missing expected argument '<\(name)>'") }
}

/// A typed positional argument: `<key>` of `config get <key>`. `Argument<String?>` may be left out, and
/// so may one declared with a default (`Argument("count", help: …, default: 1)`); a variadic one is
/// read with ``ParsedArguments/all(_:)``.
struct Argument<Value: ArgumentValue>: ArgumentDefinition {
    let name: String
    let help: String
    let isVariadic: Bool
    let completion: CompletionKind
    /// The value when the argument is left out: the declared default, `nil` for an optional value, or
    /// none (the argument is required).
    private let defaultValue: Value?

    /// Declares `<name>`.
    /// - Parameter default: The value when the argument is left out (help says it).
    init(
        _ name: String, help: String, default: Value? = nil, variadic: Bool = false, completion: CompletionKind? = nil
    ) {
        self.name = name
        self.help = `default`.map { "\(help) (default: \($0.argumentDescription))" } ?? help
        isVariadic = variadic
        defaultValue = `default` ?? Value.absentValue
        let choices = Value.allValueStrings
        self.completion = completion ?? (choices.isEmpty ? .none : .list(choices))
    }

    var isOptional: Bool { isVariadic || defaultValue != nil }

    func parse(_ texts: [String]) throws(CLIError) -> any Sendable {
        var values: [Value] = []
        for text in texts {
            do {
                values.append(try Value(argument: text))
            } catch {
                throw .usage(error.message(for: "<\(name)>", value: text))
            }
        }
        if isVariadic { return values }
        if let value = values.first { return value }
        guard let defaultValue else { throw missing }
        return defaultValue
    }
}
