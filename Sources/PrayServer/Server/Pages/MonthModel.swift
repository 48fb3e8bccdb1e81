import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON model of the month page (`/month.json`, `/m/<slug>/month.json`): a Gregorian month as
/// `praykit timetable` prints it — the same ``TimetableMonth`` — for the page to lay out in a browser,
/// to read on a phone or to print on one sheet.
///
/// ```json
/// {"version": 1, "name": "East London Mosque", "year": 2027, "month": 7,
///  "location": {"latitude": 51.5177, "longitude": -0.0653, "elevation": 0, "timeZone": "Europe/London"},
///  "method": "moonsighting-committee", "methodName": "…", "methodSource": "country:GB",
///  "highLatitudeRule": "recommended", "highLatitudeRuleInEffect": "seasons", "polarResolution": "unresolved",
///  "seconds": false,
///  "hijriCalendar": "umm-al-qura", "hijriOffset": 0, "mosque": "East London Mosque", "timetable": true,
///  "prayers": ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"], "iqamaPrayers": ["dhuhr"],
///  "days": [{"date": "2027-07-02", "weekday": 5, "hijri": {…}, "notable": [], "source": "mosque:…",
///            "times": {"fajr": {"time": ISO, "marks": "", "given": true}, …},
///            "calculated": false, "iqama": {"dhuhr": [ISO, ISO, ISO]}}],
///  "notices": [{"id": "janazah", "title": "…", "text": "…", "start": ISO, "end": ISO, "priority": "urgent"}]}
/// ```
///
/// `marks` are the printed timetable's (`~` taken from another latitude or day, `*` set by a rule, `+1`
/// after midnight); `given` says the time came from a mosque's timetable; `calculated` says none of the
/// day's did; `timetable` says the chosen mosque keeps a timetable for this place (one with iqama rules
/// alone does not), so that a calculated day is a gap in it, which the page marks (its iqama may still
/// be the mosque's rules') — as the screen marks its rows only against a timetable; `source` names the
/// mosque whose timetable or rules the day has. `notices` are the chosen mosque's notices not yet
/// over, as text.
struct MonthModel {
    /// The model's version: a page built for another refuses it rather than misread it.
    static let version = 1

    let screen: DisplayAPI.Screen
    let request: PrayerAPI.Request
    let month: TimetableMonth
    let year: Int
    let monthNumber: Int
    /// The mosque the days come from, if one is chosen.
    let mosque: String?
    /// Whether that mosque keeps a timetable for this place: only then is a calculated day a gap in it,
    /// which the page marks.
    var timetable = false
    /// The mosque's notices not yet over, most urgent first.
    var notices: [MosqueNotice] = []

    private var zone: TimeZone { request.timeZone }

    var json: JSONValue {
        let parameters = request.parameters
        let location = screen.prepared.location
        let iqamaPrayers = month.iqamaPrayers
        return .object([
            ("version", .int(Self.version)),
            ("name", screen.name.map { .string($0) } ?? .null),
            ("year", .int(year)),
            ("month", .int(monthNumber)),
            (
                "location",
                .object([
                    ("latitude", .number(request.coordinates.latitude)),
                    ("longitude", .number(request.coordinates.longitude)),
                    ("elevation", .number(request.coordinates.elevation)),
                    ("timeZone", .string(location.zone.identifier)),
                ])
            ),
            ("method", .string(parameters.method.rawValue)),
            ("methodName", .string(parameters.method.displayName)),
            ("methodSource", .string(screen.prepared.settings.method.source.description)),
            ("highLatitudeRule", .string(parameters.highLatitudeRule.rawValue)),
            // What the rule is at this place: `seasons` where the method's seasons set fajr and isha
            // (the Moonsighting Committee's), else the rule `recommended` resolves to at this latitude.
            (
                "highLatitudeRuleInEffect",
                .string(
                    parameters.seasonalTwilight != nil
                        ? "seasons"
                        : parameters.highLatitudeRule.resolved(latitude: request.coordinates.latitude).rawValue)
            ),
            ("polarResolution", .string(parameters.polarResolution.rawValue)),
            ("seconds", .bool(parameters.rounding == .none)),
            ("hijriCalendar", .string(request.hijriCalendar.rawValue)),
            ("hijriOffset", .int(request.hijriOffset)),
            ("mosque", mosque.map { .string($0) } ?? .null),
            ("timetable", .bool(mosque != nil && timetable)),
            ("prayers", .array(TimetableMonth.prayers.map { .string($0.rawValue) })),
            ("iqamaPrayers", .array(TimetableMonth.prayers.filter(iqamaPrayers.contains).map { .string($0.rawValue) })),
            ("days", .array(month.schedules.map { day($0, iqamaPrayers: iqamaPrayers) })),
            ("notices", .array(notices.map(notice))),
        ])
    }

