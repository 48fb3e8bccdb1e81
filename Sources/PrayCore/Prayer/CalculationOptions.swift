/// The school of law that sets the Asr shadow length.
public enum Madhab: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Shafi'i, Maliki and Hanbali: Asr begins when a shadow equals the object's height plus its noon
    /// shadow (shadow factor 1).
    case shafi
    /// Hanafi: Asr begins when a shadow equals twice the object's height plus its noon shadow
    /// (shadow factor 2).
    case hanafi

    /// The Asr shadow factor: 1 or 2.
    public var shadowFactor: Double { self == .shafi ? 1 : 2 }

    /// The raw value.
    public var description: String { rawValue }
}

/// How fajr and isha are set at high latitudes, where twilight lasts long or never ends.
///
/// Each rule defines a portion of the night (sunset to next sunrise). When the fajr (isha) found by
/// its angle is unavailable, or is farther from sunrise (sunset) than that portion, the time is
/// sunrise minus (sunset plus) the portion instead — the rule used by Adhan, PrayTimes.org and
/// AlAdhan. ``none`` leaves the angle times alone and reports them unavailable when the sun does not
/// reach the angle.
public enum HighLatitudeRule: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Never adjust: a time the sun does not reach is unavailable.
    case none = "none"
    /// Fajr no earlier than the middle of the night, isha no later than it.
    case middleOfTheNight = "middle-of-the-night"
    /// Fajr no earlier than the last seventh of the night, isha no later than the first seventh.
    case seventhOfTheNight = "seventh-of-the-night"
    /// The portion of the night is angle/60 of it (18° → 18/60 of the night).
    case twilightAngle = "twilight-angle"
    /// Seventh of the night above 48° of latitude, otherwise middle of the night (Adhan's
    /// recommendation).
    case recommended = "recommended"

    /// The rule that applies at `latitude`: ``recommended`` resolves to ``seventhOfTheNight`` above
    /// 48° and ``middleOfTheNight`` elsewhere; the others are themselves.
    public func resolved(latitude: Double) -> HighLatitudeRule {
        guard self == .recommended else { return self }
        return abs(latitude) > 48 ? .seventhOfTheNight : .middleOfTheNight
    }

    /// The raw value, as on the command line.
    public var description: String { rawValue }
}

/// What to do where the sun does not rise or does not set on a day (inside the polar circles).
public enum PolarResolution: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Leave such days unavailable.
    case unresolved = "unresolved"
    /// Use the times of the nearest latitude (towards the equator) where the sun rises and sets
    /// that day ("aqrab al-bilad"), found to a millionth of a degree so that the times move from day
    /// to day as the sun does.
    case nearestLatitude = "nearest-latitude"
    /// Use the times of the nearest day on which the sun rises and sets at this place
    /// ("aqrab al-ayyam").
    case nearestDay = "nearest-day"

    /// The raw value, as on the command line.
    public var description: String { rawValue }
}

/// The twilight the Moonsighting Committee's seasonal isha follows (Khalid Shaukat's curves).
public enum Shafaq: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// A blend of the red and white twilight — the committee's default.
    case general = "general"
    /// The red twilight (ahmer): earlier isha.
    case ahmer = "ahmer"
    /// The white twilight (abyad): later isha.
    case abyad = "abyad"

    /// The raw value, as on the command line.
    public var description: String { rawValue }
}

/// How times are rounded to the minute for display.
public enum Rounding: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// To the nearest minute (30 s rounds up).
    case nearest = "nearest"
    /// Up to the next whole minute, so a time is never shown earlier than it is.
    case up = "up"
    /// Not rounded: the exact instant, shown to the second.
    case none = "none"

    /// The raw value, as on the command line.
    public var description: String { rawValue }
}

