import Foundation
import PrayCore

/// The JSON model of a screen (`/display.json`): the place, the phases, the zone's offsets over the
/// days, and each day's times as `praykit times --format json` writes them (ISO 8601 with the
/// offset in effect at each instant), with the day's iqama and Jumu'ah.
///
/// ```json
/// {"version": 1, "name": "London", "location": {…}, "method": "moonsighting-committee",
///  "phases": {"beforeAdhan": 10, …}, "validFrom": ISO, "validUntil": ISO,
///  "offsets": [{"from": ISO, "seconds": 3600}, …],
///  "days": [{"date": "2027-10-31", "weekday": 7, "hijri": {…}, "ramadan": false,
///            "imsak": ISO, "fajr": ISO, "sunrise": ISO, "dhuhr": ISO, "asr": ISO, "sunset": ISO,
///            "maghrib": ISO, "isha": ISO, "iqama": {"fajr": ISO, …}, "fixedIqama": ["dhuhr"],
///            "jumuah": [ISO], "source": "calculated", "calculated": true}]}
/// ```
struct DisplayModel {
    /// The model's version: a page built for another refuses it rather than misread it.
    static let version = 1

    /// The times of a day, in the order they happen.
    static let prayers: [Prayer] = [.imsak, .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha]

    let screen: DisplayAPI.Screen
    let schedules: [PrayerSchedule]
    let hijri: [HijriDay]
    let iqama: IqamaSettings?

    private var zone: TimeZone { screen.prepared.request.timeZone }

    /// The model as compact JSON.
    var json: JSONValue {
        let request = screen.prepared.request
        let location = screen.prepared.location
        var clock = ZoneClock(timeZone: zone)
        let first = schedules.first.flatMap { clock.instant(of: $0.date, hour: 0) }.map(
            Date.init(timeIntervalSince1970:))
        let end = schedules.last.flatMap { clock.instant(of: $0.date.adding(days: 1), hour: 0) }.map(
            Date.init(timeIntervalSince1970:))
        return .object([
            ("version", .int(Self.version)),
            ("name", screen.name.map { .string($0) } ?? .null),
            (
                "location",
                .object([
                    ("latitude", .number(request.coordinates.latitude)),
                    ("longitude", .number(request.coordinates.longitude)),
                    ("elevation", .number(request.coordinates.elevation)),
                    ("timeZone", .string(location.zone.identifier)),
                ])
            ),
            ("method", .string(request.parameters.method.rawValue)),
            ("methodSource", .string(screen.prepared.settings.method.source.description)),
            ("phases", .object(screen.phases.named.map { ($0.name, .int($0.minutes)) })),
            ("validFrom", first.map { .string(iso8601($0)) } ?? .null),
            ("validUntil", end.map { .string(iso8601($0)) } ?? .null),
            ("offsets", .array(offsets(from: first, until: end))),
            ("days", .array(schedules.map(day))),
        ])
    }

    /// The zone's offset from `start`, then at each change until `end`: what the page needs to show
    /// the local clock on any instant of the window, a DST night included.
    private func offsets(from start: Date?, until end: Date?) -> [JSONValue] {
        guard let start, let end else { return [] }
        func period(_ instant: Date) -> JSONValue {
            .object([("from", .string(iso8601(instant))), ("seconds", .int(zone.secondsFromGMT(for: instant)))])
        }
        var periods = [period(start)]
        var instant = start
        while let next = zone.nextDaylightSavingTimeTransition(after: instant), next < end {
            periods.append(period(next))
            instant = next
        }
        return periods
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
        members.append(("source", .string(schedule.mosque.map { "mosque:" + $0 } ?? "calculated")))
        // Whether every time of the day is calculated: a day the chosen mosque's timetable does not give
        // (its rules may still give the iqama), or no mosque at all.
        members.append(("calculated", .bool(!Self.prayers.contains { schedule[$0].map(MonthModel.isGiven) ?? false })))
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
    /// when announced (the mosque's own, or a fixed rule): the mosque's timetable first, then the
    /// saved rule — the rule of `praykit timetable` and of the reminders (`PrayerTimer.iqamaDate`).
    private func iqama(of prayer: Prayer, in schedule: PrayerSchedule) -> (Date, Bool)? {
        if schedule.mosque != nil, let given = schedule.congregationTimes[prayer] { return (given, true) }
        guard let iqama, let time = schedule[prayer], let instant = iqama.iqama(of: time, in: schedule) else {
            return nil
        }
        if case .fixed = iqama.rules[prayer] { return (instant, true) }
        return (instant, false)
    }

    /// The Friday prayers of `schedule`'s day: the mosque's own, else the saved ones.
    private func jumuah(in schedule: PrayerSchedule) -> [Date] {
        guard schedule.date.isoWeekday == 5 else { return [] }
        if schedule.mosque != nil, !schedule.jumuahTimes.isEmpty { return schedule.jumuahTimes }
        return iqama?.jumuahTimes(in: schedule) ?? []
    }

    /// `2026-11-29T05:20:00+03:00`, to the second, with the offset in effect at that instant (as
    /// `praykit times --format json`).
    func iso8601(_ date: Date) -> String {
        let instant = Int(date.timeIntervalSince1970.rounded())
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
        let local = instant + offset
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let seconds = local - days * 86400
        let magnitude = abs(offset)
        var text = "\(CivilDate(daysSince1970: days))T\((seconds / 3600).zeroPadded(2)):"
        text += "\((seconds / 60 % 60).zeroPadded(2)):\((seconds % 60).zeroPadded(2))"
        text += "\(offset < 0 ? "-" : "+")\((magnitude / 3600).zeroPadded(2)):\((magnitude / 60 % 60).zeroPadded(2))"
        if magnitude % 60 != 0 { text += ":\((magnitude % 60).zeroPadded(2))" }
        return text
    }
}
