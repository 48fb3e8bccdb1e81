#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A month of prayer times as a printed timetable lays it out: for each day its times with their marks,
/// its Hijri date, and the iqama of each prayer that has one (two or three Jumu'ah times stacked on a
/// Friday). The one model of `praykit timetable`'s page and of the month page `praykit serve` answers
/// (`/month.json`), so both show the same values.
///
/// Iqama comes first from a mosque's own timetable (``PrayerSchedule/congregationTimes``, its
/// ``PrayerSchedule/jumuahTimes``), then from the iqama settings — the rule of the reminders and the
/// screen.
///
/// ```swift
/// let month = TimetableMonth(schedules: response.schedules, hijri: hijriDays, iqama: saved.iqamaSettings)
/// for schedule in month.schedules where month.iqamaPrayers.contains(.dhuhr) {
///     print(schedule.date, month.iqamaTimes(.dhuhr, in: schedule).times)
/// }
/// ```
public struct TimetableMonth: Sendable {
    /// The times of a row, in the order of the day.
    public static let prayers: [Prayer] = [.fajr, .sunrise, .dhuhr, .asr, .maghrib, .isha]

    /// The days, in order.
    public let schedules: [PrayerSchedule]
    /// The Hijri date of each day (a day without one has none).
    public let hijri: [HijriDay]
    /// The iqama and Jumu'ah times, shown in columns of their own when set.
    public let iqama: IqamaSettings?

    /// Creates a month.
    public init(schedules: [PrayerSchedule], hijri: [HijriDay], iqama: IqamaSettings?) {
        self.schedules = schedules
        self.hijri = hijri
        self.iqama = iqama
    }

    /// The prayers that get an iqama column: those with a rule, those a mosque's timetable gives an
    /// iqama of, and dhuhr when there are Jumu'ah times.
    public var iqamaPrayers: Set<Prayer> {
        var prayers = Set(schedules.flatMap { $0.mosque == nil ? [] : Array($0.congregationTimes.keys) })
        if schedules.contains(where: { $0.mosque != nil && !$0.jumuahTimes.isEmpty }) { prayers.insert(.dhuhr) }
        guard let iqama, !iqama.isEmpty else { return prayers }
        prayers.formUnion(iqama.rules.keys)
        if !iqama.jumuah.isEmpty { prayers.insert(.dhuhr) }
        return prayers
    }

    /// The Hijri date of `date`, if known.
    public func hijriDay(of date: CivilDate) -> HijriDay? {
        hijri.first { $0.gregorian == date }
    }

    /// The Friday prayers of `schedule`'s day: the mosque's own, else those of the iqama settings.
    public func jumuahTimes(in schedule: PrayerSchedule) -> [Date] {
        guard schedule.date.isoWeekday == 5 else { return [] }
        if schedule.mosque != nil, !schedule.jumuahTimes.isEmpty { return schedule.jumuahTimes }
        return (iqama ?? IqamaSettings()).jumuahTimes(in: schedule)
    }

    /// The iqama of `prayer` on `schedule`'s day — a mosque's own, the Jumu'ah times on a Friday, or
    /// the iqama rule's — and whether they are several Jumu'ah times, stacked in one cell.
    public func iqamaTimes(_ prayer: Prayer, in schedule: PrayerSchedule) -> (times: [Date], stacked: Bool) {
        let mosque = schedule.mosque != nil
        if mosque, prayer != .dhuhr || schedule.jumuahTimes.isEmpty, let given = schedule.congregationTimes[prayer] {
            return ([given], false)
        }
        if prayer == .dhuhr {
            let jumuah = jumuahTimes(in: schedule)
            if !jumuah.isEmpty { return (jumuah, jumuah.count > 1) }
        }
        let settings = iqama ?? IqamaSettings()
        guard let time = schedule[prayer], let instant = settings.iqama(of: time, in: schedule) else {
            return ([], false)
        }
        return ([instant], false)
    }

    /// `~`, `*`, `+1` or a pair such as `~+1`: the marks a table puts after `time` (``mark(_:)``, then
    /// ``dayMark(_:of:)``).
    public static func marks(_ time: PrayerTime, in schedule: PrayerSchedule) -> String {
        mark(time) + dayMark(time, of: schedule)
    }

    /// `~` when `time` was taken from another latitude or day (`~*` when it was also held back to the
    /// time before it), `*` when a rule or a season set it or it was held back, else empty.
    public static func mark(_ time: PrayerTime) -> String {
        if time.isPolarResolved { return time.isHeldBack ? "~*" : "~" }
        if time.isHeldBack { return "*" }
        switch time.derivation {
        case .highLatitudeRule, .seasonal: return "*"
        default: return ""
        }
    }

    /// `-1` or `+1` when `time` falls on the civil day before or after `schedule`'s in its zone (to the
    /// nearest second), else empty.
    public static func dayMark(_ time: PrayerTime, of schedule: PrayerSchedule) -> String {
        let instant = Int(time.date.timeIntervalSince1970.rounded())
        let local = instant + schedule.zone.offset(at: Date(timeIntervalSince1970: Double(instant)))
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let difference = day - schedule.date.daysSince1970
        return difference == 0 ? "" : difference > 0 ? "+\(difference)" : "\(difference)"
    }

    /// `2026-11-29T05:20:00+03:00`: the instant to the second, with the offset in effect then in `zone`
    /// (as `praykit times --format json` writes times; the offset has seconds only for historical local
    /// mean times).
    public static func iso8601(_ date: Date, in zone: TimeZone) -> String {
        TimeZoneName(zone).iso8601(date)
    }

    /// The civil day of `date` in `zone`, the instant rounded to the nearest second (as times are shown).
    public static func localDay(of date: Date, in zone: TimeZone) -> CivilDate {
        let instant = Int(date.timeIntervalSince1970.rounded())
        let local = instant + zone.offset(at: Date(timeIntervalSince1970: Double(instant)))
        return CivilDate(daysSince1970: local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }
}
