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
    /// The value used when the option is absent, shown in help.
    var defaultText: String? { get }
    /// Whether the option may be given more than once.
    var isRepeatable: Bool { get }
    /// What completion offers for the value.
    var completion: CompletionKind { get }
}

extension OptionDefinition {
    /// `--lat <deg>` or `--json`.
    var synopsis: String { valueName.map { "--\(name) <\($0)>" } ?? "--\(name)" }
    /// Whether the option takes no value.
    var isFlag: Bool { valueName == nil }
}

/// An option with a typed value: `--lat <deg>` is `Option<Double>`.
struct Option<Value: ArgumentValue>: OptionDefinition {
    let name: String
    let valueName: String?
    let help: String
    let defaultText: String?
    let isRepeatable: Bool
    let choices: [String]
    let completion: CompletionKind

    /// Declares `--name <value>`.
    /// - Parameters:
    ///   - allowed: The values this command accepts when fewer than the type's (`--format` of
    ///     `qibla`: table and json).
    init(
        _ name: String, value: String, help: String, default defaultText: String? = nil, repeatable: Bool = false,
        allowed: [Value]? = nil, completion: CompletionKind? = nil
    ) {
        self.name = name
        self.valueName = value
        self.help = help
        self.defaultText = defaultText
        self.isRepeatable = repeatable
        let choices = allowed.map { $0.map(\.argumentDescription) } ?? Value.allValueStrings
        self.choices = choices
        self.completion = completion ?? (choices.isEmpty ? .none : .list(choices))
    }
}

/// An option without a value: `--next-notable`.
struct Flag: OptionDefinition {
    let name: String
    let help: String
    var valueName: String? { nil }
    var choices: [String] { [] }
    var defaultText: String? { nil }
    var isRepeatable: Bool { false }
    var completion: CompletionKind { .none }

    /// Declares `--name`.
    init(_ name: String, help: String) {
        self.name = name
        self.help = help
    }
}

/// A positional argument: `<key>` of `config get <key>`.
struct Positional: Sendable {
    /// The placeholder: `key`.
    let name: String
    /// One line of help.
    let help: String
    /// Whether it may be left out.
    var isOptional = false
    /// Whether it takes every remaining argument.
    var isVariadic = false
    /// What completion offers.
    var completion: CompletionKind = .none
}
