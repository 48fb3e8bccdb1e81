#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A moment to tell someone about a prayer: a reminder before it, the adhan, the iqama, imsak and
/// iftar in Ramadan, the Friday prayer.
public struct ReminderEvent: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// What the event is.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// Some minutes before a prayer's time.
        case reminder
        /// At the prayer's time.
        case adhan
        /// At the congregation's iqama.
        case iqama
        /// Imsak in Ramadan: stop eating before fajr.
        case imsak
        /// Iftar in Ramadan: maghrib, the fast ends.
        case iftar
        /// The Friday prayer.
        case jumuah
    }

    /// When to fire.
    public let at: Date
    /// The prayer it is about.
    public let prayer: Prayer
    /// What it is.
    public let kind: Kind
    /// The prayer's own time (the adhan).
    public let prayerTime: Date
    /// For a reminder, how many minutes before the prayer.
    public let minutesBefore: Int?
    /// The prayer's iqama, when set.
    public let iqama: Date?

    /// Creates an event.
    public init(
        at: Date, prayer: Prayer, kind: Kind, prayerTime: Date, minutesBefore: Int? = nil, iqama: Date? = nil
    ) {
        self.at = at
        self.prayer = prayer
        self.kind = kind
        self.prayerTime = prayerTime
        self.minutesBefore = minutesBefore
        self.iqama = iqama
    }

    /// A stable identity: two plans made at different moments name the same event the same way, so
    /// a daemon never fires one twice.
    public var id: String { "\(kind.rawValue)-\(prayer.rawValue)-\(Int(at.timeIntervalSince1970))" }

    /// Orders by time, then kind.
    public static func < (lhs: ReminderEvent, rhs: ReminderEvent) -> Bool {
        (lhs.at, lhs.kind.rawValue, lhs.prayer.rawValue) < (rhs.at, rhs.kind.rawValue, rhs.prayer.rawValue)
    }

    /// `Asr in 10 minutes`, `Maghrib (iftar)`, … for a notification's title.
    public var title: String {
        switch kind {
        case .reminder: "\(prayer.name) in \(minutesBefore ?? 0) minute\(minutesBefore == 1 ? "" : "s")"
        case .adhan: "\(prayer.name)"
        case .iqama: "\(prayer.name) iqama"
        case .imsak: "Imsak"
        case .iftar: "Iftar: \(prayer.name)"
        case .jumuah: "Jumu'ah"
        }
    }

    /// The title.
    public var description: String { title }
}

/// Which reminders to plan.
public struct ReminderSettings: Hashable, Sendable {
    /// Reminders this many minutes before each prayer.
    public var minutesBefore: [Int]
    /// Whether to fire at each prayer's time.
    public var atAdhan: Bool
    /// Whether to fire at each iqama (when iqama times are set).
    public var atIqama: Bool
    /// Whether to fire at imsak and iftar in Ramadan.
    public var ramadan: Bool
    /// Whether to fire for the Friday prayer (at the Jumu'ah time when set, else at dhuhr).
    public var jumuah: Bool
    /// The prayers to remind of.
    public var prayers: [Prayer]

    /// Creates settings; by default the adhan of the five prayers, Ramadan and Jumu'ah.
    public init(
        minutesBefore: [Int] = [], atAdhan: Bool = true, atIqama: Bool = false, ramadan: Bool = true,
        jumuah: Bool = true, prayers: [Prayer] = Prayer.obligatory
    ) {
        self.minutesBefore = minutesBefore.sorted(by: >)
        self.atAdhan = atAdhan
        self.atIqama = atIqama
        self.ramadan = ramadan
        self.jumuah = jumuah
        self.prayers = prayers
    }
}
