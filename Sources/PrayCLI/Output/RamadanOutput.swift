import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Renders `praykit times --ramadan`: the month of Ramadan day by day, with the Hijri day, suhoor's
/// end (imsak), fajr, iftar (maghrib), isha (tarawih) and the length of the fast, as a table, JSON or
/// CSV.
struct RamadanOutput {
    let request: PrayerAPI.Request
    let schedules: [PrayerSchedule]
    /// The Hijri days of the month, in the order of ``schedules``.
    let days: [HijriDay]
    let place: PlaceOptions.Place
    let method: MethodChoice
    var clock12Hour = false

    private var clock: LocalClock { LocalClock(zone: request.zone) }
    private var withSeconds: Bool { request.parameters.rounding == .none }
    private var year: Int { days.first?.hijri.year ?? 0 }

    /// One row: a day of the fast.
    private struct Row {
        let day: HijriDay
        let schedule: PrayerSchedule
        /// When suhoor ends: imsak, or fajr without one.
        var suhoorEnds: Date? { (schedule[.imsak] ?? schedule[.fajr])?.date }
        var fajr: Date? { schedule[.fajr]?.date }
        var iftar: Date? { schedule[.maghrib]?.date }
        var isha: Date? { schedule[.isha]?.date }
        /// Seconds from fajr to maghrib.
        var fast: TimeInterval? {
            guard let fajr, let iftar, iftar > fajr else { return nil }
            return iftar.timeIntervalSince(fajr)
        }
    }

    private var rows: [Row] { zip(days, schedules).map { Row(day: $0, schedule: $1) } }

    /// `13:58` for a fast's length.
    private static func length(_ seconds: TimeInterval?) -> String? {
        guard let seconds else { return nil }
        let minutes = Int((seconds / 60).rounded())
        return "\(minutes / 60):\((minutes % 60).zeroPadded(2))"
    }

    /// Writes `{"location", "parameters", "ramadan": {year, calendar, offset, days}, "days": […]}`.
    func writeJSON(to output: OutputSink) throws(CLIError) {
        let head: [(String, JSON)] = [
            ("location", TimesOutput.location(request, place: place)),
            ("parameters", TimesOutput.parameters(request.parameters, methodSource: method.source.description)),
            (
                "ramadan",
                .object([
                    ("year", .int(year)), ("calendar", .string(request.hijriCalendar.rawValue)),
                    ("offset", .int(request.hijriOffset)), ("days", .int(days.count)),
                ])
            ),
        ]
        let items = rows.lazy.map { row in
            JSON.object([
                ("day", .int(row.day.hijri.day)),
                ("date", .string(row.day.gregorian.description)),
                ("weekday", .string(row.day.weekday)),
                ("suhoorEnds", .string(row.suhoorEnds.map(clock.iso8601))),
                ("fajr", .string(row.fajr.map(clock.iso8601))),
                ("iftar", .string(row.iftar.map(clock.iso8601))),
                ("isha", .string(row.isha.map(clock.iso8601))),
                ("fastSeconds", row.fast.map { .int(Int($0.rounded())) } ?? .null),
            ])
        }
        try JSON.writeObject(head, streaming: "days", items: items, to: output)
    }

    /// Writes a header row, then a row per day.
    func writeCSV(to output: OutputSink) throws(CLIError) {
        try output.write(
            CSV.row(["day", "date", "weekday", "suhoorEnds", "fajr", "iftar", "isha", "fastSeconds"]))
        for row in rows {
            try output.write(
                CSV.row(
                    ["\(row.day.hijri.day)", row.day.gregorian.description, row.day.weekday]
                        + [row.suhoorEnds, row.fajr, row.iftar, row.isha].map { $0.map(clock.iso8601) ?? "" }
                        + [row.fast.map { "\(Int($0.rounded()))" } ?? ""]))
        }
    }

    /// Writes the place and method lines, then the month's table.
    func writeTable(to output: OutputSink) throws(CLIError) {
        func time(_ date: Date?) -> String {
            date.map { clock.time($0, withSeconds: withSeconds, twelveHour: clock12Hour) } ?? "--"
        }
        let calendar =
            request.hijriCalendar.rawValue + (request.hijriOffset == 0 ? "" : ", offset \(request.hijriOffset)")
        var lines = ["Ramadan \(year) (\(calendar))"]
        let coordinates = request.coordinates
        let position = "\(coordinates.latitude.formattedCompactly), \(coordinates.longitude.formattedCompactly)"
        lines.append("Place: " + (place.name.map { "\(place.nameWithNote ?? $0) — \(position)" } ?? position))
        lines.append("Time zone: \(place.zone.identifier)")
        lines.append("Method: \(request.parameters.method.displayName) (\(request.parameters.method.rawValue))")
        try output.write(lines.joined(separator: "\n") + "\n\n")
        var table = [["Day", "Date", "Weekday", "Suhoor ends", "Fajr", "Iftar", "Isha", "Fast"]]
        for row in rows {
            table.append([
                "\(row.day.hijri.day)", row.day.gregorian.description, String(row.day.weekday.prefix(3)),
                time(row.suhoorEnds), time(row.fajr), time(row.iftar), time(row.isha), Self.length(row.fast) ?? "--",
            ])
        }
        try output.write(Table.render(table))
        let suhoor =
            switch request.parameters.imsak {
            case .minutesBeforeFajr(let minutes): "imsak, \(minutes) min before fajr"
            case .angle(let angle): "imsak, the sun \(angle.formattedCompactly)° below the horizon"
            }
        try output.write(
            "\nSuhoor ends at \(suhoor) (--imsak-minutes or --imsak-angle); iftar is maghrib; "
                + "the fast is counted from fajr.\n")
    }
}
