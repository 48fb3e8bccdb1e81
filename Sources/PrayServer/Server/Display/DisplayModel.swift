import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON model of a screen (`/display.json`): the place, the phases, the zone's offsets over the
/// days, and each day's times as `praykit times --format json` writes them (ISO 8601 with the
/// offset in effect at each instant), with the day's iqama, Jumu'ah and Eid prayers, and the chosen
/// mosque's notices.
///
/// ```json
/// {"version": 1, "name": "London", "location": {…}, "method": "moonsighting-committee",
///  "phases": {"beforeAdhan": 10, …, "iqama": true}, "hijriAtMaghrib": false,
///  "validFrom": ISO, "validUntil": ISO, "offsets": [{"from": ISO, "seconds": 3600}, …],
///  "notices": [{"id", "title", "text", "start": ISO, "end": ISO, "priority": "urgent"}],
///  "days": [{"date": "2027-10-31", "weekday": 7, "hijri": {…}, "ramadan": false,
///            "imsak": ISO, "fajr": ISO, "sunrise": ISO, "dhuhr": ISO, "asr": ISO, "sunset": ISO,
///            "maghrib": ISO, "isha": ISO, "iqama": {"fajr": ISO, …}, "fixedIqama": ["dhuhr"],
///            "jumuah": [ISO], "eid": {"kind": "fitr", "prayers": [ISO]} | null,
///            "calculated": ["asr"], "source": "calculated"}]}
/// ```
///
/// Version 1 grows by fields only: a page reads a model without the newer ones (a model it kept
/// from an older server) as their defaults, and an older page ignores them.
struct DisplayModel {
    /// The model's version: a page built for another refuses it rather than misread it.
    static let version = 1

    /// The times of a day, in the order they happen.
    static let prayers: [Prayer] = [.imsak, .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha]
    /// The times of the screen's rows, whose adhan a mosque's timetable may give.
    static let rows: [Prayer] = [.fajr, .sunrise, .dhuhr, .asr, .maghrib, .isha]

    /// What the chosen mosque adds to the calculation.
    struct Mosque {
        /// Its name.
        var name: String
        /// Whether it keeps a timetable: then a time it does not give is marked as calculated.
        var hasTimetable: Bool
        /// Its timetable's days in the model's window, by date.
        var days: [CivilDate: MosqueDay]
        /// Its settings' iqama rules, where they apply to the place.
        var rules: IqamaSettings?
        /// Its Eid prayers, where its settings apply to the place.
        var eid: [SyncMosqueSettingsValue.Eid]
        /// Its notices.
        var notices: [MosqueNotice]
    }

    /// The name shown at the top.
    let name: String?
    /// The request the days were calculated for: its place, zone and method.
    let request: PrayerAPI.Request
    /// Where the method came from (`saved`, `country:GB`).
    let methodSource: String
    /// The phases and when the Hijri date turns.
    let settings: DisplayAPI.Settings
    let schedules: [PrayerSchedule]
    let hijri: [HijriDay]
    /// The saved iqama and Jumu'ah.
    let iqama: IqamaSettings?
    let mosque: Mosque?

    private var zone: TimeZone { request.timeZone }
    /// The zone by name: its offsets come from the system's tz database, as every other time's do.
    private var zoneName: TimeZoneName { request.zone }

    /// The model as compact JSON.
    var json: JSONValue {
        var clock = ZoneClock(timeZone: zone)
        let first = schedules.first.flatMap { clock.instant(of: $0.date, hour: 0) }.map(
            Date.init(timeIntervalSince1970:))
        let end = schedules.last.flatMap { clock.instant(of: $0.date.adding(days: 1), hour: 0) }.map(
            Date.init(timeIntervalSince1970:))
        let phases = settings.phases
        return .object([
            ("version", .int(Self.version)),
            ("name", name.map { .string($0) } ?? .null),
            (
                "location",
                .object([
                    ("latitude", .number(request.coordinates.latitude)),
                    ("longitude", .number(request.coordinates.longitude)),
                    ("elevation", .number(request.coordinates.elevation)),
                    ("timeZone", .string(zone.identifier)),
                ])
            ),
            ("method", .string(request.parameters.method.rawValue)),
            ("methodSource", .string(methodSource)),
            ("phases", .object(phases.named.map { ($0.name, .int($0.minutes)) } + [("iqama", .bool(phases.iqama))])),
            ("hijriAtMaghrib", .bool(settings.hijriAtMaghrib)),
            ("validFrom", first.map { .string(iso8601($0)) } ?? .null),
            ("validUntil", end.map { .string(iso8601($0)) } ?? .null),
            ("offsets", .array(offsets(from: first, until: end))),
            ("notices", .array(notices(from: first, until: end))),
            ("days", .array(schedules.map(day))),
        ])
    }

    /// The zone's offset from `start`, then at each change until `end`: what the page needs to show
    /// the local clock on any instant of the window, a DST night included.
    private func offsets(from start: Date?, until end: Date?) -> [JSONValue] {
        guard let start, let end else { return [] }
        func period(_ instant: Date) -> JSONValue {
            .object([("from", .string(iso8601(instant))), ("seconds", .int(zoneName.offset(at: instant)))])
        }
        var periods = [period(start)]
        var instant = start
        while let next = zoneName.nextOffsetChange(after: instant), next < end {
            periods.append(period(next))
            instant = next
        }
        return periods
    }

