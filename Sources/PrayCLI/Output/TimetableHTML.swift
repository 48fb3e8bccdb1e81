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
        guard let iqama, !iqama.isEmpty else { return [] }
        var prayers = Set(iqama.rules.keys)
        if !iqama.jumuah.isEmpty { prayers.insert(.dhuhr) }
        return prayers
    }

    private func table() -> String {
        let iqamaPrayers = iqamaPrayers
        let twoRows = !iqamaPrayers.isEmpty
        var html = "<table>\n<colgroup><col class=\"c-date\"><col class=\"c-day\"><col class=\"c-hijri\">"
        for prayer in Self.prayers {
            html += "<col class=\"c-time\">" + (iqamaPrayers.contains(prayer) ? "<col class=\"c-iqama\">" : "")
        }
        html += "</colgroup>\n<thead>\n<tr>"
        let span = twoRows ? " rowspan=\"2\"" : ""
        html += "<th\(span) class=\"date\">\(words.date)</th><th\(span) class=\"day\">\(words.day)</th>"
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
        let mark = notable.isEmpty ? "" : "<span class=\"notable\" title=\"\(Self.escape(notable.joined(separator: ", ")))\">•</span>"
        guard first || day.hijri.day == 1 else { return "\(day.hijri.day)\(mark)" }
        let name = language == .ar ? day.hijri.monthNameArabic : day.hijri.monthName
        return "<b>\(day.hijri.day) \(Self.escape(name))</b>\(mark)"
    }

    private func timeText(_ time: PrayerTime, in schedule: PrayerSchedule) -> String {
        let clock = LocalClock(timeZone: schedule.timeZone)
        let text = clock.time(time.date, withSeconds: parameters.rounding == .none, twelveHour: clock12Hour)
        return text + (TimesOutput.note(time) == nil ? "" : "<sup>*</sup>")
    }

    private func iqamaText(_ prayer: Prayer, time: PrayerTime?, in schedule: PrayerSchedule) -> String {
        guard let iqama else { return "" }
        let clock = LocalClock(timeZone: schedule.timeZone)
        if prayer == .dhuhr {
            let jumuah = iqama.jumuahTimes(in: schedule)
            if !jumuah.isEmpty {
                return jumuah.map { clock.time($0, withSeconds: false, twelveHour: clock12Hour) }.joined(
                    separator: " · ")
            }
        }
        guard let time, let instant = iqama.iqama(of: time, in: schedule) else { return "" }
        return clock.time(instant, withSeconds: false, twelveHour: clock12Hour)
    }

    // MARK: - Footer

    private func footer() -> String {
        var lines: [String] = []
        let coordinates = place.coordinates
        var placeText =
            "\(coordinates.latitude.formattedCompactly), \(coordinates.longitude.formattedCompactly), "
            + "\(words.elevation) \(coordinates.elevation.formattedCompactly) m"
        if let name = place.name { placeText = name + " — " + placeText }
        lines.append(line(words.place, placeText))
        let offset = schedules.first.flatMap { $0[.dhuhr] }.map {
            LocalClock.offset(schedules[0].timeZone.secondsFromGMT(for: $0.date))
        }
        lines.append(
            line(words.zone, place.zone + (offset.map { " (UTC\($0))" } ?? "") + ", " + words.zoneSource(place.zoneSource)))
        let method = parameters.method
        var methodText = method == .custom ? "custom" : "\(method.displayName) (\(method.rawValue))"
        methodText += ", " + words.methodSource(methodSource) + "; " + settings
        lines.append(line(words.method, methodText))
        if method != .custom { lines.append(line(words.source, method.source)) }
        if let calendar = hijri.first?.calendar {
            let offset = hijri.first?.offset ?? 0
            var text = calendar == .ummAlQura ? "Umm al-Qura" : words.tabular
            if offset != 0 { text += ", \(words.offset) \(offset > 0 ? "+" : "")\(offset)" }
            lines.append(line(words.hijriCalendar, text))
        }
        if let iqama, !iqama.isEmpty {
            var text = iqama.description
            if !iqama.jumuah.isEmpty {
                let times = iqama.jumuah.map { "\(($0 / 60).zeroPadded(2)):\(($0 % 60).zeroPadded(2))" }
                text += (text.isEmpty ? "" : "; ") + "\(words.jumuah) " + times.joined(separator: ", ")
            }
            lines.append(line(words.iqama, text))
        }
        var notes: [String] = []
        if schedules.contains(where: { day in Self.prayers.contains { TimesOutput.note(day[$0]) != nil } }) {
            notes.append(words.ruleNote)
        }
        let notable = hijri.filter { !$0.notableDays.isEmpty }.map { day in
            "\(day.gregorian.day) \(words.months[day.gregorian.month - 1]): "
                + day.notableDays.map { language == .ar ? $0.arabicName : $0.name }.joined(separator: ", ")
        }
        if !notable.isEmpty { notes.append("• " + notable.joined(separator: "; ")) }
        for note in notes { lines.append("<p>\(Self.escape(note))</p>") }
        lines.append("<p class=\"credit\">\(words.calculatedBy) <bdi>PrayKit \(PrayKitInfo.version)</bdi></p>")
        return "<footer>\n" + lines.joined(separator: "\n") + "\n</footer>\n"
    }

    private func line(_ label: String, _ value: String) -> String {
        "<p><span class=\"label\">\(Self.escape(label)):</span> <bdi>\(Self.escape(value))</bdi></p>"
    }

    /// `fajr 18.5°, isha 90 min after maghrib, Asr shafi`, in English (the method's own words).
    private var settings: String {
        var parts: [String] = []
        if let angle = parameters.fajrAngle { parts.append("fajr \(angle.formattedCompactly)°") }
        if let minutes = parameters.ishaInterval {
            parts.append("isha \(minutes) min after maghrib")
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
