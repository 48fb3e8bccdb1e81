import Foundation
import PrayCore

/// Why a piece of text is not a value of an option: a phrase that follows the option's name
/// ("must be a number").
struct ArgumentValueError: Error, Equatable {
    /// The phrase, such as `must be a number`.
    let reason: String
    /// `; did you mean 'json'?`, or empty.
    var suggestion = ""
}

/// What shell completion offers for a value.
enum CompletionKind: Equatable, Sendable {
    /// Nothing in particular.
    case none
    /// These words.
    case list([String])
    /// A file name.
    case file
    /// An IANA time-zone name.
    case timeZone
}

/// A type an option's text converts to, like swift-argument-parser's `ExpressibleByArgument`.
protocol ArgumentValue {
    /// Converts the text given on the command line.
    /// - Throws: ``ArgumentValueError`` saying what the text must be.
    init(argument: String) throws(ArgumentValueError)
    /// The values listed in help and offered by completion; empty for an open set.
    static var allValueStrings: [String] { get }
    /// The text that names this value on the command line.
    var argumentDescription: String { get }
}

extension ArgumentValue {
    static var allValueStrings: [String] { [] }
    var argumentDescription: String { "\(self)" }
}

/// A closed set of values is an enum of strings: its raw values are what users type.
extension ArgumentValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    init(argument: String) throws(ArgumentValueError) {
        guard let value = Self(rawValue: argument.lowercased()) else {
            throw ArgumentValueError(
                reason: Self.choiceReason(among: Self.allValueStrings),
                suggestion: Suggestion.didYouMean(argument, among: Self.allValueStrings))
        }
        self = value
    }

    static var allValueStrings: [String] { allCases.map(\.rawValue) }
    var argumentDescription: String { rawValue }
}

extension ArgumentValue {
    /// `must be one of a, b, c`.
    static func choiceReason(among choices: [String]) -> String {
        "must be one of \(choices.joined(separator: ", "))"
    }
}

extension String: ArgumentValue {
    init(argument: String) throws(ArgumentValueError) {
        self = argument
    }
}

extension Int: ArgumentValue {
    /// Decimal digits with an optional sign: no hex, no spaces, no fractions.
    init(argument: String) throws(ArgumentValueError) {
        guard let value = Int(argument) else { throw ArgumentValueError(reason: "must be a whole number") }
        self = value
    }
}

extension Double: ArgumentValue {
    /// A finite decimal number (`21.4225`, `-0.1278`, `1e3`); no hex, `nan` or `inf`.
    init(argument: String) throws(ArgumentValueError) {
        guard Self.isDecimal(argument), let value = Double(argument), value.isFinite else {
            throw ArgumentValueError(reason: "must be a number")
        }
        self = value
    }

    /// Whether the text is a plain decimal: an optional sign, digits with at most one point, and an
    /// optional exponent.
    static func isDecimal(_ text: String) -> Bool {
        text.wholeMatch(of: /[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?/) != nil
    }
}

extension CivilDate: ArgumentValue {
    init(argument: String) throws(ArgumentValueError) {
        do { self = try CivilDate(parsing: argument) } catch { throw ArgumentValueError(reason: Self.reason(error)) }
    }

    /// The validation message without the field's name at its start.
    private static func reason(_ error: ValidationError) -> String {
        let prefix = error.field + " "
        return error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : ": " + error.message
    }
}

extension Madhab: ArgumentValue {}
extension HighLatitudeRule: ArgumentValue {}
extension PolarResolution: ArgumentValue {}
extension Shafaq: ArgumentValue {}
extension NightMeasure: ArgumentValue {}
extension Rounding: ArgumentValue {}
extension HijriCalendar: ArgumentValue {}
extension LogLevel: ArgumentValue {}
extension PrayerStatus: ArgumentValue {}

/// The output formats commands offer; each command lists the ones it supports.
enum OutputFormat: String, CaseIterable, ArgumentValue {
    case table
    case plain
    case json
    case csv
    case waybar
    case i3bar
    case polybar
    case tmux
}

extension Option where Value == OutputFormat {
    /// `--format <format>` with the formats a command offers, the first being the default.
    static func format(_ allowed: [OutputFormat], help: String = "Output format.") -> Option<OutputFormat> {
        Option("format", value: "format", help: help, default: allowed.first?.rawValue, allowed: allowed)
    }
}

/// How clock times are shown in tables.
enum ClockStyle: String, CaseIterable, ArgumentValue {
    case twentyFourHour = "24h"
    case twelveHour = "12h"
}