    /// The mosque's notices shown at some time of the window, most prominent first (urgent, high,
    /// normal), then by start: the page shows those of its own clock. Their text is plain text; the
    /// page sets it as text, never as markup.
    private func notices(from start: Date?, until end: Date?) -> [JSONValue] {
        guard let mosque, let start, let end else { return [] }
        let rank: [SyncNoticeValue.Priority: Int] = [.urgent: 0, .high: 1, .normal: 2]
        return mosque.notices.filter { $0.notice.end > start && $0.notice.start < end }
            .sorted {
                (rank[$0.notice.priority] ?? 2, $0.notice.start, $0.id) < (
                    rank[$1.notice.priority] ?? 2, $1.notice.start, $1.id
                )
            }
            .map { notice in
                .object([
                    ("id", .string(notice.id)), ("title", .string(notice.notice.title)),
                    ("text", .string(notice.notice.text)), ("start", .string(iso8601(notice.notice.start))),
                    ("end", .string(iso8601(notice.notice.end))),
                    ("priority", .string(notice.notice.priority.rawValue)),
                ])
            }
    }

    private func day(_ schedule: PrayerSchedule) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("date", .string(schedule.date.description)),
            ("weekday", .int(schedule.date.isoWeekday)),
        ]
        let hijriDay = hijri.first { $0.gregorian == schedule.date }
        members.append(("hijri", hijriDay.map(Self.hijri) ?? .null))
        members.append(("ramadan", .bool(hijriDay?.hijri.month == .ramadan)))
        for prayer in Self.prayers {
            members.append((prayer.rawValue, schedule[prayer].map { .string(iso8601($0.date)) } ?? .null))
        }
        var iqamaTimes: [(String, JSONValue)] = []
        var fixed: [JSONValue] = []
        for prayer in Prayer.obligatory {
            guard let (instant, isFixed) = iqama(of: prayer, in: schedule) else { continue }
            iqamaTimes.append((prayer.rawValue, .string(iso8601(instant))))
            if isFixed { fixed.append(.string(prayer.rawValue)) }
        }
        members.append(("iqama", .object(iqamaTimes)))
        members.append(("fixedIqama", .array(fixed)))
        members.append(("jumuah", .array(jumuah(in: schedule).map { .string(iso8601($0)) })))
        members.append(("eid", eid(on: schedule.date)))
        members.append(("calculated", .array(calculated(in: schedule).map { .string($0.rawValue) })))
        members.append(("source", .string(schedule.mosque.map { "mosque:" + $0 } ?? "calculated")))
        return .object(members)
    }

    /// `{"year", "month", "day", "monthName", "monthNameArabic"}`.
    private static func hijri(_ day: HijriDay) -> JSONValue {
        .object([
            ("year", .int(day.hijri.year)), ("month", .int(day.hijri.monthNumber)), ("day", .int(day.hijri.day)),
            ("monthName", .string(day.hijri.monthName)), ("monthNameArabic", .string(day.hijri.monthNameArabic)),
        ])
    }

    /// The iqama of `prayer` on `schedule`'s day, and whether it is a clock time that changes only
    /// when announced: the mosque's timetable first, then the mosque's rule, then the saved rule —
    /// the rule of `praykit timetable` and of the reminders (`PrayerTimer.iqamaDate`). A time from a
    /// timetable or a rule such as `13:30` is a clock time; one such as `+20` moves with the adhan.
    private func iqama(of prayer: Prayer, in schedule: PrayerSchedule) -> (Date, Bool)? {
        if schedule.mosque != nil, let given = schedule.congregationTimes[prayer] {
            let fromTimetable = mosque?.days[schedule.date]?.iqama[prayer] != nil
            return (given, fromTimetable || Self.isFixed(mosque?.rules?.rules[prayer]))
        }
        guard let iqama, let time = schedule[prayer], let instant = iqama.iqama(of: time, in: schedule) else {
            return nil
        }
        return (instant, Self.isFixed(iqama.rules[prayer]))
    }

    private static func isFixed(_ rule: IqamaSettings.Rule?) -> Bool {
        if case .fixed = rule { return true }
        return false
    }

    /// The Friday prayers of `schedule`'s day: the mosque's own, else the saved ones.
    private func jumuah(in schedule: PrayerSchedule) -> [Date] {
        guard schedule.date.isoWeekday == 5 else { return [] }
        if schedule.mosque != nil, !schedule.jumuahTimes.isEmpty { return schedule.jumuahTimes }
        return iqama?.jumuahTimes(in: schedule) ?? []
    }

    /// `{"kind": "fitr" | "adha", "prayers": [ISO]}` on a day the mosque holds Eid prayers, else `null`.
    private func eid(on date: CivilDate) -> JSONValue {
        guard let eid = mosque?.eid.first(where: { $0.date == date }) else { return .null }
        let kind = (try? HijriDate(parsing: eid.hijri))?.month == .shawwal ? "fitr" : "adha"
        let prayers = eid.prayers.compactMap { IqamaSettings.instant($0, on: date, in: zone) }
        return .object([("kind", .string(kind)), ("prayers", .array(prayers.map { .string(iso8601($0)) }))])
    }

    /// The rows of a day the chosen mosque's timetable does not give (a day missing, or a time left
    /// empty): calculated here, and marked so on the screen. None without a timetable.
    private func calculated(in schedule: PrayerSchedule) -> [Prayer] {
        guard mosque?.hasTimetable == true else { return [] }
        return Self.rows.filter { prayer in
            guard let time = schedule[prayer] else { return false }
            return time.derivation != .published
        }
    }

    /// `2026-11-29T05:20:00+03:00`, to the second, with the offset in effect at that instant (as
    /// `praykit times --format json`).
    func iso8601(_ date: Date) -> String {
        zoneName.iso8601(date)
    }
}
