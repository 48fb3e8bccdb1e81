import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a piece of text is not a value of an option: a phrase that follows the option's name
/// ("must be a number").
struct ArgumentValueError: Error, Equatable {
    /// The phrase, such as `must be a number`.
    let reason: String
    /// `; did you mean 'json'?`, or empty.
    var suggestion = ""
    /// Whether ``reason`` already names the value given (a library's message), so that no
    /// `, got '…'` follows it.
    var namesTheValue = false

    /// The error of a library's validation message: `date must look like …, got '…'` becomes the
    /// phrase `must look like …, got '…'`; a message about another field is kept after a colon.
    static func validation(_ error: ValidationError) -> ArgumentValueError {
        let prefix = error.field + " "
        let reason =
            error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : ": " + error.message
        return ArgumentValueError(reason: reason, namesTheValue: true)
    }

    /// `--name must be a number, got 'x'; did you mean …`, or `--name: <message>`.
    func message(for name: String, value: String) -> String {
        let head = reason.hasPrefix(": ") ? name + reason : name + " " + reason
        return head + (namesTheValue ? "" : ", got '\(value)'") + suggestion
    }
}

/// What shell completion offers for a value.
enum CompletionKind: Equatable, Sendable {
    /// Nothing in particular.
    case none
    /// These words.
    case list([String])
    /// A file name.
    case file
    /// A time-zone name.
    case timeZone
}

/// A type an option's text converts to, like swift-argument-parser's `ExpressibleByArgument`: a
/// value is parsed once, into its type, when the command line is read.
protocol ArgumentValue: Sendable {
    /// Converts the text given on the command line.
    /// - Throws: ``ArgumentValueError`` saying what the text must be.
    init(argument: String) throws(ArgumentValueError)
    /// The values listed in help and offered by completion; empty for an open set.
    static var allValueStrings: [String] { get }
    /// The text that names this value on the command line.
    var argumentDescription: String { get }
    /// The value of an option or argument that is not given and has no default: `nil` (none) for
    /// every type but `Optional`, so that such an option is required; `.some(nil)` for an optional.
    static var absentValue: Self? { get }
}

extension ArgumentValue {
    static var allValueStrings: [String] { [] }
    var argumentDescription: String { "\(self)" }
    static var absentValue: Self? { nil }

    /// `must be one of a, b, c`.
    static func choiceReason(among choices: [String]) -> String {
        "must be one of \(choices.joined(separator: ", "))"
    }
}

/// An optional value: the option may be left out, and reads as `nil` then.
extension Optional: ArgumentValue where Wrapped: ArgumentValue {
    init(argument: String) throws(ArgumentValueError) {
        self = .some(try Wrapped(argument: argument))
    }

    static var allValueStrings: [String] { Wrapped.allValueStrings }
    var argumentDescription: String { map(\.argumentDescription) ?? "" }
    static var absentValue: Self? { .some(.none) }
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

    var argumentDescription: String { formattedCompactly }

