#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Converts between civil days in a time zone and UTC instants, remembering the current offset until
/// the zone's next transition so that a run of days asks the zone database once per transition.
/// `package`: the prayer engine (PrayServices) computes with it, and the AlAdhan routes (PrayServer)
/// format their times with it.
package struct ZoneClock {
    /// The zone.
    package let zone: TimeZoneName
    // Inlinable (the engine asks for an offset for every time of every day): the period in hand.
    @usableFromInline var validFrom = Double.infinity
    @usableFromInline var validUntil = -Double.infinity
    @usableFromInline var offset = 0
    /// Where the zone's periods come from, found at the first question.
    private var source = ZonePeriods.Source.unresolved

    package init(zone: TimeZoneName) {
        self.zone = zone
        if let rules = zone.systemRules { source = .tzif(rules) }
    }

    package init(timeZone: TimeZone) {
        self.init(zone: TimeZoneName(timeZone))
    }

    /// The zone as Foundation's `TimeZone` (made when asked for: see ``TimeZoneName/timeZone``).
    package var timeZone: TimeZone { zone.timeZone }

    /// The zone's offset from UTC in seconds at `instant` (Unix seconds).
    @inlinable @inline(__always) package mutating func offset(at instant: Double) -> Int {
        if instant >= validFrom && instant < validUntil { return offset }
        return offsetOutsidePeriod(at: instant)
    }

    /// `offset(at:)` for an instant outside the period in hand: the zone's period of `instant`.
    @usableFromInline mutating func offsetOutsidePeriod(at instant: Double) -> Int {
        let period = ZonePeriods.period(of: zone, source: &source, at: instant)
        if period.offset == offset && period.until == validUntil {
            // The same period, asked about earlier than before: widen it rather than replace it.
            validFrom = min(validFrom, period.from)
        } else {
            (offset, validFrom, validUntil) = (period.offset, period.from, period.until)
        }
        return offset
    }

    /// The UTC instant (Unix seconds) of `hour` o'clock local time on `date`. In a gap (clocks skip
    /// forward) it is an instant of the same civil day; `nil` when the zone skipped the whole day
    /// (Pacific/Apia skipped 2011-12-30 when it crossed the date line).
    package mutating func instant(of date: CivilDate, hour: Double) -> Double? {
        let local = Double(date.daysSince1970) * 86400 + hour * 3600
        let cached = Double(offset)
        let guess = local - Double(offset(at: local - cached))
        let corrected = local - Double(offset(at: guess))
        if Double(offset(at: corrected)) == local - corrected { return corrected }
        for candidate in [guess, corrected] {
            let localDay = CivilDate.dayNumber(localSeconds: candidate + Double(offset(at: candidate)))
            if localDay == date.daysSince1970 { return candidate }
        }
        return nil
    }

    /// `instant` (Unix seconds) down to the start of its minute of local time.
    package mutating func roundDown(_ instant: Double) -> Double {
        let offset = Double(offset(at: instant))
        return ((instant + offset) / 60).rounded(.down) * 60 - offset
    }

    /// Rounds `instant` (Unix seconds) to a whole minute of local time, so that zones whose offset
    /// is not a whole number of minutes (historical local mean time) still show :00 seconds.
    @inlinable package mutating func round(_ instant: Double, _ rounding: Rounding) -> Double {
        guard rounding != .none else { return instant }
        let offset = Double(offset(at: instant))
        let local = instant + offset
        let minutes: Double
        switch rounding {
        case .nearest: minutes = (local / 60 + 0.5).rounded(.down)
        case .up: minutes = (local.rounded() / 60).rounded(.up)
        case .none: minutes = local / 60
        }
        return minutes * 60 - offset
    }
}

/// A zone's offset periods: from the system's tz database (``ZoneDatabase``, TZif files) where it has
/// the zone, else from Foundation. Foundation's periods met so far are kept, shared by every
/// calculation in the process: asking it for a zone's next transition costs microseconds and takes the
/// zone's lock, and a server asks for the same few periods over and over. The answers are the zone
/// database's own, so results do not depend on what was asked before.
enum ZonePeriods {
    /// A span of instants (Unix seconds) over which a zone keeps one offset: from the earliest instant
    /// asked about in it to the zone's next transition.
    private struct Period {
        var from: Double
        let until: Double
        let offset: Int
    }

    /// The most periods kept per zone (about 250 years of twice-yearly changes, 12 KB); beyond that
    /// the zone's list starts again.
    static let capacity = 512

    /// Periods by zone identifier, sorted by their end.
    private static let periods = ReadMostly<[String: [Period]]>([:])

    /// Where a zone's periods come from.
    enum Source {
        /// Not looked up yet.
        case unresolved
        /// The zone's file in the system's tz database.
        case tzif(TZifZone)
        /// Foundation (the system's database has no such zone).
        case foundation
    }

