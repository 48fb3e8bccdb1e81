import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes instants as wall-clock times of one zone: ISO 8601 with the offset in effect at that
/// instant (`2026-11-29T05:20:00+03:00`), or `05:20` for tables.
struct LocalClock {
    let zone: TimeZoneName

    init(zone: TimeZoneName) {
        self.zone = zone
    }

    init(timeZone: TimeZone) {
        self.init(zone: TimeZoneName(timeZone))
    }

    /// The civil date, seconds since local midnight and offset of `date`, to the nearest second.
    func components(_ date: Date) -> (day: CivilDate, seconds: Int, offset: Int) {
        let instant = Int(date.timeIntervalSince1970.rounded())
        let offset = zone.offset(at: Date(timeIntervalSince1970: Double(instant)))
        let local = instant + offset
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        return (CivilDate(daysSince1970: days), local - days * 86400, offset)
    }

    /// `2026-11-29T05:20:00+03:00`; the offset carries seconds only for historical local mean times.
    func iso8601(_ date: Date) -> String {
        zone.iso8601(date)
    }

    /// `05:20`, or `05:20:07` with seconds; `5:20 am` on a 12-hour clock.
    func time(_ date: Date, withSeconds: Bool, twelveHour: Bool = false) -> String {
        let seconds = components(date).seconds
        guard twelveHour else { return Self.clock(seconds, withSeconds: withSeconds) }
        let hour = seconds / 3600 % 12 == 0 ? 12 : seconds / 3600 % 12
        let text = Self.clock(seconds % 3600 + hour * 3600, withSeconds: withSeconds)
        return (text.hasPrefix("0") ? String(text.dropFirst()) : text) + (seconds < 12 * 3600 ? " am" : " pm")
    }

    /// `+03:00`, `-09:30`, `+05:45`.
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        var text = "\(sign)\((magnitude / 3600).zeroPadded(2)):\((magnitude / 60 % 60).zeroPadded(2))"
        if magnitude % 60 != 0 { text += ":\((magnitude % 60).zeroPadded(2))" }
        return text
    }

    private static func clock(_ seconds: Int, withSeconds: Bool) -> String {
        let text = "\((seconds / 3600).zeroPadded(2)):\((seconds / 60 % 60).zeroPadded(2))"
        return withSeconds ? text + ":\((seconds % 60).zeroPadded(2))" : text
    }
}
