import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `timings` object and the clock texts of AlAdhan's responses.
///
/// The 11 names and their order are AlAdhan's (islamic-network/prayer-times `computeTimes`). A time
/// is `"05:21"` in the zone, or with `iso8601=true` `"2027-03-01T05:21:00+03:00"`; the calendar
/// endpoints add the zone's abbreviation, `"05:21 (+03)"`, as AlAdhan's calendars do. A time the sun
/// does not give that day (and no high-latitude rule fills) is AlAdhan's `"-----"`.
enum AlAdhanTimings {
    /// The names in AlAdhan's order, with the index of each one's `tune` minutes.
    static let names: [(key: StaticString, prayer: Prayer, tune: Int?)] = [
        ("Fajr", .fajr, 1), ("Sunrise", .sunrise, 2), ("Dhuhr", .dhuhr, 3), ("Asr", .asr, 4), ("Sunset", .sunset, 6),
        ("Maghrib", .maghrib, 5), ("Isha", .isha, 7), ("Imsak", .imsak, 0), ("Midnight", .midnight, 8),
        ("Firstthird", .firstThird, nil), ("Lastthird", .lastThird, nil),
    ]

    /// AlAdhan's text for a time that does not exist that day.
    static let unavailable = "-----"

    /// Midnight and the night's thirds as AlAdhan measures the night: from sunset to the same day's
    /// sunrise (or fajr) 24 hours on, where PrayKit measures it to the next day's
    /// (islamic-network/prayer-times `computeTimes`: `timeDiff(sunset, sunrise)` wraps the same day's
    /// sunrise past midnight). Instants in seconds since 1970, rounded to the minute.
    struct Night {
        let firstThird: Int
        let midnight: Int
        let lastThird: Int

        /// The night of `current`'s day, whose sunrise (or fajr) ends `previous`'s night; `nil` when the
        /// sun does not give one of them.
        init?(previous: PrayerSchedule, current: PrayerSchedule, measure: NightMeasure) {
            guard let end = previous.night(measure)?.end.timeIntervalSince1970,
                let sunset = current.night(measure)?.start.timeIntervalSince1970
            else { return nil }
            let length = end + 86_400 - sunset
            guard length > 0 else { return nil }
            func minute(_ fraction: Double) -> Int { Int(((sunset + fraction * length) / 60).rounded()) * 60 }
            (firstThird, midnight, lastThird) = (minute(1.0 / 3), minute(0.5), minute(2.0 / 3))
        }

        /// The instant of a night time, or `nil` for another time.
        subscript(prayer: Prayer) -> Int? {
            switch prayer {
            case .firstThird: firstThird
            case .midnight: midnight
            case .lastThird: lastThird
            default: nil
            }
        }
    }

    /// The `timings` object of a day in 24-hour times, as text with room for the times: each name in
    /// AlAdhan's order with `"00:00"`, or `"00:00 (abbreviation)"` in the calendars. A day is written
    /// by copying the text and putting each time's four digits in its place — a missing time's
    /// `"-----"` is as long as a time, when there is no abbreviation — instead of writing each member.
    struct Template {
        /// The zone's abbreviation written after each time, as UTF-8 (empty for none).
        let abbreviation: [UInt8]
        /// The object's text.
        let text: [UInt8]
        /// Where each time's first digit is in ``text``, by the index of ``AlAdhanTimings/names``.
        let places: [Int]

        /// The text for times followed by `abbreviation` (UTF-8 of ASCII text without quotes or
        /// backslashes, ``AlAdhanTimings/abbreviation(offset:named:)``), or by nothing.
        init(abbreviation: [UInt8] = []) {
            var json = JSONWriter()
            var places: [Int] = []
            json.beginObject()
            for name in AlAdhanTimings.names {
                json.key(name.key)
                places.append(json.count + 1)  // after the opening quote
                json.clock(0, abbreviation: abbreviation)
            }
            json.endObject()
            (self.abbreviation, text, self.places) = (abbreviation, json.bytes, places)
        }

