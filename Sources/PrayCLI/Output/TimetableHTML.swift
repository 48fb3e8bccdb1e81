import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A month's prayer times as mosques print them, as one self-contained HTML page: a row per day with
/// the Gregorian and Hijri dates, fajr, sunrise, dhuhr, asr, maghrib and isha (and the iqama of each
/// prayer that has one), Fridays marked as Jumu'ah, and a footer with the place, the zone, the
/// method and its published source, the high-latitude rule and polar resolution, and a legend of the
/// marks used. Inline CSS only, a print style with `@page` for A4 or Letter that fits 31 days on one
/// page (five Fridays with three Jumu'ah times included); English left to right, or Arabic right to
/// left, in Latin or Arabic-Indic digits.
///
/// A pure function of its values (``render()``): the command gathers them, tests build them.
/// Everything that comes from outside (a place's name) is escaped.
struct TimetableHTML {
    /// The language of the headings, names and footer.
    enum Language: String, CaseIterable, ArgumentValue {
        case en
        case ar
    }

    /// The digits numbers are written in.
    enum Digits: String, CaseIterable, ArgumentValue {
        /// 0–9, as many Arabic timetables print them too.
        case latin
        /// Arabic-Indic digits (٠–٩), with the Arabic decimal separator (٫).
        case arabic

        /// `text` with its digits written in these; a full stop between two digits becomes the
        /// decimal separator.
        func apply(_ text: String) -> String {
            guard self == .arabic else { return text }
            var result = ""
            var previousIsDigit = false
            let scalars = Array(text.unicodeScalars)
            for (index, scalar) in scalars.enumerated() {
                let isDigit = ("0"..."9").contains(scalar)
                if isDigit, let arabic = Unicode.Scalar(0x0660 + scalar.value - 0x30) {
                    result.unicodeScalars.append(arabic)
                } else if scalar == ".", previousIsDigit, index + 1 < scalars.count,
                    ("0"..."9").contains(scalars[index + 1])
                {
                    result.unicodeScalars.append("\u{066B}")
                } else {
                    result.unicodeScalars.append(scalar)
                }
                previousIsDigit = isDigit
            }
            return result
        }
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
    /// The digits of every number on the page.
    var digits = Digits.latin

    /// The times in the table, in the order of the day.
    static let prayers: [Prayer] = [.fajr, .sunrise, .dhuhr, .asr, .maghrib, .isha]

    /// The page.
    func render() -> String {
        let layout = ColumnLayout(
            needs: columnNeeds, tableWidth: paper.millimetres.width - 20, withIqama: !iqamaPrayers.isEmpty)
        var page = """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)" dir="\(language == .ar ? "rtl" : "ltr")">
            <head>
            <meta charset="utf-8">
            <meta name="generator" content="PrayKit \(PrayKitInfo.version)">
            <title>\(Self.escape(title + (place.name.map { " — \($0)" } ?? "")))</title>
            <style>
            \(style(layout))
            </style>
            </head>
            <body>
            <header>
            <h1>\(Self.escape(title))</h1>
            <p class="sub">\(subtitle)</p>
            </header>

            """
        page += table(layout)
        page += footer()
        page += "</body>\n</html>\n"
        return page
    }

    // MARK: - Words

    var words: Words { Words(language, digits: digits) }