    /// The zone's offset from UTC in seconds at `instant` (Unix seconds), an instant from which it holds
    /// (the zone's last transition where the tz database says; else `instant`; `-.infinity` when it
    /// always held) and the instant of its next transition (`.infinity` when there is none).
    static func period(of zone: TimeZoneName, at instant: Double) -> (offset: Int, from: Double, until: Double) {
        var source = zone.systemRules.map(Source.tzif) ?? .unresolved
        return period(of: zone, source: &source, at: instant)
    }

    /// The same, with the zone's source found once and kept in `source` by the caller (``ZoneClock``).
    static func period(
        of name: TimeZoneName, source: inout Source, at instant: Double
    ) -> (offset: Int, from: Double, until: Double) {
        if case .unresolved = source {
            source = ZoneDatabase.systemZone(named: name.identifier).map(Source.tzif) ?? .foundation
        }
        // The system's tz database where it has the zone: no lock, no ICU.
        if case .tzif(let rules) = source, instant.isFinite, abs(instant) < 1e15 {
            let period = rules.period(at: Int64(instant.rounded(.down)))
            return (
                period.offset, period.from.map(Double.init) ?? -.infinity, period.until.map(Double.init) ?? .infinity
            )
        }
        let key = name.identifier
        if let found = periods.read({ lookup($0[key] ?? [], instant) }) { return (found.offset, instant, found.until) }
        let zone = name.timeZone
        let date = Date(timeIntervalSince1970: instant)
        let offset = zone.secondsFromGMT(for: date)
        let until = zone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
        periods.write { periods in
            var list = periods[key] ?? []
            if list.count >= capacity { list.removeAll(keepingCapacity: true) }
            // The first period ending after the instant: the same one, found from later, or the next.
            let index = list.partitioningIndex { $0.until > instant }
            if index < list.count, list[index].until == until, list[index].offset == offset {
                list[index].from = min(list[index].from, instant)
            } else {
                list.insert(Period(from: instant, until: until, offset: offset), at: index)
            }
            periods[key] = list
        }
        return (offset, instant, until)
    }

    private static func lookup(_ list: [Period], _ instant: Double) -> (offset: Int, until: Double)? {
        let index = list.partitioningIndex { $0.until > instant }
        guard index < list.count, list[index].from <= instant else { return nil }
        return (list[index].offset, list[index].until)
    }
}

extension Array {
    /// The index of the first element for which `predicate` holds, in an array where it holds for a
    /// suffix (a binary search).
    fileprivate func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension TimeZone {
    /// The zone's offset from UTC in seconds at `date`, as PrayKit computes every offset: from the
    /// system's tz database where it has the zone (``ZonePeriods``), else Foundation's.
    package func offset(at date: Date) -> Int {
        ZonePeriods.period(of: TimeZoneName(self), at: date.timeIntervalSince1970).offset
    }
}

extension TimeZoneName {
    /// The zone's offset from UTC in seconds at `date`, as PrayKit computes every offset: from the
    /// system's tz database where it has the zone (``ZonePeriods``), else Foundation's.
    package func offset(at date: Date) -> Int {
        ZonePeriods.period(of: self, at: date.timeIntervalSince1970).offset
    }

    /// `2026-11-29T05:20:00+03:00`: `date` to the nearest second on the zone's clock, with the offset
    /// in effect then (seconds in the offset only for historical local mean times) — as `praykit
    /// times --format json`, the screen's model and the printed month write instants.
    package func iso8601(_ date: Date) -> String {
        let instant = Int(date.timeIntervalSince1970.rounded())
        let offset = offset(at: Date(timeIntervalSince1970: Double(instant)))
        let local = instant + offset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let seconds = local - days * 86_400
        let magnitude = abs(offset)
        var text = "\(CivilDate(daysSince1970: days))T\((seconds / 3600).zeroPadded(2)):"
        text += "\((seconds / 60 % 60).zeroPadded(2)):\((seconds % 60).zeroPadded(2))"
        text += "\(offset < 0 ? "-" : "+")\((magnitude / 3600).zeroPadded(2)):\((magnitude / 60 % 60).zeroPadded(2))"
        if magnitude % 60 != 0 { text += ":\((magnitude % 60).zeroPadded(2))" }
        return text
    }

    /// The first instant after `date` at which the zone's offset changes, from the same source as
    /// ``offset(at:)``, or `nil` when it never changes again.
    package func nextOffsetChange(after date: Date) -> Date? {
        var instant = date.timeIntervalSince1970
        let offset = ZonePeriods.period(of: self, at: instant).offset
        // A transition may change only the zone's abbreviation; look past those (a few at most).
        for _ in 0..<16 {
            let until = ZonePeriods.period(of: self, at: instant).until
            guard until.isFinite, until > instant else { return nil }
            if ZonePeriods.period(of: self, at: until).offset != offset { return Date(timeIntervalSince1970: until) }
            instant = until
        }
        return nil
    }
}
