import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A calendar feed (RFC 5545) of a rolling window of days, written by PrayKit's one iCalendar writer
/// (``ICalendar``): `/m/<slug>.ics` for a published mosque, `/calendar.ics?latitude=…` for a place.
///
/// Each day has an event per prayer, from its adhan to its iqama (15 minutes without one); a Friday with
/// Jumu'ah times has an event per Jumu'ah (30 minutes) in place of dhuhr's; an Eid day of the mosque's
/// settings has an event per Eid prayer. The same event always has the same UID — the day, the kind
/// (`fajr`, `jumuah-2`, `eid-1`) and the feed's key — so a calendar that fetches the feed again updates
/// its events rather than adding copies; its `SEQUENCE` and `LAST-MODIFIED` come from ``Change`` (for a
/// mosque, the version and stamp of the last row that touched the day, which only grow), so the
/// calendar takes a changed iqama. Nothing in it depends on the moment it is written: the same rows and
/// the same day give the same bytes, and so the same `ETag`.
struct PrayerFeed {
    /// What last changed a day: its version (`SEQUENCE`) and when (`LAST-MODIFIED`, and `DTSTAMP`).
    struct Change {
        let sequence: Int
        let modified: Date?
    }

    /// The calendar's name.
    let name: String
    /// The place's coordinates and its name, if any.
    let coordinates: Coordinates
    let location: String?
    /// The days.
    let month: TimetableMonth
    /// The place's zone.
    let zone: TimeZone
    /// What makes the feed's UIDs its own: a hash of the space, or of the place and its parameters.
    let key: String
    /// A mosque's Eid prayers.
    var eid: [SyncMosqueSettingsValue.Eid] = []
    /// What last changed each day; `nil` for a calculated place (sequence 0, no LAST-MODIFIED).
    var change: ((CivilDate) -> Change)?
    /// `DTSTAMP` of an event whose day has no change: the start of the window.
    let windowStart: Date

    /// How many days a feed holds from today.
    static let days = 60
    /// Minutes of an event without an iqama.
    static let defaultMinutes = 15
    /// Minutes of a Jumu'ah or an Eid prayer.
    static let congregationMinutes = 30
    /// How often a subscriber should fetch the feed again.
    static let refresh = "PT3H"

    /// The whole feed.
    var text: String {
        var lines = ICalendar.header(name: name, zone: zone.identifier, refresh: Self.refresh, feed: true)
        for schedule in month.schedules {
            for event in events(of: schedule) { lines += ICalendar.lines(of: event) }
        }
        lines.append("END:VCALENDAR")
        return lines.map(ICalendar.fold).joined()
    }

    /// The events of one day, in the order of the day.
    func events(of schedule: PrayerSchedule) -> [ICalendar.Event] {
        let date = schedule.date
        let changed = change?(date)
        // Where the times come from: a mosque's timetable, or the calculation (a day its timetable does
        // not give, and a place): said in each event, as the month page marks it.
        let given = TimetableMonth.prayers.contains { schedule[$0].map(MonthModel.isGiven) ?? false }
        let source = given ? schedule.mosque.map { "From \($0)'s timetable." } ?? "" : "Calculated."
        func event(_ kind: String, _ summary: String, _ start: Date, _ end: Date, _ text: String) -> ICalendar.Event {
            ICalendar.Event(
                uid:
                    "\(date.year.zeroPadded(4))\(date.month.zeroPadded(2))\(date.day.zeroPadded(2))-\(kind)-\(key)@praykit",
                stamp: changed?.modified ?? windowStart, start: start, end: max(end, start.addingTimeInterval(60)),
                summary: summary, description: text + " (\(zone.identifier))." + (source.isEmpty ? "" : " " + source),
                location: location,
                coordinates: coordinates, sequence: changed?.sequence ?? 0, lastModified: changed?.modified)
        }
        var events: [ICalendar.Event] = []
        let jumuah = month.jumuahTimes(in: schedule)
        for prayer in Prayer.obligatory {
            if prayer == .dhuhr, !jumuah.isEmpty {
                for (index, time) in jumuah.enumerated() {
                    let summary = jumuah.count == 1 ? "Jumu'ah" : "Jumu'ah \(index + 1)"
                    events.append(
                        event(
                            "jumuah-\(index + 1)", summary, time,
                            time.addingTimeInterval(Double(Self.congregationMinutes * 60)),
                            "\(summary) at \(clock(time))"))
                }
                continue
            }
            guard let time = schedule[prayer] else { continue }
            let iqama = month.iqamaTimes(prayer, in: schedule).times.first
            var text = "\(prayer.name): adhan \(clock(time.date))"
            if let iqama { text += ", iqama \(clock(iqama))" }
            events.append(
                event(
                    prayer.rawValue, prayer.name, time.date,
                    iqama ?? time.date.addingTimeInterval(Double(Self.defaultMinutes * 60)), text))
        }
        for eid in eid where eid.date == date {
            let name = eid.hijri.hasSuffix("-10-01") ? "Eid al-Fitr prayer" : "Eid al-Adha prayer"
            for (index, minutes) in eid.prayers.enumerated() {
                guard let time = IqamaSettings.instant(minutes, on: date, in: zone) else { continue }
                let summary = eid.prayers.count == 1 ? name : "\(name) \(index + 1)"
                events.append(
                    event(
                        "eid-\(index + 1)", summary, time,
                        time.addingTimeInterval(Double(Self.congregationMinutes * 60)),
                        "\(summary) at \(clock(time))"))
            }
        }
        return events.sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
    }

    /// `05:12` in the place's zone.
    private func clock(_ date: Date) -> String {
        let text = TimetableMonth.iso8601(date, in: zone)
        return String(text.dropFirst(11).prefix(5))
    }

    /// The key of a feed's UIDs: 16 hexadecimal digits of the SHA-256 of `text` (a space's ID, or a
    /// place's parameters), so that no ID is shown and two feeds never share a UID.
    static func key(_ text: String) -> String {
        SHA256.hex(Array(SHA256.hash(Array(text.utf8)).prefix(8)))
    }

    /// A `200` with the feed, or `304` when `If-None-Match` names its tag; `text/calendar`, revalidated
    /// at each fetch (`no-cache`), with the pages' security fields.
    static func response(_ text: String, filename: String, request: ServerAPI.Request) -> ServerAPI.Response {
        let body = Data(text.utf8)
        var response = PageRoutes.tagged(body, type: "text/calendar; charset=utf-8", request: request)
        if response.status == 200 { response.headers["Content-Disposition"] = "inline; filename=\"\(filename)\"" }
        return response
    }
}
