/// Why a day is suggested for a voluntary fast. A day can have several reasons.
///
/// ```swift
/// FastReason.reasons(for: day)   // [.thursday, .whiteDay(13, .rajab)] for a Thursday, 13 Rajab
/// ```
public enum FastReason: Hashable, Sendable, CustomStringConvertible {
    /// Mondays.
    case monday
    /// Thursdays.
    case thursday
    /// The white days: the 13th, 14th and 15th of a Hijri month.
    case whiteDay(Int, HijriMonth)
    /// The day of Arafah, 9 Dhu al-Hijjah.
    case arafah
    /// Tasu'a, 9 Muharram.
    case tasua
    /// Ashura, 10 Muharram.
    case ashura
    /// The six days of Shawwal, suggested on 2–7 Shawwal (any six days of the month count).
    case sixOfShawwal

    /// A stable code: `monday`, `thursday`, `white-day`, `arafah`, `tasua`, `ashura`, `six-of-shawwal`.
    public var id: String {
        switch self {
        case .monday: "monday"
        case .thursday: "thursday"
        case .whiteDay: "white-day"
        case .arafah: "arafah"
        case .tasua: "tasua"
        case .ashura: "ashura"
        case .sixOfShawwal: "six-of-shawwal"
        }
    }

    /// The name people read: `Monday`, `White day 13 Sha'ban`, `Arafah`, `Six of Shawwal`.
    public var name: String {
        switch self {
        case .monday: "Monday"
        case .thursday: "Thursday"
        case .whiteDay(let day, let month): "White day \(day) \(month.name)"
        case .arafah: "Arafah"
        case .tasua: "Tasu'a"
        case .ashura: "Ashura"
        case .sixOfShawwal: "Six of Shawwal"
        }
    }

    /// The name.
    public var description: String { name }

    /// The reasons to fast `day` voluntarily, in the order above; none in Ramadan or on a day fasting
    /// is forbidden (``FastCalendar/forbiddenReason(_:)``). Whether the day already has a recorded fast
    /// is the caller's to check.
    public static func reasons(for day: HijriDay) -> [FastReason] {
        let date = day.hijri
        guard date.month != .ramadan, FastCalendar.forbiddenReason(date) == nil else { return [] }
        var reasons: [FastReason] = []
        switch day.gregorian.isoWeekday {
        case 1: reasons.append(.monday)
        case 4: reasons.append(.thursday)
        default: break
        }
        if (13...15).contains(date.day) { reasons.append(.whiteDay(date.day, date.month)) }
        switch (date.month, date.day) {
        case (.dhuAlHijjah, 9): reasons.append(.arafah)
        case (.muharram, 9): reasons.append(.tasua)
        case (.muharram, 10): reasons.append(.ashura)
        case (.shawwal, 2...7): reasons.append(.sixOfShawwal)
        default: break
        }
        return reasons
    }
}

/// A day suggested for a voluntary fast, with its reasons.
public struct FastSuggestion: Hashable, Sendable {
    /// The day, with its Hijri date.
    public let day: HijriDay
    /// Why: at least one reason.
    public let reasons: [FastReason]

    /// Creates a suggestion.
    public init(day: HijriDay, reasons: [FastReason]) {
        self.day = day
        self.reasons = reasons
    }

    /// The reasons joined for people: `Thursday · White day 13 Rajab`.
    public var summary: String { reasons.map(\.name).joined(separator: " · ") }
}
