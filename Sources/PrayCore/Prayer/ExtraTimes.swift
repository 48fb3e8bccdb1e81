#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the times between the prayers that people also ask for are defined: when the sun has risen
/// "a spear's length" (ishraq, the end of the disliked time after sunrise and the start of duha, and
/// mirrored in the afternoon, isfirar, the sun yellowing before sunset), and how long before the
/// sun crosses the meridian prayer is disliked (zawal).
///
/// The three disliked (makruh) times are those of the hadith of ʿUqba ibn ʿĀmir (Sahih Muslim 831):
/// when the sun is rising until it is high, when it stands at midday until it passes the meridian,
/// and when it turns to set until it has set.
///
/// ```swift
/// var request = PrayerAPI.Request(coordinates: place, timeZone: zone, date: day, parameters: parameters)
/// request.extraTimes = ExtraTimeSettings()               // the sun 5° up; zawal 5 min before transit
/// let schedule = try service.schedules(for: request)[0]
/// print(schedule.extraTimes?.ishraq as Any)
/// ```
public struct ExtraTimeSettings: Hashable, Sendable {
    /// When the sun counts as risen a spear's length, in the morning (ishraq) and, mirrored, before
    /// sunset (isfirar).
    public enum SunRisen: Hashable, Sendable, CustomStringConvertible {
        /// The sun's centre this many degrees above the true horizon (geometric, topocentric, as fajr
        /// and isha angles are measured). Türkiye Takvimi (its entries for işrak and isfirâr-ı şems)
        /// puts the sun's lower limb a spear's length above the visible horizon, its centre 5° above
        /// the true one: the default.
        case altitude(Double)
        /// This many minutes after sunrise and before sunset, as many South Asian timetables print
        /// ishraq (15 or 20 minutes after sunrise).
        case minutes(Int)

        /// `altitude 5°` or `15 min`.
        public var description: String {
            switch self {
            case .altitude(let degrees): "altitude \(degrees.formattedCompactly)°"
            case .minutes(let minutes): "\(minutes) min"
            }
        }
    }

    /// When the sun counts as risen a spear's length; 5° of altitude by default.
    public var sunRisen: SunRisen
    /// How many minutes before the sun crosses the meridian prayer is disliked (the sun "standing"
    /// at its zenith); 5 by default. The sun's disc takes about two minutes to cross the meridian;
    /// timetables print zawal 5 to 10 minutes before it as a margin.
    public var zenithMinutes: Int

    /// The accepted altitudes for ``SunRisen/altitude(_:)``, degrees.
    public static let altitudes: ClosedRange<Double> = 1...15
    /// The accepted minutes for ``SunRisen/minutes(_:)``.
    public static let risenMinutes: ClosedRange<Int> = 1...60
    /// The accepted minutes for ``zenithMinutes``.
    public static let zenithRange: ClosedRange<Int> = 1...30

    /// Creates the settings.
    /// - Parameters:
    ///   - sunRisen: When the sun counts as risen a spear's length.
    ///   - zenithMinutes: Minutes before the meridian transit that prayer is disliked.
    public init(sunRisen: SunRisen = .altitude(5), zenithMinutes: Int = 5) {
        self.sunRisen = sunRisen
        self.zenithMinutes = zenithMinutes
    }

    /// Checks the values are in their ranges.
    /// - Throws: ``ValidationError`` naming the value out of range.
    public func validate() throws(ValidationError) {
        switch sunRisen {
        case .altitude(let degrees) where !Self.altitudes.contains(degrees) || !degrees.isFinite:
            throw ValidationError(
                field: "ishraq-angle", message: "ishraq-angle must be between 1 and 15 degrees, got \(degrees)")
        case .minutes(let minutes) where !Self.risenMinutes.contains(minutes):
            throw ValidationError(
                field: "ishraq-minutes", message: "ishraq-minutes must be between 1 and 60, got \(minutes)")
        default: break
        }
        guard Self.zenithRange.contains(zenithMinutes) else {
            throw ValidationError(
                field: "zawal-minutes", message: "zawal-minutes must be between 1 and 30, got \(zenithMinutes)")
        }
    }
}

