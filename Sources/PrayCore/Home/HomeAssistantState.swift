#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What PrayKit's Home Assistant entities show at one instant (``HomeAssistantTimeline/state(at:)``),
/// published as one retained JSON object on ``HomeAssistantTopics/state`` that every entity reads a
/// field of (``HomeAssistantDiscovery``). Times are ISO 8601 with the place's offset on that instant;
/// a time there is none of is `null`.
///
/// ```json
/// {"date": "2026-12-06", "fajr": "2026-12-06T05:31:00+03:00", "fajr_iqama": "2026-12-06T05:51:00+03:00",
///  "next_prayer": "dhuhr", "next_prayer_name": "Dhuhr", "next_prayer_time": "2026-12-06T11:56:00+03:00",
///  "current_period": "sunrise", "disliked": "OFF", "missing": [], "hijri": "25 Jumada al-Akhirah 1448", …}
/// ```
public struct HomeAssistantState: Hashable, Sendable {
    /// The civil day in the place's zone.
    public var date: CivilDate
    /// The place's zone.
    public var timeZone: TimeZone
    /// The place's name, if known.
    public var place: String?
    /// The mosque whose timetable gave the times, if one did.
    public var mosque: String?
    /// The day's fajr, sunrise, dhuhr, Asr, maghrib and isha, where the day has them.
    public var times: [Prayer: Date] = [:]
    /// The day's iqama of each prayer, where set (dhuhr's on a Friday is the first Jumu'ah).
    public var iqamas: [Prayer: Date] = [:]
    /// The day's times the sun gives none of (a polar day or night), in order.
    public var missing: [Prayer] = []
    /// The Friday prayer of this week (today's on a Friday): its times, or Friday's dhuhr when none are set.
    public var jumuah: [Date] = []
    /// The next time, its prayer and its iqama.
    public var next: (prayer: Prayer, time: Date, iqama: Date?)?
    /// The prayer whose time it is, and when its time began and ends.
    public var current: (prayer: Prayer, since: Date, until: Date?)?
    /// The time prayer is disliked that it is, and when it ends.
    public var disliked: (kind: ExtraTimes.DislikedTime.Kind, until: Date)?
    /// The fast of Ramadan of this instant: from the maghrib before it until its iftar.
    public var fast: RamadanTimer.Fast?
    /// The Hijri date of the civil day.
    public var hijri: HijriDate?

    /// Creates a state with no times.
    public init(date: CivilDate, timeZone: TimeZone) {
        self.date = date
        self.timeZone = timeZone
    }

    /// The JSON object, its keys sorted (the same state gives the same bytes).
    public var payload: Data {
        HomeAssistantJSON.data(object)
    }

    /// The state as JSON values.
    var object: [String: Any] {
        let clock = HomeAssistantJSON.Clock(timeZone: timeZone)
        var object: [String: Any] = [
            "date": date.description, "time_zone": timeZone.identifier, "place": place ?? HomeAssistantJSON.null,
            "mosque": mosque ?? HomeAssistantJSON.null, "missing": missing.map(\.rawValue),
            "jumuah": clock.value(jumuah.first), "jumuah_times": jumuah.map(clock.text),
        ]
        for prayer in Prayer.daily { object[prayer.rawValue] = clock.value(times[prayer]) }
        for prayer in Prayer.obligatory { object["\(prayer.rawValue)_iqama"] = clock.value(iqamas[prayer]) }
        object["next_prayer"] = next.map { $0.prayer.rawValue } ?? HomeAssistantJSON.null
        object["next_prayer_name"] = next.map { $0.prayer.name } ?? HomeAssistantJSON.null
        object["next_prayer_time"] = clock.value(next?.time)
        object["next_iqama"] = clock.value(next?.iqama)
        object["current_period"] = current.map { $0.prayer.rawValue } ?? HomeAssistantJSON.null
        object["current_since"] = clock.value(current?.since)
        object["current_until"] = clock.value(current?.until)
        object["disliked"] = disliked == nil ? "OFF" : "ON"
        object["disliked_kind"] = disliked.map { $0.kind.rawValue } ?? HomeAssistantJSON.null
        object["disliked_until"] = clock.value(disliked?.until)
        object["ramadan_day"] = fast.map { $0.ramadanDay } ?? HomeAssistantJSON.null
        object["suhoor"] = clock.value(fast?.suhoorEnds)
        object["iftar"] = clock.value(fast?.iftar)
        object["hijri"] = hijri.map { "\($0.day) \($0.monthName) \($0.year)" } ?? HomeAssistantJSON.null
        object["hijri_date"] = hijri.map(\.description) ?? HomeAssistantJSON.null
        object["hijri_day"] = hijri.map(\.day) ?? HomeAssistantJSON.null
        object["hijri_month"] = hijri.map(\.monthNumber) ?? HomeAssistantJSON.null
        object["hijri_month_name"] = hijri.map(\.monthName) ?? HomeAssistantJSON.null
        object["hijri_year"] = hijri.map(\.year) ?? HomeAssistantJSON.null
        return object
    }