        /// The times without an abbreviation: `/v1/timings` and the other one-day answers.
        static let plain = Template()
    }

    /// Writes the `timings` object of a day. `tune` moves each time alone (midnight and the thirds are
    /// measured from the untuned sunset and sunrise, as in AlAdhan).
    /// - Parameters:
    ///   - template: The 24-hour times' text, with the zone's abbreviation in the calendars.
    ///   - night: Midnight and the thirds measured as AlAdhan measures them, replacing the schedule's.
    static func writeTimings(
        _ schedule: PrayerSchedule, tune: [Int], iso8601: Bool, clock: inout ZoneClock, template: Template = .plain,
        night: Night? = nil, to json: inout JSONWriter
    ) {
        // The instants in AlAdhan's order (seconds since 1970), one for each of `names`, in a value on the
        // stack, as a calendar writes 31 days of them. Read from the schedule before any closure: a closure
        // that read the schedule had a copy of it made for each day.
        var instants = Instants()
        var earliest = Int.max
        var latest = Int.min
        var missing = false
        for index in 0..<Instants.count {
            let name = names[index]
            let base =
                night?[name.prayer]
                ?? schedule[name.prayer].map { Int($0.date.timeIntervalSince1970.rounded(.down)) }
            let instant = base.map { $0 + (name.tune.map { tune[$0] } ?? 0) * 60 }
            if let instant { (earliest, latest) = (min(earliest, instant), max(latest, instant)) }
            missing = missing || instant == nil
            instants[index] = instant
        }
        // One offset for the whole day unless the clocks change between its first and last time
        // (asking the zone for each time costs more than the rest of the day's text).
        let firstOffset = earliest == Int.max ? 0 : clock.offset(at: Double(earliest))
        let constant = earliest == Int.max || firstOffset == clock.offset(at: Double(latest))
        if !iso8601, !missing || template.abbreviation.isEmpty {
            json.filled(template.text) { text in
                for index in 0..<Instants.count {
                    let digits = text + template.places[index]
                    guard let instant = instants[index] else {
                        for offset in 0..<5 { digits[offset] = UInt8(ascii: "-") }
                        continue
                    }
                    let offset = constant ? firstOffset : clock.offset(at: Double(instant))
                    let seconds = (instant + offset) % 86_400
                    JSONWriter.putClock(seconds < 0 ? seconds + 86_400 : seconds, at: digits)
                }
            }
            return
        }
        json.beginObject()
        for index in 0..<Instants.count {
            json.key(names[index].key)
            guard let instant = instants[index] else {
                json.string(unavailable)
                continue
            }
            let offset = constant ? firstOffset : clock.offset(at: Double(instant))
            if iso8601 {
                writeISO(instant, offset: offset, to: &json)
            } else {
                writeClock(instant + offset, abbreviation: template.abbreviation, to: &json)
            }
        }
        json.endObject()
    }

    /// The eleven instants of a day's `timings`, in the order of ``names``, stored inline: seconds since
    /// 1970, `nil` for a time that is missing.
    struct Instants {
        /// How many there are: one for each of ``names`` (a test checks that they agree).
        static let count = 11
        /// `Int.min` for a missing time: no instant of years 1 to 9999 comes near it.
        private var values: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
            (.min, .min, .min, .min, .min, .min, .min, .min, .min, .min, .min)

        subscript(index: Int) -> Int? {
            get {
                precondition((0..<Self.count).contains(index), "Instants: index \(index) out of range")
                let value = withUnsafeBytes(of: values) {
                    $0.load(fromByteOffset: index * MemoryLayout<Int>.stride, as: Int.self)
                }
                return value == .min ? nil : value
            }
            set {
                precondition((0..<Self.count).contains(index), "Instants: index \(index) out of range")
                withUnsafeMutableBytes(of: &values) {
                    $0.storeBytes(of: newValue ?? .min, toByteOffset: index * MemoryLayout<Int>.stride, as: Int.self)
                }
            }
        }
    }