    /// A notice, its title and text as the mosque wrote them: the page sets them as text.
    private func notice(_ notice: MosqueNotice) -> JSONValue {
        .object([
            ("id", .string(notice.id)), ("title", .string(notice.notice.title)), ("text", .string(notice.notice.text)),
            ("start", .string(TimetableMonth.iso8601(notice.notice.start, in: zone))),
            ("end", .string(TimetableMonth.iso8601(notice.notice.end, in: zone))),
            ("priority", .string(notice.notice.priority.rawValue)),
        ])
    }

    /// The notices of `mosque` in `store` that are not over at `now`: urgent first, then high, then the
    /// others, each by start.
    static func notices(of mosque: String?, in store: any MosqueTimetableStore, now: Date) throws -> [MosqueNotice] {
        guard let mosque else { return [] }
        let rank: [SyncNoticeValue.Priority: Int] = [.urgent: 0, .high: 1, .normal: 2]
        return try store.notices(of: mosque).filter { $0.notice.end > now }.sorted {
            (rank[$0.notice.priority] ?? 2, $0.notice.start, $0.id) < (
                rank[$1.notice.priority] ?? 2, $1.notice.start, $1.id
            )
        }
    }

    private func day(_ schedule: PrayerSchedule, iqamaPrayers: Set<Prayer>) -> JSONValue {
        let hijriDay = month.hijriDay(of: schedule.date)
        var times: [(String, JSONValue)] = []
        var iqama: [(String, JSONValue)] = []
        for prayer in TimetableMonth.prayers {
            let time = schedule[prayer].map { time in
                JSONValue.object([
                    ("time", .string(TimetableMonth.iso8601(time.date, in: zone))),
                    ("marks", .string(TimetableMonth.marks(time, in: schedule))),
                    ("given", .bool(Self.isGiven(time))),
                ])
            }
            times.append((prayer.rawValue, time ?? .null))
            guard iqamaPrayers.contains(prayer) else { continue }
            let given = month.iqamaTimes(prayer, in: schedule).times
            iqama.append((prayer.rawValue, .array(given.map { .string(TimetableMonth.iso8601($0, in: zone)) })))
        }
        return .object([
            ("date", .string(schedule.date.description)),
            ("weekday", .int(schedule.date.isoWeekday)),
            ("hijri", hijriDay.map(Self.hijri) ?? .null),
            (
                "notable",
                .array(
                    (hijriDay?.notableDays ?? []).map {
                        .object([("name", .string($0.name)), ("nameArabic", .string($0.arabicName))])
                    })
            ),
            ("source", .string(schedule.mosque.map { "mosque:" + $0 } ?? "calculated")),
            ("calculated", .bool(!TimetableMonth.prayers.contains { schedule[$0].map(Self.isGiven) ?? false })),
            ("times", .object(times)),
            ("iqama", .object(iqama)),
        ])
    }

    /// Whether a mosque's timetable gave `time`.
    static func isGiven(_ time: PrayerTime) -> Bool {
        if case .published = time.derivation { return true }
        return false
    }

    /// `{"year", "month", "day", "monthName", "monthNameArabic"}`, as the screen's model has it.
    private static func hijri(_ day: HijriDay) -> JSONValue {
        .object([
            ("year", .int(day.hijri.year)), ("month", .int(day.hijri.monthNumber)), ("day", .int(day.hijri.day)),
            ("monthName", .string(day.hijri.monthName)), ("monthNameArabic", .string(day.hijri.monthNameArabic)),
        ])
    }

    /// The month of `?month=YYYY-MM`, or `nil` when it is not one (1 to 9999).
    static func month(parsing text: String) -> (year: Int, month: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }), let year = Int(parts[0]),
            let month = Int(parts[1]), (1...9999).contains(year), (1...12).contains(month)
        else { return nil }
        return (year, month)
    }
}
