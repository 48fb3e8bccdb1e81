/// A time of the prayer day: the five prayers, sunrise and sunset, and the night times.
///
/// The raw values are the names used in JSON and on the command line (`firstThird`, not
/// `first_third`). `allCases` lists them in the order of the JSON contract; ``chronological`` lists
/// them in the order they happen.
public enum Prayer: String, CaseIterable, Codable, CodingKeyRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// Dawn: the sun's centre a set angle below the horizon in the morning.
    case fajr
    /// The sun's upper limb on the horizon in the morning.
    case sunrise
    /// Just after the sun crosses the meridian (solar transit).
    case dhuhr
    /// The afternoon prayer: an object's shadow reaches its noon shadow plus one (or two) lengths.
    case asr
    /// The sun's upper limb on the horizon in the evening.
    case sunset
    /// The evening prayer: sunset, or a set angle or interval after it.
    case maghrib
    /// The night prayer: the sun a set angle below the horizon, or an interval after maghrib.
    case isha
    /// The start of the pre-dawn fast: a few minutes (or an angle) before fajr.
    case imsak
    /// The middle of the night.
    case midnight
    /// The end of the first third of the night.
    case firstThird
    /// The start of the last third of the night.
    case lastThird

    /// The times in the order they happen in one prayer day.
    public static let chronological: [Prayer] = [
        .imsak, .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha, .firstThird, .midnight, .lastThird,
    ]

    /// The five daily prayers plus sunrise: the times an app counts down to.
    public static let daily: [Prayer] = [.fajr, .sunrise, .dhuhr, .asr, .maghrib, .isha]

    /// The five obligatory prayers.
    public static let obligatory: [Prayer] = [.fajr, .dhuhr, .asr, .maghrib, .isha]

    /// Whether this is one of the five obligatory prayers.
    public var isObligatory: Bool { Self.obligatory.contains(self) }

    /// The English name for people: `"Fajr"`, `"First third"`.
    public var name: String {
        switch self {
        case .firstThird: "First third"
        case .lastThird: "Last third"
        // String + String: adding a Substring is generic, and the runtime checks its conformances.
        default: rawValue.prefix(1).uppercased() + String(rawValue.dropFirst())
        }
    }

    /// The raw value, as in JSON.
    public var description: String { rawValue }

    /// The position of this case in ``chronological``, for ordering times that fall on the same instant.
    var chronologicalOrder: Int { Self.chronological.firstIndex(of: self) ?? 0 }

    /// The position of this case in `allCases` (0…10), for fixed-size per-prayer storage. Inlinable:
    /// the engine asks it for every time of every day.
    @inlinable package var ordinal: Int {
        switch self {
        case .fajr: 0
        case .sunrise: 1
        case .dhuhr: 2
        case .asr: 3
        case .sunset: 4
        case .maghrib: 5
        case .isha: 6
        case .imsak: 7
        case .midnight: 8
        case .firstThird: 9
        case .lastThird: 10
        }
    }
}