    /// Writes `"HH:mm"` of a local time (seconds since 1970 on the zone's clock).
    static func writeClock(_ local: Int, to json: inout JSONWriter) {
        json.clock(((local % 86_400) + 86_400) % 86_400)
    }

    /// Writes `"HH:mm (abbreviation)"` of a local time (the calendars' times), `abbreviation` being the
    /// UTF-8 of ASCII text without quotes or backslashes (``abbreviation(offset:named:)``): bytes made
    /// once for a month, where a `String` would be copied out of its storage for each of its 341 times.
    static func writeClock(_ local: Int, abbreviation: [UInt8], to json: inout JSONWriter) {
        json.clock(((local % 86_400) + 86_400) % 86_400, abbreviation: abbreviation)
    }

    /// Writes `"2027-03-01T05:21:00+03:00"` of an instant at a zone offset (PHP's `DATE_ATOM`).
    static func writeISO(_ instant: Int, offset: Int, to json: inout JSONWriter) {
        let local = instant + offset
        let days = CivilDate.dayNumber(localSeconds: Double(local))
        let seconds = local - days * 86_400
        let date = CivilDate(daysSince1970: days)
        let magnitude = abs(offset)
        json.quoted { text in
            text.digits(date.year, width: 4)
            text.text(UInt8(ascii: "-"))
            text.digits(date.month, width: 2)
            text.text(UInt8(ascii: "-"))
            text.digits(date.day, width: 2)
            text.text(UInt8(ascii: "T"))
            text.digits(seconds / 3600, width: 2)
            text.text(UInt8(ascii: ":"))
            text.digits(seconds / 60 % 60, width: 2)
            text.text(UInt8(ascii: ":"))
            text.digits(seconds % 60, width: 2)
            text.text(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            text.digits(magnitude / 3600, width: 2)
            text.text(UInt8(ascii: ":"))
            text.digits(magnitude / 60 % 60, width: 2)
        }
    }

    /// `HH:mm` of a local time (seconds since 1970 on the zone's clock).
    static func clockText(_ local: Int) -> String {
        let seconds = ((local % 86_400) + 86_400) % 86_400
        return "\((seconds / 3600).zeroPadded(2)):\((seconds / 60 % 60).zeroPadded(2))"
    }

    /// `HH:mm` of an instant (seconds since 1970) on the zone's clock.
    static func clockText(_ instant: Int, clock: inout ZoneClock) -> String {
        clockText(instant + clock.offset(at: Double(instant)))
    }

    /// The instant (seconds since 1970) at `secondsIntoDay` of wall-clock time on `date` in `zone`
    /// (the later one when the clocks repeat that time, the shifted one when they skip it).
    static func instant(of date: CivilDate, secondsIntoDay: Int, clock: inout ZoneClock) -> Int {
        let wall = date.daysSince1970 * 86_400 + secondsIntoDay
        var instant = wall - clock.offset(at: Double(wall))
        instant = wall - clock.offset(at: Double(instant))
        return instant
    }

    /// The abbreviation of the zone `name` where its offset is `offset` seconds, in the style of the tz
    /// database that AlAdhan prints: `UTC` for UTC, `GMT` at offset zero, otherwise the offset, `+03`,
    /// `-04`, `+0530`.
    static func abbreviation(offset: Int, named name: String) -> String {
        if ["UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu"].contains(name) {
            return "UTC"
        }
        guard offset != 0 else { return "GMT" }
        let magnitude = abs(offset)
        let minutes = magnitude / 60 % 60
        return (offset < 0 ? "-" : "+") + (magnitude / 3600).zeroPadded(2) + (minutes == 0 ? "" : minutes.zeroPadded(2))
    }
}