/// A day's times between the prayers: ishraq and duha, and the three times prayer is disliked.
///
/// Rounded (when the day's times are) so that a disliked time is never shown shorter than it is: its
/// start down to the minute, its end up.
public struct ExtraTimes: Hashable, Sendable {
    /// The sun risen a spear's length: the disliked time after sunrise ends and duha (ishraq)
    /// begins; `nil` when the sun does not rise that high this day.
    public let ishraq: Date?
    /// A few minutes before the meridian transit: duha ends and the disliked time at the zenith
    /// begins.
    public let zawal: Date
    /// The sun on the meridian: the disliked time at the zenith ends (dhuhr's time begins).
    public let transit: Date
    /// The sun a spear's length above the horizon in the afternoon, yellowing: the disliked time
    /// before sunset begins; `nil` when the sun does not stand that high this day.
    public let isfirar: Date?
    /// The day's sunrise and sunset, which open and close the first and last disliked times.
    private let sunrise: Date?
    private let sunset: Date?

    /// Creates the times.
    /// - Parameters:
    ///   - ishraq: The sun risen a spear's length, if it rises that high.
    ///   - zawal: The start of the disliked time at the zenith.
    ///   - transit: The sun on the meridian.
    ///   - isfirar: The sun a spear's length above the horizon before sunset, if it stands that high.
    ///   - sunrise: The day's sunrise, if any.
    ///   - sunset: The day's sunset, if any.
    public init(ishraq: Date?, zawal: Date, transit: Date, isfirar: Date?, sunrise: Date?, sunset: Date?) {
        self.ishraq = ishraq
        self.zawal = zawal
        self.transit = transit
        self.isfirar = isfirar
        self.sunrise = sunrise
        self.sunset = sunset
    }

    /// The time for the duha (ishraq) prayer: from ishraq to zawal, when the sun rises high enough
    /// before zawal.
    public var duha: DateInterval? {
        guard let ishraq, zawal > ishraq else { return nil }
        return DateInterval(start: ishraq, end: zawal)
    }

    /// One of the three times prayer is disliked.
    public struct DislikedTime: Hashable, Sendable {
        /// Which of the three.
        public enum Kind: String, CaseIterable, Hashable, Sendable {
            /// From sunrise until the sun has risen a spear's length.
            case sunrise
            /// While the sun stands at its zenith, until it passes the meridian.
            case zenith
            /// From the sun's yellowing until it has set.
            case sunset

            /// `Sunrise`, `Zenith`, `Sunset`, for people.
            public var name: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
        }

        /// Which of the three.
        public let kind: Kind
        /// When it begins and ends.
        public let interval: DateInterval
    }

    /// The three disliked times of the day, in order; one whose ends do not both exist (the sun not
    /// rising a spear's length, or not setting) is left out.
    public var disliked: [DislikedTime] {
        var times: [DislikedTime] = []
        if let sunrise, let ishraq, ishraq > sunrise {
            times.append(DislikedTime(kind: .sunrise, interval: DateInterval(start: sunrise, end: ishraq)))
        }
        if transit > zawal {
            times.append(DislikedTime(kind: .zenith, interval: DateInterval(start: zawal, end: transit)))
        }
        if let isfirar, let sunset, sunset > isfirar {
            times.append(DislikedTime(kind: .sunset, interval: DateInterval(start: isfirar, end: sunset)))
        }
        return times
    }

    /// The disliked time of `kind`, if the day has it.
    public func disliked(_ kind: DislikedTime.Kind) -> DislikedTime? {
        disliked.first { $0.kind == kind }
    }

    /// A stretch of the day between the prayers that has a name: duha, or one of the disliked times.
    public enum Period: Hashable, Sendable, CustomStringConvertible {
        /// The time for the duha (ishraq) prayer.
        case duha
        /// One of the three times prayer is disliked.
        case disliked(DislikedTime.Kind)

        /// `duha`, `disliked-sunrise`, `disliked-zenith`, `disliked-sunset`: the JSON value.
        public var description: String {
            switch self {
            case .duha: "duha"
            case .disliked(let kind): "disliked-\(kind.rawValue)"
            }
        }

        /// `Duha`, or `Disliked (sunrise)`, for people.
        public var name: String {
            switch self {
            case .duha: "Duha"
            case .disliked(let kind): "Disliked (\(kind.rawValue))"
            }
        }
    }

    /// The named period `instant` falls in, with its start and end, or `nil` outside them all.
    public func period(at instant: Date) -> (period: Period, interval: DateInterval)? {
        if let duha, duha.start <= instant, instant < duha.end { return (.duha, duha) }
        for time in disliked where time.interval.start <= instant && instant < time.interval.end {
            return (.disliked(time.kind), time.interval)
        }
        return nil
    }
}