    /// Compares the published values.
    public static func == (lhs: HomeAssistantState, rhs: HomeAssistantState) -> Bool {
        lhs.payload == rhs.payload
    }

    /// Hashes the published values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(payload)
    }
}

/// The next prayer's countdown, published each minute as a retained JSON object on
/// ``HomeAssistantTopics/next``: the attributes of the "Next prayer" entity. The countdown counts
/// whole minutes, rounded up (`0:01` in the last minute), so it changes once a minute, never each second.
public struct HomeAssistantCountdown: Hashable, Sendable {
    /// The next prayer.
    public var prayer: Prayer
    /// Its time.
    public var time: Date
    /// Its iqama, when set.
    public var iqama: Date?
    /// Whole minutes until ``time``, rounded up.
    public var minutes: Int
    /// The place's zone.
    public var timeZone: TimeZone

    /// Creates the countdown to `time` at `instant`.
    public init(prayer: Prayer, time: Date, iqama: Date?, at instant: Date, timeZone: TimeZone) {
        self.prayer = prayer
        self.time = time
        self.iqama = iqama
        self.timeZone = timeZone
        minutes = max(0, Int((time.timeIntervalSince(instant) / 60).rounded(.up)))
    }

    /// `1:02`: hours and minutes.
    public var text: String {
        "\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
    }

    /// The JSON object.
    public var payload: Data {
        let clock = HomeAssistantJSON.Clock(timeZone: timeZone)
        return HomeAssistantJSON.data([
            "prayer": prayer.rawValue, "name": prayer.name, "time": clock.text(time), "iqama": clock.value(iqama),
            "countdown": text, "countdown_minutes": minutes,
        ])
    }
}

/// JSON as PrayKit's Home Assistant messages write it: keys sorted, `/` unescaped — the bytes
/// Foundation's `JSONSerialization` wrote with `.sortedKeys` and `.withoutEscapingSlashes`, written
/// here without full Foundation (the start-up path uses FoundationEssentials only; docs/performance.md):
/// no white space, strings escaped as it escaped them (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`,
/// other control characters as `\u00xx` in lower case, everything else as it is), keys in the order
/// of their Unicode scalars (every key here is ASCII: the order `JSONSerialization` gave them).
enum HomeAssistantJSON {
    /// JSON's `null` in an object.
    struct Null: Sendable {}

    /// JSON's `null`.
    static let null = Null()

    /// The bytes of `object` (strings, integers, booleans, arrays, objects and ``null`` only).
    static func data(_ object: Any) -> Data {
        var text = ""
        // Only JSON values are ever passed in: writing cannot fail.
        guard write(object, into: &text) else { return Data("{}".utf8) }
        return Data(text.utf8)
    }

    /// Appends `value` to `text`; false for a value JSON has no form of.
    private static func write(_ value: Any, into text: inout String) -> Bool {
        switch value {
        case let string as String:
            writeString(string, into: &text)
        case let flag as Bool:
            text += flag ? "true" : "false"
        case let number as Int:
            text += String(number)
        case is Null:
            text += "null"
        case let object as [String: Any]:
            text += "{"
            for (index, key) in object.keys.sorted(by: {
                $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars)
            })
            .enumerated() {
                if index > 0 { text += "," }
                writeString(key, into: &text)
                text += ":"
                guard let member = object[key], write(member, into: &text) else { return false }
            }
            text += "}"
        case let array as [Any]:
            text += "["
            for (index, element) in array.enumerated() {
                if index > 0 { text += "," }
                guard write(element, into: &text) else { return false }
            }
            text += "]"
        default:
            return false
        }
        return true
    }

    private static func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\u{8}": text += "\\b"
            case "\u{c}": text += "\\f"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{0}"..."\u{1f}":
                text += (scalar.value < 0x10 ? "\\u000" : "\\u00") + String(scalar.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// ISO 8601 times in a zone, with its offset on each instant: `2026-12-06T05:31:00+03:00`.
    struct Clock {
        let timeZone: TimeZone

        /// The instant's text.
        func text(_ date: Date) -> String {
            let offset = timeZone.offset(at: date)
            let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset
            let days = Int((Double(local) / 86_400).rounded(.down))
            let seconds = local - days * 86_400
            let day = CivilDate(daysSince1970: days)
            let sign = offset < 0 ? "-" : "+"
            let magnitude = abs(offset)
            var zone = "\(sign)\((magnitude / 3600).zeroPadded(2)):\((magnitude / 60 % 60).zeroPadded(2))"
            if magnitude % 60 != 0 { zone += ":\((magnitude % 60).zeroPadded(2))" }
            return "\(day)T\((seconds / 3600).zeroPadded(2)):\((seconds / 60 % 60).zeroPadded(2)):"
                + "\((seconds % 60).zeroPadded(2))\(zone)"
        }

        /// The instant's text, or JSON's `null`.
        func value(_ date: Date?) -> Any {
            date.map(text) ?? HomeAssistantJSON.null
        }
    }
}
