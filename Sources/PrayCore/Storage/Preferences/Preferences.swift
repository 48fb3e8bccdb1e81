#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The settings a person keeps: their place, how times are calculated, the Hijri offset and how
/// times are shown. Every value is optional; an unset value means "use the default".
///
/// Each setting has a key — a stable name (`latitude`, `method`, `fajr-angle`, …) that is what the
/// database and backup files store, and never changes — and is stored as checked, normalised text, so
/// every reader agrees:
///
/// ```swift
/// var preferences = Preferences()
/// try preferences.set("umm al qura", for: .method)     // stored as "umm-al-qura"
/// try preferences.set("21.4225", for: .latitude)
/// _ = try preferences.set("Mars/Olympus", for: .timeZone)  // throws: unknown time zone
/// ```
public struct Preferences: Hashable, Sendable, Codable {
    /// The normalised text of each set value.
    public private(set) var values: [Key: String]

    /// No preference set.
    public init() {
        values = [:]
    }

    /// Preferences from stored text, each value checked again.
    /// - Throws: ``ValidationError`` for an unknown key or a value that is not valid for its key.
    public init(storedValues: [String: String]) throws(ValidationError) {
        values = [:]
        for (name, text) in storedValues {
            guard let key = Key(rawValue: name) else {
                throw ValidationError(field: name, message: "unknown setting '\(name)'")
            }
            try set(text, for: key)
        }
    }

    /// The text of `key`, or `nil` when unset.
    public subscript(key: Key) -> String? { values[key] }

    /// Checks, normalises and stores `text` for `key`.
    /// - Throws: ``ValidationError`` naming the key when the text is not a valid value; nothing changes.
    public mutating func set(_ text: String, for key: Key) throws(ValidationError) {
        values[key] = try key.normalized(text.trimmingWhitespace())
    }

    /// Removes the value of `key`.
    public mutating func unset(_ key: Key) {
        values[key] = nil
    }

