import Foundation
import PrayCore

/// A month's prayer times as mosques print them, as one self-contained HTML page: a row per day with
/// the Gregorian and Hijri dates, fajr, sunrise, dhuhr, asr, maghrib and isha (and the iqama of each
/// prayer that has one), Fridays marked as Jumu'ah, and a footer with the place, the zone, the
/// method and its published source. Inline CSS only, a print style with `@page` for A4 or Letter
/// that fits 31 days on one page; English left to right, or Arabic right to left.
///
/// A pure function of its values (``render()``): the command gathers them, tests build them.
/// Everything that comes from outside (a place's name) is escaped.
struct TimetableHTML {
    /// The language of the headings, names and footer.
    enum Language: String, CaseIterable, ArgumentValue {
        case en
        case ar
    }

    /// Where the times are for, as the footer names it.
    struct Place {
        /// The city or saved place's name, if any.
        var name: String?
        let coordinates: Coordinates
        /// The zone's name (`Asia/Riyadh`, `UTC+03:00`).
        let zone: String
        /// Where the zone came from.
        let zoneSource: LocationAPI.TimeZoneSource
    }

    /// The Gregorian month.
    let year: Int
    let month: Int
    /// The days of the month, in order.
    let schedules: [PrayerSchedule]
    /// The Hijri date of each day (a day without one shows none).
    let hijri: [HijriDay]
    let place: Place
    let parameters: CalculationParameters
    /// Why this method.
    let methodSource: MethodChoice.Source
    /// The iqama and Jumu'ah times, shown in columns of their own when set.
    let iqama: IqamaSettings?
    let language: Language
    let paper: PDFAPI.Paper
    /// `5:20 am` rather than `05:20`.
    var clock12Hour = false

    /// The times in the table, in the order of the day.
    static let prayers: [Prayer] = [.fajr, .sunrise, .dhuhr, .asr, .maghrib, .isha]