    /// Whether the text is a plain decimal: an optional sign, digits with at most one point, and an
    /// optional exponent (`[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?`). Scanned by hand: a
    /// regex literal is compiled at run time, which a one-day command would pay at every start.
    static func isDecimal(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

extension CivilDate: ArgumentValue {
    init(argument: String) throws(ArgumentValueError) {
        do { self = try CivilDate(parsing: argument) } catch { throw .validation(error) }
    }
}

extension HijriDate: ArgumentValue {
    init(argument: String) throws(ArgumentValueError) {
        do {
            self = try HijriDate(parsing: argument)
        } catch {
            throw ArgumentValueError(reason: ": " + error.message, namesTheValue: true)
        }
    }
}

extension CalculationMethod: ArgumentValue {
    /// A name, an alias or an AlAdhan number (`CalculationMethod.named(_:)`).
    init(argument: String) throws(ArgumentValueError) {
        do {
            self = try CalculationMethod.named(argument)
        } catch {
            let names = CalculationMethod.allCases.flatMap { [$0.rawValue] + $0.aliases }
            throw ArgumentValueError(
                reason: "must be a method name, an alias or an AlAdhan number (see 'praykit methods')",
                suggestion: Suggestion.didYouMean(argument, among: names))
        }
    }

    /// Open: aliases and numbers are accepted besides the names (completion lists them all).
    static var allValueStrings: [String] { [] }
}

extension PrayerAdjustments: ArgumentValue {
    /// `fajr=2,isha=-3`.
    init(argument: String) throws(ArgumentValueError) {
        do {
            self = try PrayerAdjustments(parsing: argument)
        } catch {
            throw .validation(error)
        }
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
extension FastStatus: ArgumentValue {}

/// An instant as people type it: ISO 8601 with an offset or `Z` (`2026-11-29T14:14:00+03:00`), or a
/// local date and time without one (`2026-11-29T14:14`, `2026-11-29 14:14:00`), read in the zone of
/// the command's place.
struct Instant: ArgumentValue, Equatable {
    private enum Form: Equatable {
        case absolute(Date)
        case local(LocalTime)
    }

    /// A date and a time on a wall clock, without a zone.
    private struct LocalTime: Equatable {
        let year, month, day, hour, minute, second: Int
    }

    private let form: Form

    init(argument: String) throws(ArgumentValueError) {
        if let date = WallClock.instant(internetDateTime: argument) {
            form = .absolute(date)
            return
        }
        let local = argument.replacing(" ", with: "T")
        if let match = local.wholeMatch(of: /([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?/),
            let year = Int(match.output.1), let month = Int(match.output.2), let day = Int(match.output.3),
            let hour = Int(match.output.4), let minute = Int(match.output.5), hour < 24, minute < 60,
            (try? CivilDate(year: year, month: month, day: day)) != nil
        {
            let second = match.output.6.flatMap { Int($0) } ?? 0
            form = .local(LocalTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
            return
        }
        throw ArgumentValueError(
            reason: "must be an ISO 8601 instant such as 2026-11-29T14:14:00+03:00 (without an offset, the "
                + "place's time)")
    }

    /// The instant: as given, or the local time in `zone`.
    /// - Throws: ``CLIError`` (usage) for a local time the zone's clocks skip.
    func date(in zone: TimeZone) throws -> Date {
        try date(in: TimeZoneName(zone))
    }

    /// The instant: as given, or the local time in the zone `name` (its offsets from the system's tz
    /// database; the first of two instants where the clocks repeat the time).
    /// - Throws: ``CLIError`` (usage) for a local time the zone's clocks skip.
    func date(in name: TimeZoneName) throws -> Date {
        switch form {
        case .absolute(let date): return date
        case .local(let time):
            guard let day = try? CivilDate(year: time.year, month: time.month, day: time.day),
                let date = WallClock.instant(
                    of: day, hour: time.hour, minute: time.minute, second: time.second, in: name)
            else {
                throw CLIError.usage("\(argumentDescription) does not exist in \(name.identifier): its clocks skip it")
            }
            return date
        }
    }

    var argumentDescription: String {
        switch form {
        case .absolute(let date): WallClock.internetDateTime(date)
        case .local(let time):
            "\(time.year)-\(time.month.zeroPadded(2))-\(time.day.zeroPadded(2))T"
                + "\(time.hour.zeroPadded(2)):\(time.minute.zeroPadded(2))"
        }
    }
}

/// A civil day as people type it: `2026-11-29`, or `today`, `tomorrow`, `yesterday`, `+3`, `-1`
/// (days from today in the zone of the command's place).
struct Day: ArgumentValue, Equatable {
    private enum Form: Equatable {
        case date(CivilDate)
        case fromToday(Int)
    }

    private let form: Form

    /// The farthest `+N` and `-N` go: ten years.
    static let maximumDaysFromToday = 3660

    init(argument: String) throws(ArgumentValueError) {
        switch argument.lowercased() {
        case "today": form = .fromToday(0)
        case "tomorrow": form = .fromToday(1)
        case "yesterday": form = .fromToday(-1)
        default:
            if let sign = argument.first, sign == "+" || sign == "-", argument.count > 1,
                argument.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber })
            {
                // A count of days, even one too large for an Int: the limit, not the date's format.
                guard let days = Int(argument.dropFirst()), days <= Self.maximumDaysFromToday else {
                    throw ArgumentValueError(
                        reason: "+N and -N go at most \(Self.maximumDaysFromToday) days from today")
                }
                form = .fromToday(sign == "-" ? -days : days)
                return
            }
            do {
                form = .date(try CivilDate(parsing: argument))
            } catch {
                var failure = ArgumentValueError.validation(error)
                failure = ArgumentValueError(
                    reason: failure.reason + " (or today, tomorrow, yesterday, +N, -N)",
                    namesTheValue: failure.namesTheValue)
                throw failure
            }
        }
    }

    /// The day: as given, or counted from `today`.
    func day(today: CivilDate) -> CivilDate {
        switch form {
        case .date(let date): date
        case .fromToday(let days): today.clampedAdding(days: days)
        }
    }

    var argumentDescription: String {
        switch form {
        case .date(let date): date.description
        case .fromToday(let days): days >= 0 ? "+\(days)" : "\(days)"
        }
    }
}

/// A Gregorian or Hijri year and month: `2027-02`.
struct YearMonth: ArgumentValue, Equatable {
    let year: Int
    let month: Int

    /// A month known to be valid.
    init(year: Int, month: Int) {
        (self.year, self.month) = (year, month)
    }

    init(argument: String) throws(ArgumentValueError) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]), (1...9999).contains(year),
            (1...12).contains(month)
        else { throw ArgumentValueError(reason: "must look like YYYY-MM with a month from 01 to 12") }
        (self.year, self.month) = (year, month)
    }

    var argumentDescription: String { "\(year)-\(month.zeroPadded(2))" }
}

/// A local clock time, `HH:MM` (24-hour).
struct ClockTime: ArgumentValue, Equatable {
    let hour: Int
    let minute: Int

    init(argument: String) throws(ArgumentValueError) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { throw ArgumentValueError(reason: "must look like HH:MM (24-hour)") }
        (self.hour, self.minute) = (hour, minute)
    }

    var argumentDescription: String { "\(hour.zeroPadded(2)):\(minute.zeroPadded(2))" }
}

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
        Option("format", value: "format", help: help, default: allowed[0], allowed: allowed)
    }
}