    /// The stored text keyed by name, for storage and backups.
    public var storedValues: [String: String] {
        Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, $0.value) })
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { values.isEmpty }

    /// Decodes `{"key": "value", …}`, checking every value.
    /// - Throws: `DecodingError.dataCorrupted` naming the first invalid setting.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let stored = try container.decode([String: String].self)
        do {
            try self.init(storedValues: stored)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes as `{"key": "value", …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(storedValues)
    }
}

extension Preferences {
    /// A setting. The raw value is its storage key: a stable name that databases and backup files
    /// hold, which never changes.
    public enum Key: String, CaseIterable, Codable, CodingKeyRepresentable, Hashable, Sendable, CustomStringConvertible
    {
        /// Latitude in degrees (−90…90).
        case latitude
        /// Longitude in degrees (−180…180).
        case longitude
        /// Elevation in metres.
        case elevation
        /// The IANA time zone.
        case timeZone = "tz"
        /// A name for the place, shown in output.
        case placeName = "place-name"
        /// The calculation method (a name or alias).
        case method
        /// `shafi` or `hanafi`.
        case madhab
        /// Fajr angle in degrees.
        case fajrAngle = "fajr-angle"
        /// Isha angle in degrees.
        case ishaAngle = "isha-angle"
        /// Isha interval in minutes after maghrib.
        case ishaInterval = "isha-interval"
        /// Maghrib angle in degrees.
        case maghribAngle = "maghrib-angle"
        /// Maghrib interval in minutes after sunset.
        case maghribInterval = "maghrib-interval"
        /// Imsak in minutes before fajr.
        case imsakMinutes = "imsak-minutes"
        /// Imsak angle in degrees.
        case imsakAngle = "imsak-angle"
        /// The high-latitude rule.
        case highLatitudeRule = "high-latitude-rule"
        /// The polar resolution.
        case polarResolution = "polar-resolution"
        /// The Moonsighting Committee shafaq.
        case shafaq
        /// The night measure.
        case night
        /// Minute adjustments, `fajr=2,isha=-3`.
        case adjust
        /// Rounding: nearest, up or none.
        case rounding
        /// The Hijri calendar: umm-al-qura or civil.
        case hijriCalendar = "hijri-calendar"
        /// The Hijri day offset for local sighting (−2…2).
        case hijriOffset = "hijri-offset"
        /// Hijri months' first days as announced: `1448-09=2027-02-09,1448-10=2027-03-10` (``HijriMonthStarts``).
        case hijriStarts = "hijri-starts"
        /// How clock times are shown: `24h` or `12h`.
        case clock
        /// Iqama per prayer: `fajr=+20,dhuhr=13:30` (minutes after the adhan, or a clock time).
        case iqama
        /// Minutes after the adhan are rounded up to a multiple of this (1…60).
        case iqamaRounding = "iqama-rounding"
        /// The Friday prayer's times: `13:15,14:00`.
        case jumuah
        /// Reminders this many minutes before each prayer: `10` or `15,5`.
        case reminderMinutes = "reminder-minutes"
        /// A shell command run for each reminder, with the event in `PRAYKIT_*` variables.
        case notifyHook = "notify-hook"
        /// The mosque whose imported timetable replaces the calculated times (`praykit timetable import`).
        case mosque
        /// Whether `praykit next` and `praykit times` suggest days for a voluntary fast: `on` or `off`
        /// (unset is off).
        case fastSuggestions = "fast-suggestions"
        /// What this machine's screen (`praykit serve --display`) shows around each prayer, and when its
        /// Hijri date turns: `adhan=off,silence=2,hijri=maghrib` (``DisplayAPI/Settings``). A followed
        /// mosque's own screen settings come first.
        case display

        /// The name.
        public var description: String { rawValue }

        /// Whether the setting runs a program or belongs to this machine rather than to the person,
        /// so that a backup file never sets it without the user's explicit consent: `notify-hook`
        /// (a shell command the reminder daemon runs). The place (`latitude`, `tz`, …) and every
        /// calculation setting travel with the person and are not machine-local.
        public var isMachineLocal: Bool { self == .notifyHook }

        /// The settings for which ``isMachineLocal`` holds, in declaration order.
        public static let machineLocal: [Key] = allCases.filter(\.isMachineLocal)

        /// Checks `text` and returns its normalised form.
        /// - Throws: ``ValidationError`` naming this key.
        public func normalized(_ text: String) throws(ValidationError) -> String {
            func number(_ range: ClosedRange<Double>, unit: String) throws(ValidationError) -> String {
                guard let value = Double(text), value.isFinite else {
                    throw ValidationError(field: rawValue, message: "\(rawValue) must be a number, got '\(text)'")
                }
                guard range.contains(value) else { throw .outOfRange(rawValue, value, range, unit: unit) }
                return value.formattedCompactly
            }
            func integer(_ range: ClosedRange<Int>) throws(ValidationError) -> String {
                guard let value = Int(text), range.contains(value) else {
                    throw ValidationError(
                        field: rawValue,
                        message:
                            "\(rawValue) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'"
                    )
                }
                return String(value)
            }
            func choice<T: RawRepresentable & CaseIterable>(_: T.Type) throws(ValidationError) -> String
            where T.RawValue == String {
                guard let value = T(rawValue: text.lowercased()) else {
                    let names = T.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ValidationError(
                        field: rawValue, message: "\(rawValue) must be one of \(names), got '\(text)'")
                }
                return value.rawValue
            }
            switch self {
            case .latitude: return try number(Coordinates.latitudeRange, unit: "degrees")
            case .longitude: return try number(Coordinates.longitudeRange, unit: "degrees")
            case .elevation: return try number(Coordinates.elevationRange, unit: "metres")
            case .fajrAngle, .ishaAngle, .maghribAngle, .imsakAngle: return try number(0...89, unit: "degrees")
            case .ishaInterval, .maghribInterval: return try integer(0...1440)
            case .imsakMinutes: return try integer(0...120)
            case .hijriOffset: return try integer(HijriAPI.offsets)
            case .hijriStarts:
                let starts = try HijriMonthStarts(parsing: text)
                guard !starts.isEmpty else {
                    throw ValidationError(
                        field: rawValue, message: "hijri-starts needs at least one month, like 1448-09=2027-02-09")
                }
                return starts.description
            case .timeZone:
                guard let zone = TimeZoneName(text) else {
                    throw ValidationError(field: rawValue, message: TimeZoneName.unknown(text).message)
                }
                return zone.identifier
            case .placeName:
                guard !text.isEmpty, text.count <= 200 else {
                    throw ValidationError(field: rawValue, message: "place-name must be 1 to 200 characters")
                }
                return text
            case .method: return try CalculationMethod.named(text).rawValue
            case .madhab: return try choice(Madhab.self)
            case .highLatitudeRule: return try choice(HighLatitudeRule.self)
            case .polarResolution: return try choice(PolarResolution.self)
            case .shafaq: return try choice(Shafaq.self)
            case .night: return try choice(NightMeasure.self)
            case .rounding: return try choice(Rounding.self)
            case .hijriCalendar: return try choice(HijriCalendar.self)
            case .adjust: return try PrayerAdjustments(parsing: text).description
            case .iqama:
                let settings = try IqamaSettings(parsing: text)
                guard !settings.rules.isEmpty else {
                    throw ValidationError(field: rawValue, message: "iqama needs at least one prayer, like fajr=+20")
                }
                return settings.description
            case .jumuah:
                let settings = try IqamaSettings(parsing: "", jumuah: text)
                guard !settings.jumuah.isEmpty else {
                    throw ValidationError(field: rawValue, message: "jumuah needs at least one time, like 13:15")
                }
                return settings.jumuah.map { IqamaSettings.Rule.fixed(minutesAfterMidnight: $0).description }
                    .joined(separator: ",")
            case .iqamaRounding: return try integer(1...60)
            case .reminderMinutes:
                var minutes: [Int] = []
                for item in text.split(separator: ",") {
                    guard let value = Int(item.trimmingWhitespace()), (1...720).contains(value) else {
                        throw ValidationError(
                            field: rawValue, message: "reminder-minutes must be minutes from 1 to 720, like 10 or 15,5")
                    }
                    minutes.append(value)
                }
                guard !minutes.isEmpty else {
                    throw ValidationError(field: rawValue, message: "reminder-minutes needs at least one number")
                }
                return minutes.sorted(by: >).map(String.init).joined(separator: ",")
            case .notifyHook:
                guard !text.isEmpty, text.count <= 2000 else {
                    throw ValidationError(field: rawValue, message: "notify-hook must be 1 to 2000 characters")
                }
                return text
            case .mosque:
                try MosqueTimetable.validate(name: text)
                return text
            case .fastSuggestions:
                let value = text.lowercased()
                guard value == "on" || value == "off" else {
                    throw ValidationError(field: rawValue, message: "fast-suggestions must be on or off, got '\(text)'")
                }
                return value
            case .display:
                return try DisplayAPI.Settings(parsing: text).description
            case .clock:
                let value = text.lowercased()
                guard value == "24h" || value == "12h" else {
                    throw ValidationError(field: rawValue, message: "clock must be 24h or 12h, got '\(text)'")
                }
                return value
            }
        }
    }
}
