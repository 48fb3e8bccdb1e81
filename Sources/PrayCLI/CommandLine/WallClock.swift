import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Instants as people type them and local times in a zone, computed from PrayKit's own zone data
/// (``TimeZoneName``'s TZif periods): the command line uses FoundationEssentials only, whose Gregorian
/// calendar knows fixed-offset zones alone (docs/performance.md, "Zones, Foundation and ICU").
enum WallClock {
    /// The instant of an RFC 3339 (ISO 8601 internet) date and time: `2026-11-29T14:14:00+03:00`,
    /// `…Z`, an offset `+0300` or `+03`, seconds with a fraction (`14:14:00.5Z`), on the proleptic
    /// Gregorian calendar as ``CivilDate`` counts days (Foundation's parser read a date before
    /// 1582-10-15 as Julian). `nil` for any other text, a day that does not exist, or a time outside
    /// 00:00:00–23:59:59.
    static func instant(internetDateTime text: String) -> Date? {
        let pattern =
            /([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)/
        guard let match = text.wholeMatch(of: pattern), let year = Int(match.output.1),
            let month = Int(match.output.2), let day = Int(match.output.3), let hour = Int(match.output.4),
            let minute = Int(match.output.5), let second = Int(match.output.6), hour < 24, minute < 60, second < 60,
            let date = try? CivilDate(year: year, month: month, day: day)
        else { return nil }
        var offset = 0
        let zone = match.output.8
        if zone != "Z" && zone != "z" {
            let digits = zone.dropFirst().filter { $0 != ":" }
            guard let hours = Int(digits.prefix(2)),
                let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : digits.dropFirst(2)),
                minutes < 60
            else { return nil }
            offset = (zone.first == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        let fraction = match.output.7.flatMap { Double("0" + $0) } ?? 0
        let seconds = date.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `2026-11-29T11:14:00Z`: the instant in UTC to the second below.
    static func internetDateTime(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        return "\(CivilDate(daysSince1970: days))T\((time / 3600).zeroPadded(2)):\((time / 60 % 60).zeroPadded(2)):"
            + "\((time % 60).zeroPadded(2))Z"
    }

    /// The instant of the local time `hour`:`minute`:`second` on `date` in `zone`; when the clocks
    /// repeat that time, the first of the two (as Foundation's calendar chose); `nil` when the zone's
    /// clocks skip it.
    static func instant(
        of date: CivilDate, hour: Int, minute: Int, second: Int = 0, in zone: TimeZoneName
    ) -> Date? {
        let local = Double(date.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second)
        // The offsets around the time (no zone changes its offset twice within two days): each one that
        // holds at the instant it gives is a reading of the local time.
        let offsets = Set([-86_400.0, 0, 86_400].map { zone.offset(at: Date(timeIntervalSince1970: local + $0)) })
        let readings = offsets.map { local - Double($0) }.filter {
            Double(zone.offset(at: Date(timeIntervalSince1970: $0))) == local - $0
        }
        return readings.min().map { Date(timeIntervalSince1970: $0) }
    }
}