/// How clock times are shown in tables.
enum ClockStyle: String, CaseIterable, ArgumentValue {
    case twentyFourHour = "24h"
    case twelveHour = "12h"
}

/// A list of prayer times, `fajr,isha`, or `all`: each name checked, in the order given.
struct PrayerList: ArgumentValue, Equatable {
    /// The times named, in order; empty for `all`.
    let prayers: [Prayer]
    /// Whether `all` was given.
    let isAll: Bool

    init(argument: String) throws(ArgumentValueError) {
        let words = argument.lowercased().split(separator: ",").map { $0.trimmingWhitespace() }
        if words == ["all"] {
            (prayers, isAll) = ([], true)
            return
        }
        guard !words.contains("all") else { throw ArgumentValueError(reason: "names all and other times") }
        var prayers: [Prayer] = []
        for word in words {
            guard let prayer = Prayer.allCases.first(where: { $0.rawValue.lowercased() == word }) else {
                throw ArgumentValueError(
                    reason: "names an unknown time '\(word)'",
                    suggestion: Suggestion.didYouMean(word, among: Prayer.allCases.map(\.rawValue) + ["all"]))
            }
            prayers.append(prayer)
        }
        guard !prayers.isEmpty else { throw ArgumentValueError(reason: "names no time") }
        (self.prayers, isAll) = (prayers, false)
    }

    init(_ prayers: [Prayer]) {
        (self.prayers, isAll) = (prayers, false)
    }

    var argumentDescription: String { isAll ? "all" : prayers.map(\.rawValue).joined(separator: ",") }

    /// The times of the list: `all` is `every`; a time outside `allowed` is a usage error of `option`,
    /// and so is a time named twice unless `merging`.
    /// - Throws: ``CLIError`` (usage).
    func resolved(
        every: [Prayer], allowed: [Prayer], option: String, merging: Bool = false
    ) throws(CLIError) -> [Prayer] {
        if isAll { return every }
        var result: [Prayer] = []
        for prayer in prayers {
            guard allowed.contains(prayer) else {
                let names = allowed.map(\.rawValue).joined(separator: ", ")
                throw .usage("--\(option) must name \(names)\(every.isEmpty ? "" : " or all"), got '\(prayer)'")
            }
            if result.contains(prayer) {
                if merging { continue }
                throw .usage("--\(option) names \(prayer) twice")
            }
            result.append(prayer)
        }
        return result
    }
}