    /// The page.
    func render() -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)" dir="\(language == .ar ? "rtl" : "ltr")">
            <head>
            <meta charset="utf-8">
            <meta name="generator" content="PrayKit \(PrayKitInfo.version)">
            <title>\(Self.escape(title + (place.name.map { " — \($0)" } ?? "")))</title>
            <style>
            \(style)
            </style>
            </head>
            <body>
            <header>
            <h1>\(Self.escape(title))</h1>
            <p class="sub">\(subtitle)</p>
            </header>

            """
        page += table()
        page += footer()
        page += "</body>\n</html>\n"
        return page
    }

    // MARK: - Words

    private var words: Words { Words(language) }

    private var title: String { "\(words.prayerTimes) · \(words.months[month - 1]) \(year)" }

    /// The place's name, then the Hijri months the Gregorian one spans.
    private var subtitle: String {
        var parts: [String] = []
        if let name = place.name { parts.append("<bdi class=\"place\">\(Self.escape(name))</bdi>") }
        var spans: [(month: String, year: Int)] = []
        for day in hijri {
            let name = language == .ar ? day.hijri.monthNameArabic : day.hijri.monthName
            if spans.last?.month != name { spans.append((name, day.hijri.year)) }
        }
        if let first = spans.first, let last = spans.last {
            let text =
                first.year == last.year
                ? spans.map(\.month).joined(separator: " – ") + " \(last.year) \(words.hijriEra)"
                : spans.map { "\($0.month) \($0.year)" }.joined(separator: " – ") + " \(words.hijriEra)"
            parts.append("<bdi>\(Self.escape(text))</bdi>")
        }
        return parts.joined(separator: " · ")
    }

    // MARK: - Table

    /// The prayers that get an iqama column: those with a rule, and dhuhr when Jumu'ah times are set.
    private var iqamaPrayers: Set<Prayer> {
        // A mosque's own iqama and Jumu'ah times (PrayerServiceMosque) get columns too.
        var prayers = Set(schedules.flatMap { $0.mosque == nil ? [] : Array($0.congregationTimes.keys) })
        if schedules.contains(where: { $0.mosque != nil && !$0.jumuahTimes.isEmpty }) { prayers.insert(.dhuhr) }
        guard let iqama, !iqama.isEmpty else { return prayers }
        prayers.formUnion(iqama.rules.keys)
        if !iqama.jumuah.isEmpty { prayers.insert(.dhuhr) }
        return prayers
    }

    private func table() -> String {
        let iqamaPrayers = iqamaPrayers
        let twoRows = !iqamaPrayers.isEmpty
        var html =
            "<table class=\"\(twoRows ? "with-iqama" : "plain")\">\n<colgroup><col class=\"c-date\"><col class=\"c-day\"><col class=\"c-hijri\">"
        for prayer in Self.prayers {
            html += "<col class=\"c-time\">" + (iqamaPrayers.contains(prayer) ? "<col class=\"c-iqama\">" : "")
        }
        html += "</colgroup>\n<thead>\n<tr>"
        let span = twoRows ? " rowspan=\"2\"" : ""
        // One heading over the day of the month and the weekday, as printed timetables have it.
        html += "<th\(span) colspan=\"2\" class=\"date\">\(words.date)</th>"
        html += "<th\(span) class=\"hijri\">\(words.hijri)</th>"
        for prayer in Self.prayers {
            let name = words.prayer(prayer)
            if iqamaPrayers.contains(prayer) {
                html += "<th colspan=\"2\" data-prayer=\"\(prayer.rawValue)\">\(name)</th>"
            } else {
                html += "<th\(span) data-prayer=\"\(prayer.rawValue)\">\(name)</th>"
            }
        }
        html += "</tr>\n"
        if twoRows {
            html += "<tr class=\"sub\">"
            for prayer in Self.prayers where iqamaPrayers.contains(prayer) {
                html += "<th class=\"adhan\">\(words.adhan)</th><th class=\"iqama\">\(words.iqama)</th>"
            }
            html += "</tr>\n"
        }
        html += "</thead>\n<tbody>\n"
        for (index, schedule) in schedules.enumerated() {
            html += row(schedule, first: index == 0, iqamaPrayers: iqamaPrayers)
        }
        return html + "</tbody>\n</table>\n"
    }

    private func row(_ schedule: PrayerSchedule, first: Bool, iqamaPrayers: Set<Prayer>) -> String {
        let date = schedule.date
        let isFriday = date.isoWeekday == 5
        let day = hijri.first { $0.gregorian == date }
        var attributes = "data-date=\"\(date)\""
        if let day { attributes += " data-hijri=\"\(day.hijri)\"" }
        if isFriday { attributes += " data-jumuah=\"true\" class=\"friday\"" }
        var html = "<tr \(attributes)>"
        html += "<td class=\"date\">\(date.day)</td>"
        html += "<td class=\"day\">\(isFriday ? words.jumuah : words.weekdays[date.isoWeekday - 1])</td>"
        html += "<td class=\"hijri\">\(hijriCell(day, first: first))</td>"
        for prayer in Self.prayers {
            let time = schedule[prayer]
            html += "<td class=\"time\">\(time.map { timeText($0, in: schedule) } ?? "–")</td>"
            guard iqamaPrayers.contains(prayer) else { continue }
            html += "<td class=\"iqama\">\(iqamaText(prayer, time: time, in: schedule))</td>"
        }
        return html + "</tr>\n"
    }

    /// `22 Ramadan` on the first row and the first of a month, else the day alone.
    private func hijriCell(_ day: HijriDay?, first: Bool) -> String {
        guard let day else { return "–" }
        let notable = day.notableDays.map { language == .ar ? $0.arabicName : $0.name }
        let mark =
            notable.isEmpty
            ? "" : "<span class=\"notable\" title=\"\(Self.escape(notable.joined(separator: ", ")))\">•</span>"
        guard first || day.hijri.day == 1 else { return "\(day.hijri.day)\(mark)" }
        let name = language == .ar ? day.hijri.monthNameArabic : day.hijri.monthName
        return "<b>\(day.hijri.day) \(Self.escape(name))</b>\(mark)"
    }

    private func timeText(_ time: PrayerTime, in schedule: PrayerSchedule) -> String {
        let text = clockText(time.date, in: schedule, withSeconds: parameters.rounding == .none)
        return text + (TimesOutput.note(time) == nil ? "" : "<sup>*</sup>")
    }

    /// `05:12`, or `5:12` on a 12-hour clock: without am and pm, as printed timetables have it (each
    /// column's time of day is plain).
    private func clockText(_ date: Date, in schedule: PrayerSchedule, withSeconds: Bool = false) -> String {
        let text = LocalClock(timeZone: schedule.timeZone).time(date, withSeconds: withSeconds, twelveHour: clock12Hour)
        return clock12Hour ? String(text.dropLast(3)) : text
    }

    private func iqamaText(_ prayer: Prayer, time: PrayerTime?, in schedule: PrayerSchedule) -> String {
        let mosque = schedule.mosque != nil
        if mosque, prayer != .dhuhr || schedule.jumuahTimes.isEmpty, let given = schedule.congregationTimes[prayer] {
            return clockText(given, in: schedule)
        }
        let settings = iqama ?? IqamaSettings()
        if prayer == .dhuhr {
            let jumuah =
                mosque && !schedule.jumuahTimes.isEmpty ? schedule.jumuahTimes : settings.jumuahTimes(in: schedule)
            // Two or three Friday prayers, one above the other, so that the column keeps its width.
            if jumuah.count > 1 {
                return "<span class=\"jumuah-times\">"
                    + jumuah.map { clockText($0, in: schedule) }.joined(separator: "<br>") + "</span>"
            }
            if let only = jumuah.first { return clockText(only, in: schedule) }
        }
        guard let time, let instant = settings.iqama(of: time, in: schedule) else { return "" }
        return clockText(instant, in: schedule)
    }

    // MARK: - Footer

    private func footer() -> String {
        var lines: [String] = []
        let coordinates = place.coordinates
        lines.append(
            line(
                words.place,
                (place.name.map { [$0] } ?? []) + [
                    "\(coordinates.latitude.formattedCompactly), \(coordinates.longitude.formattedCompactly)",
                    words.elevation(coordinates.elevation.formattedCompactly),
                ]))
        let offset = schedules.first.flatMap { $0[.dhuhr] }.map {
            " (UTC\(LocalClock.offset(schedules[0].timeZone.secondsFromGMT(for: $0.date))))"
        }
        lines.append(line(words.zone, [place.zone + (offset ?? ""), words.zoneSource(place.zoneSource)]))
        let method = parameters.method
        lines.append(
            line(
                words.method,
                [
                    method == .custom ? "custom" : "\(method.displayName) (\(method.rawValue))",
                    words.methodSource(methodSource), settings,
                ]))
        if method != .custom { lines.append(line(words.source, [method.source])) }
        // The days whose times came from a mosque's own timetable (PrayerServiceMosque).
        let fromMosque = schedules.filter { $0.mosque != nil }
        if let mosque = fromMosque.first?.mosque {
            lines.append(line(words.mosque, [mosque, "\(fromMosque.count) \(words.mosqueDays)"]))
        }
        if let calendar = hijri.first?.calendar {
            let offset = hijri.first?.offset ?? 0
            var parts = [calendar == .ummAlQura ? "Umm al-Qura" : words.tabular]
            if offset != 0 { parts.append("\(words.offset) \(offset > 0 ? "+" : "")\(offset)") }
            lines.append(line(words.hijriCalendar, parts))
        }
        if let iqama, !iqama.isEmpty {
            var parts = iqama.rules.isEmpty ? [] : [iqama.description]
            if !iqama.jumuah.isEmpty {
                let times = iqama.jumuah.map { "\(($0 / 60).zeroPadded(2)):\(($0 % 60).zeroPadded(2))" }
                parts.append("\(words.jumuah) " + times.joined(separator: ", "))
            }
            lines.append(line(words.iqama, parts))
        }
        if schedules.contains(where: { day in Self.prayers.contains { TimesOutput.note(day[$0]) != nil } }) {
            lines.append("<p>\(Self.escape(words.ruleNote))</p>")
        }
        let notable = hijri.filter { !$0.notableDays.isEmpty }.map { day in
            "\(day.gregorian.day) \(words.months[day.gregorian.month - 1]): "
                + day.notableDays.map { language == .ar ? $0.arabicName : $0.name }.joined(separator: ", ")
        }
        if !notable.isEmpty {
            lines.append(
                "<p>• " + notable.map { "<bdi>\(Self.escape($0))</bdi>" }.joined(separator: words.separator) + "</p>")
        }
        lines.append("<p class=\"credit\">\(words.calculatedBy) <bdi>PrayKit \(PrayKitInfo.version)</bdi></p>")
        return "<footer>\n" + lines.joined(separator: "\n") + "\n</footer>\n"
    }

    /// `Label: part; part`, each part isolated (`<bdi>`) so that English and Arabic parts keep their
    /// own direction and the parts follow the page's.
    private func line(_ label: String, _ parts: [String]) -> String {
        "<p><span class=\"label\">\(Self.escape(label)):</span> "
            + parts.map { "<bdi>\(Self.escape($0))</bdi>" }.joined(separator: words.separator) + "</p>"
    }

    /// `fajr 18.5°, isha 90 min after maghrib, Asr shafi`, in English (the method's own words).
    private var settings: String {
        var parts: [String] = []
        if let angle = parameters.fajrAngle { parts.append("fajr \(angle.formattedCompactly)°") }
        if let minutes = parameters.ishaInterval {
            parts.append(
                "isha \(minutes) min after maghrib"
                    + (parameters.ramadanIshaInterval.map { " (\($0) in Ramadan)" } ?? ""))
        } else if let angle = parameters.ishaAngle {
            parts.append("isha \(angle.formattedCompactly)°")
        }
        if let minutes = parameters.maghribInterval { parts.append("maghrib \(minutes) min after sunset") }
        parts.append("Asr \(parameters.madhab?.rawValue ?? "factor \(parameters.asrShadowFactor.formattedCompactly)")")
        let adjustments = parameters.totalAdjustments
        if !adjustments.isEmpty { parts.append("adjustments \(adjustments)") }
        return parts.joined(separator: ", ")
    }

    // MARK: - Escaping

    /// `text` safe in HTML text and in a quoted attribute: `&`, `<`, `>`, `"` and `'` as entities, and
    /// control characters (bidirectional overrides included) replaced by U+FFFD.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.replacingControlCharacters {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