/// Which night the night times (midnight, thirds) divide.
public enum NightMeasure: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Sunset to the next sunrise — the astronomical night (PrayTimes.org "Standard").
    case sunsetToSunrise = "sunset-to-sunrise"
    /// Sunset to the next fajr — PrayTimes.org's and AlAdhan's "Jafari" midnight, used by the Tehran
    /// and Jafari methods.
    case sunsetToFajr = "sunset-to-fajr"
    /// Maghrib to the next fajr — the night of the sunnah times (Adhan's `SunnahTimes`).
    case maghribToFajr = "maghrib-to-fajr"

    /// The raw value, as on the command line.
    public var description: String { rawValue }
}

/// How imsak is set.
public enum Imsak: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A number of minutes before fajr (10 is the usual choice).
    case minutesBeforeFajr(Int)
    /// The sun's centre this many degrees below the horizon in the morning.
    case angle(Double)

    /// The angle, or `nil` for minutes before fajr.
    public var angle: Double? {
        if case .angle(let angle) = self { return angle }
        return nil
    }

    /// `10 min` or `19.5°`.
    public var description: String {
        switch self {
        case .minutesBeforeFajr(let minutes): "\(minutes) min before fajr"
        case .angle(let angle): "\(angle.formattedCompactly)°"
        }
    }
}

/// Whole-minute corrections per time, positive later, negative earlier.
///
/// ```swift
/// var adjustments = PrayerAdjustments()
/// adjustments[.fajr] = 2
/// adjustments[.isha] = -3
/// ```
public struct PrayerAdjustments: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The minutes for each time that has a correction; a missing time has none.
    public private(set) var minutes: [Prayer: Int]

    /// Creates corrections from a table of minutes; zero entries are dropped.
    public init(_ minutes: [Prayer: Int] = [:]) {
        self.minutes = minutes.filter { $0.value != 0 }
    }

    /// The correction for `prayer` in minutes, 0 when there is none.
    public subscript(prayer: Prayer) -> Int {
        get { minutes[prayer] ?? 0 }
        set { minutes[prayer] = newValue == 0 ? nil : newValue }
    }

    /// Whether no time is corrected.
    public var isEmpty: Bool { minutes.isEmpty }

    /// The corrections of both tables added together (wrapping past `Int`'s range rather than
    /// trapping: ``CalculationParameters/validate()`` refuses tables beyond ±1440 minutes).
    public static func + (lhs: PrayerAdjustments, rhs: PrayerAdjustments) -> PrayerAdjustments {
        PrayerAdjustments(lhs.minutes.merging(rhs.minutes, uniquingKeysWith: &+))
    }

    /// `fajr=2,isha=-3` in the order of `Prayer.allCases`; empty when there are none.
    public var description: String {
        Prayer.allCases.compactMap { prayer in minutes[prayer].map { "\(prayer)=\($0)" } }.joined(separator: ",")
    }

    /// Parses `fajr=2,isha=-3` (the `--adjust` syntax).
    /// - Throws: ``ValidationError`` for an unknown name, a missing `=`, or a number that is not a
    ///   whole number of minutes within ±1440.
    public init(parsing text: String) throws(ValidationError) {
        var minutes: [Prayer: Int] = [:]
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
            guard pair.count == 2 else {
                throw ValidationError(field: "adjust", message: "adjustment '\(item)' must look like fajr=2")
            }
            guard let prayer = Prayer(rawValue: pair[0]) else {
                let names = Prayer.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError(
                    field: "adjust", message: "unknown time '\(pair[0])' in the adjustments; use one of \(names)")
            }
            guard let value = Int(pair[1]), (-1440...1440).contains(value) else {
                throw ValidationError(
                    field: "adjust",
                    message: "adjustment for \(prayer) must be whole minutes within ±1440, got '\(pair[1])'"
                )
            }
            guard minutes[prayer] == nil else {
                throw ValidationError(field: "adjust", message: "\(prayer) is adjusted twice ('\(text)')")
            }
            minutes[prayer] = value
        }
        self.init(minutes)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