    private var title: String { "\(words.prayerTimes) · \(words.months[month - 1]) \(words.number(year))" }

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
                ? spans.map(\.month).joined(separator: " – ") + " \(words.number(last.year)) \(words.hijriEra)"
                : spans.map { "\($0.month) \(words.number($0.year))" }.joined(separator: " – ")
                    + " \(words.hijriEra)"
            parts.append(isolated(Self.escape(text), text))
        }
        return parts.joined(separator: " · ")
    }

    // MARK: - Table

    /// The month's model, shared with the month page of `praykit serve` (``TimetableMonth``).
    var model: TimetableMonth { TimetableMonth(schedules: schedules, hijri: hijri, iqama: iqama) }

    /// The prayers that get an iqama column (``TimetableMonth/iqamaPrayers``).
    var iqamaPrayers: Set<Prayer> { model.iqamaPrayers }

    private func table(_ layout: ColumnLayout) -> String {
        let iqamaPrayers = iqamaPrayers
        let twoRows = !iqamaPrayers.isEmpty
        var classes = ["c-date", "c-day", "c-hijri"]
        for prayer in Self.prayers {
            classes += iqamaPrayers.contains(prayer) ? ["c-time", "c-iqama"] : ["c-time"]
        }
        // The times' size on the table itself, so that tables shown together keep their own (the
        // dates, weekdays and Hijri dates have theirs in the style).
        var html =
            "<table class=\"\(twoRows ? "with-iqama" : "plain")\" style=\"font-size: "
            + "\(layout.fontSize.formattedCompactly)pt\">\n<colgroup>"
        for (name, width) in zip(classes, layout.widths) {
            html += "<col class=\"\(name)\" style=\"width: \(width.fixed(2))%\">"
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
        html += "<td class=\"date\">\(words.number(date.day))</td>"
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
        guard first || day.hijri.day == 1 else { return "\(words.number(day.hijri.day))\(mark)" }
        // A long name (Jumada al-Akhirah) wraps onto a second line rather than being cut off, and
        // never at its hyphen (U+2011 does not break).
        let name = (language == .ar ? day.hijri.monthNameArabic : day.hijri.monthName)
            .replacing("-", with: "\u{2011}")
        return "<b>\(words.number(day.hijri.day)) \(Self.escape(name))</b>\(mark)"
    }

    /// The time, then its marks as `times` prints them: `00:05~+1` is taken from another latitude
    /// and falls after midnight, on the day after its row's. On an Arabic page the marks follow the
    /// time to its left, as the page reads, isolated left to right (U+2066…U+2069) so that `+1` stays
    /// `+1` — in WeasyPrint and in a browser alike.
    private func timeText(_ time: PrayerTime, in schedule: PrayerSchedule) -> String {
        let text = clockText(time.date, in: schedule, withSeconds: parameters.rounding == .none)
        let marks = words.number(Self.marks(time, in: schedule))
        guard !marks.isEmpty else { return text }
        return text + "<span class=\"marks\">" + (language == .ar ? "\u{2066}\(marks)\u{2069}" : marks) + "</span>"
    }

    /// What the widest cell of each time column needs, in the order of the columns: the clock, its
    /// marks and am or pm (``ColumnLayout``).
    private var columnNeeds: [ColumnLayout.Need] {
        let iqamaPrayers = iqamaPrayers
        // At least a time's width, so that a column of dashes (a month without sunsets) keeps its
        // heading.
        let least = ColumnLayout.Need.cell(clock: words.number("00:00"), half: nil)
        var needs: [ColumnLayout.Need] = []
        for prayer in Self.prayers {
            var adhan = least
            var iqamaNeed = least
            for schedule in schedules {
                if let time = schedule[prayer] {
                    let (clock, half) = clockParts(time.date, in: schedule, withSeconds: parameters.rounding == .none)
                    adhan.widen(
                        to: .cell(clock: clock, half: half, marks: words.number(Self.marks(time, in: schedule))))
                }
                guard iqamaPrayers.contains(prayer) else { continue }
                let (times, stacked) = model.iqamaTimes(prayer, in: schedule)
                for instant in times {
                    let (clock, half) = clockParts(instant, in: schedule)
                    iqamaNeed.widen(to: stacked ? .stacked(clock: clock, half: half) : .cell(clock: clock, half: half))
                }
            }
            needs.append(adhan)
            if iqamaPrayers.contains(prayer) { needs.append(iqamaNeed) }
        }
        return needs
    }

    /// `~`, `*`, `+1` or a pair such as `~+1`: the marks the table puts after `time` (``TimetableMonth``'s).
    static func marks(_ time: PrayerTime, in schedule: PrayerSchedule) -> String {
        TimetableMonth.marks(time, in: schedule)
    }

    /// `05:12`, or `5:12` and a small `am` on a 12-hour clock (`ص` and `م` in Arabic).
    private func clockText(_ date: Date, in schedule: PrayerSchedule, withSeconds: Bool = false) -> String {
        let (clock, half) = clockParts(date, in: schedule, withSeconds: withSeconds)
        return clock + (half.map { "<span class=\"ampm\">\($0)</span>" } ?? "")
    }

    /// The clock in the page's digits, and `am` or `pm` (`ص`, `م`) on a 12-hour clock.
    private func clockParts(
        _ date: Date, in schedule: PrayerSchedule, withSeconds: Bool = false
    ) -> (clock: String, half: String?) {
        let text = LocalClock(zone: schedule.zone).time(date, withSeconds: withSeconds, twelveHour: clock12Hour)
        guard clock12Hour else { return (words.number(text), nil) }
        return (words.number(String(text.dropLast(3))), text.hasSuffix("am") ? words.am : words.pm)
    }

    private func iqamaText(_ prayer: Prayer, time: PrayerTime?, in schedule: PrayerSchedule) -> String {
        let (times, stacked) = model.iqamaTimes(prayer, in: schedule)
        // Two or three Friday prayers, one above the other in a smaller size, so that the column
        // keeps its width and the row its height.
        guard stacked else { return times.first.map { clockText($0, in: schedule) } ?? "" }
        return "<span class=\"jumuah-times\">" + times.map { clockText($0, in: schedule) }.joined(separator: "<br>")
            + "</span>"
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
