import Foundation
import PrayCore

/// Converts between civil days in a time zone and UTC instants, remembering the current offset until
/// the zone's next transition so that a run of days asks the zone database once per transition.
struct ZoneClock {
    let timeZone: TimeZone
    private var validFrom = Double.infinity
    private var validUntil = -Double.infinity
    private var offset = 0

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The zone's offset from UTC in seconds at `instant` (Unix seconds).
    mutating func offset(at instant: Double) -> Int {
        if instant >= validFrom && instant < validUntil { return offset }
        let date = Date(timeIntervalSince1970: instant)
        let newOffset = timeZone.secondsFromGMT(for: date)
        let next = timeZone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
        if newOffset == offset && next == validUntil {
            // The same period, asked about earlier than before: widen it rather than replace it.
            validFrom = min(validFrom, instant)
        } else {
            (offset, validFrom, validUntil) = (newOffset, instant, next)
        }
        return offset
    }

    /// The UTC instant (Unix seconds) of `hour` o'clock local time on `date`. In a gap (clocks skip
    /// forward) it is an instant of the same civil day; `nil` when the zone skipped the whole day
    /// (Pacific/Apia skipped 2011-12-30 when it crossed the date line).
    mutating func instant(of date: CivilDate, hour: Double) -> Double? {
        let local = Double(date.daysSince1970) * 86400 + hour * 3600
        let cached = Double(offset)
        let guess = local - Double(offset(at: local - cached))
        let corrected = local - Double(offset(at: guess))
        if Double(offset(at: corrected)) == local - corrected { return corrected }
        for candidate in [guess, corrected] {
            let localDay = ((candidate + Double(offset(at: candidate))) / 86400).rounded(.down)
            if Int(localDay) == date.daysSince1970 { return candidate }
        }
        return nil
    }

    /// Rounds `instant` (Unix seconds) to a whole minute of local time, so that zones whose offset
    /// is not a whole number of minutes (historical local mean time) still show :00 seconds.
    mutating func round(_ instant: Double, _ rounding: Rounding) -> Double {
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
