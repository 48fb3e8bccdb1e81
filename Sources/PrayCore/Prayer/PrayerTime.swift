#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One time of a prayer day: which time, the instant, and how it was obtained.
///
/// ```swift
/// if let fajr = schedule[.fajr] {
///     print(fajr.date, fajr.derivation)   // 2026-11-29 02:23:00 +0000, altitude(-18.5)
/// }
/// ```
public struct PrayerTime: Hashable, Sendable {
    // Stored so that a time packs into 24 bytes: a schedule of 3,660 days is 1 MB, not 2, and the
    // time to fill it is mostly the memory's.

    /// The instant, after adjustments and rounding.
    public let date: Date
    /// How the time was obtained before adjustments and rounding.
    public let derivation: Derivation
    /// Which time this is.
    public let prayer: Prayer
    /// The rounding applied to the adjusted time.
    public let rounding: Rounding
    /// Whether the sun's times were borrowed from another latitude or day because the sun neither
    /// rose nor set this day (``PrayerSchedule/polarBasis`` says which).
    public let isPolarResolved: Bool
    /// Whether the time was held back to the time before it, so that the day stays in order: a
    /// method's minutes can push a time past the next one on days when the sun barely moves
    /// (dhuhr +5 min past an Asr one minute after transit, near the polar night).
    public let isHeldBack: Bool
    private let storedAdjustment: Int32

    /// The minutes added to the derived time (method and user adjustments together).
    public var adjustmentMinutes: Int { Int(storedAdjustment) }

    /// Creates a time.
    /// - Parameters:
    ///   - prayer: Which time this is.
    ///   - date: The instant, after adjustments and rounding.
    ///   - derivation: How the time was obtained.
    ///   - adjustmentMinutes: The minutes added to the derived time.
    ///   - rounding: The rounding applied.
    ///   - isPolarResolved: Whether the sun's times came from another latitude or day.
    ///   - isHeldBack: Whether the time was held back to the one before it to keep the day in order.
    public init(
        prayer: Prayer, date: Date, derivation: Derivation, adjustmentMinutes: Int = 0, rounding: Rounding = .none,
        isPolarResolved: Bool = false, isHeldBack: Bool = false
    ) {
        self.isHeldBack = isHeldBack
        self.prayer = prayer
        self.date = date
        self.derivation = derivation
        storedAdjustment = Int32(clamping: adjustmentMinutes)
        self.rounding = rounding
        self.isPolarResolved = isPolarResolved
    }

    /// Whether minutes were added to or taken from the derived time.
    public var isAdjusted: Bool { adjustmentMinutes != 0 }
}

extension PrayerTime {
    /// How a time was obtained.
    public enum Derivation: Hashable, Sendable, CustomStringConvertible {
        /// The sun's centre at this altitude in degrees (negative below the horizon), as seen from the
        /// place without refraction; sunrise and sunset use −0.8333° lowered by the horizon dip.
        case altitude(Double)
        /// The sun on the meridian (solar transit).
        case transit
        /// Asr: the altitude at which a shadow is `factor` lengths plus the noon shadow.
        case shadow(factor: Double)
        /// A fixed number of minutes after (negative: before) another time.
        case interval(minutes: Int, from: Prayer)
        /// A fraction of the night measured as `night`, from its start.
        case nightFraction(Double, night: NightMeasure)
        /// The Moonsighting Committee's seasonal curve (minutes before sunrise or after sunset),
        /// with the twilight it follows for isha.
        case seasonal(Shafaq?)
        /// A high-latitude rule replaced the angle time, which was unavailable or too far into the
        /// night. The rule is the one that applied (never ``HighLatitudeRule/recommended``).
        case highLatitudeRule(HighLatitudeRule)
        /// Taken from a published timetable, not calculated here.
        case published

        /// A short phrase such as `altitude -18°` or `high-latitude rule seventh-of-the-night`.
        public var description: String {
            switch self {
            case .altitude(let degrees): "altitude \(degrees.formattedCompactly)°"
            case .transit: "solar transit"
            case .shadow(let factor): "shadow factor \(factor.formattedCompactly)"
            case .interval(let minutes, let prayer):
                minutes >= 0 ? "\(minutes) min after \(prayer)" : "\(-minutes) min before \(prayer)"
            case .nightFraction(let fraction, let night): "\(fraction.formattedCompactly) of the night (\(night))"
            case .seasonal(let shafaq): "Moonsighting Committee season" + (shafaq.map { " (\($0))" } ?? "")
            case .highLatitudeRule(let rule): "high-latitude rule \(rule)"
            case .published: "published timetable"
            }
        }
    }

    /// Why a time has no instant on a given day.
    public enum Unavailability: Hashable, Sendable, CustomStringConvertible {
        /// The sun does not reach this altitude (degrees) that day: polar day or night, or a
        /// twilight that never ends in summer.
        case sunDoesNotReach(altitude: Double)
        /// The method sets no parameter for this time (a `custom` method without that angle).
        case notConfigured
        /// The time is measured from another time that is itself unavailable.
        case requires(Prayer)
        /// The civil day does not exist in the time zone: its clocks skipped it (Pacific/Apia,
        /// 2011-12-30).
        case dayNotInZone
        /// The published timetable the times come from does not give this one.
        case notPublished

        /// A sentence for people.
        public var description: String {
            switch self {
            case .sunDoesNotReach(let altitude): "the sun does not reach \(altitude.formattedCompactly)° this day"
            case .notConfigured: "the method sets no parameter for this time"
            case .requires(let prayer): "\(prayer) is unavailable this day"
            case .dayNotInZone: "this day does not exist in the time zone: its clocks skipped it"
            case .notPublished: "the published timetable does not give this time"
            }
        }
    }
}
