import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TimetableHTML {
    // MARK: - Footer

    /// The lines under the table: place, zone, method and source, the high-latitude rule and polar
    /// resolution, the mosque, the Hijri calendar, the iqama, the legend of the marks in the table,
    /// the notable days, and the credit.
    func footer() -> String {
        var lines: [String] = []
        let coordinates = place.coordinates
        lines.append(
            line(
                words.place,
                (place.name.map { [$0] } ?? []) + [
                    words.coordinates(latitude: coordinates.latitude, longitude: coordinates.longitude),
                    words.elevation(words.number(coordinates.elevation.formattedCompactly)),
                ]))
        lines.append(line(words.zone, zoneParts + [words.zoneSource(place.zoneSource)]))
        let method = parameters.method
        lines.append(
            line(
                words.method, [words.methodName(method), words.methodSource(methodSource), words.settings(parameters)])
        )
        if method != .custom {
            // The published source is an English citation: marked as such on an Arabic page.
            lines.append(
                language == .ar
                    ? "<p><span class=\"label\">\(Self.escape(words.source)):</span> "
                        + "<bdi lang=\"en\" dir=\"ltr\">\(Self.escape(method.source))</bdi></p>"
                    : line(words.source, [method.source]))
        }
        lines.append(line(words.highLatitudes, highLatitudeParts))
        // The days whose times came from a mosque's own timetable (PrayerServiceMosque).
        let fromMosque = schedules.filter { $0.mosque != nil }
        if let mosque = fromMosque.first?.mosque {
            lines.append(line(words.mosque, [mosque, "\(words.number(fromMosque.count)) \(words.mosqueDays)"]))
        }
        if let calendar = hijri.first?.calendar {
            let offset = hijri.first?.offset ?? 0
            var parts = [calendar == .ummAlQura ? words.ummAlQura : words.tabular]
            if offset != 0 { parts.append("\(words.offset) \(offset > 0 ? "+" : "")\(words.number(offset))") }
            lines.append(line(words.hijriCalendar, parts))
        }
        if let iqama, !iqama.isEmpty {
            var parts = iqama.rules.isEmpty ? [] : [words.iqamaRules(iqama)]
            if !iqama.jumuah.isEmpty {
                let times = iqama.jumuah.map {
                    words.number("\(($0 / 60).zeroPadded(2)):\(($0 % 60).zeroPadded(2))")
                }
                parts.append("\(words.jumuah) " + times.joined(separator: words.listSeparator))
            }
            lines.append(line(words.iqama, parts))
        }
        if let legend { lines.append(legend) }
        let notable = hijri.filter { !$0.notableDays.isEmpty }.map { day in
            "\(words.number(day.gregorian.day)) \(words.months[day.gregorian.month - 1]): "
                + day.notableDays.map { language == .ar ? $0.arabicName : $0.name }.joined(separator: ", ")
        }
        if !notable.isEmpty {
            lines.append(
                "<p>• " + notable.map { isolated(Self.escape($0), $0) }.joined(separator: words.separator) + "</p>")
        }
        lines.append("<p class=\"credit\">\(words.calculatedBy) <bdi>PrayKit \(PrayKitInfo.version)</bdi></p>")
        return "<footer>\n" + lines.joined(separator: "\n") + "\n</footer>\n"
    }

    /// `Label: part; part`, each part isolated (`<bdi>`) so that English and Arabic parts keep their
    /// own direction and the parts follow the page's; on an Arabic page an option (`--tz`) is isolated
    /// left to right inside its part, so that it reads `--tz` and not `tz--`.
    func line(_ label: String, _ parts: [String]) -> String {
        "<p><span class=\"label\">\(Self.escape(label)):</span> "
            + parts.map { isolated(isolatingOptions(Self.escape($0)), $0) }.joined(separator: words.separator)
            + "</p>"
    }

    /// `html` in a `<bdi>` whose direction is that of the first letter of `text` when it differs from
    /// the page's (and always on an Arabic page), given rather than left to `dir="auto"`: WeasyPrint
    /// gives a `<bdi>` the page's direction, so that `Europe/London (UTC+00:00)` on an Arabic page
    /// would end in a mirrored parenthesis.
    func isolated(_ html: String, _ text: String) -> String {
        let first = text.unicodeScalars.first { $0.properties.isAlphabetic }
        guard let first else { return "<bdi>\(html)</bdi>" }
        let arabic = (0x0590...0x08FF).contains(first.value) || (0xFB1D...0xFEFC).contains(first.value)
        guard language == .ar || arabic else { return "<bdi>\(html)</bdi>" }
        return "<bdi dir=\"\(arabic ? "rtl" : "ltr")\">\(html)</bdi>"
    }

    /// `escaped` with each option name (`--tz`) in a left-to-right `<bdi>` on an Arabic page.
    private func isolatingOptions(_ escaped: String) -> String {
        guard language == .ar, escaped.contains("--") else { return escaped }
        var result = ""
        var rest = Substring(escaped)
        while let start = rest.firstRange(of: "--") {
            result += rest[..<start.lowerBound]
            let name = rest[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            guard !name.isEmpty else {
                result += "--"
                rest = rest[start.upperBound...]
                continue
            }
            result += "<bdi dir=\"ltr\">--\(name)</bdi>"
            rest = rest[name.endIndex...]
        }
        return result + rest
    }

    /// The zone and its offset over the month, `Europe/London (UTC+00:00)`, with each other offset it
    /// changes to and its first day (`Europe/London (UTC+00:00, UTC+01:00 from 28 March)`), at each
    /// day's dhuhr. On an Arabic page each change is a part of its own that starts with its Arabic
    /// words (`من 28 مارس UTC+01:00`), so that the parts keep their direction.
    private var zoneParts: [String] {
        var changes: [(offset: String, from: String?)] = []
        var last: Int?
        for schedule in schedules {
            guard let dhuhr = schedule[.dhuhr] ?? schedule[.fajr] else { continue }
            let offset = schedule.zone.offset(at: dhuhr.date)
            guard offset != last else { continue }
            changes.append(
                (
                    "UTC" + words.number(LocalClock.offset(offset)),
                    last == nil
                        ? nil : "\(words.number(schedule.date.day)) \(words.months[schedule.date.month - 1])"
                ))
            last = offset
        }
        guard let first = changes.first else { return [place.zone] }
        let later = changes.dropFirst().compactMap { change in change.from.map { (change.offset, $0) } }
        guard language == .ar else {
            let texts = [first.offset] + later.map { "\($0.0) \(words.from) \($0.1)" }
            return ["\(place.zone) (\(texts.joined(separator: words.listSeparator)))"]
        }
        return ["\(place.zone) (\(first.offset))"] + later.map { "\(words.from) \($0.1) \($0.0)" }
    }

    // MARK: - High latitudes

    /// The rule for fajr and isha, then the polar resolution and, when days needed it, which days
    /// borrowed their times and from which latitudes (or days).
    private var highLatitudeParts: [String] {
        let latitude = place.coordinates.latitude
        let rule = parameters.highLatitudeRule
        let ruleText =
            parameters.seasonalTwilight != nil
            ? words.seasons
            : rule == .recommended
                ? "\(words.ruleName(rule)) (\(words.ruleName(rule.resolved(latitude: latitude))))"
                : words.ruleName(rule)
        var polar = "\(words.polarResolution) \(words.resolutionName(parameters.polarResolution))"
        let borrowed = schedules.filter { $0.polarBasis != nil }
        if let first = borrowed.first, let last = borrowed.last {
            let days =
                first.date == last.date
                ? "\(words.number(first.date.day)) \(words.months[first.date.month - 1])"
                : "\(words.number(first.date.day))–\(words.number(last.date.day)) \(words.months[last.date.month - 1])"
            polar += ", \(words.onDays(borrowed.count, days))"
            let latitudes = borrowed.compactMap { schedule -> Double? in
                if case .latitude(let value)? = schedule.polarBasis { return value }
                return nil
            }
            if let low = latitudes.min(), let high = latitudes.max() {
                // Two decimals: a hundredth of a degree is 1 km, and the times there differ by seconds.
                let range = [low, high].map { "\(abs($0).fixed(2))°" }
                let text = range[0] == range[1] ? range[0] : "\(range[0])–\(range[1])"
                polar += ", \(words.fromLatitudes(words.number(text), north: latitude >= 0))"
            }
            let sourceDays = borrowed.compactMap { schedule -> CivilDate? in
                if case .day(let day)? = schedule.polarBasis { return day }
                return nil
            }
            if let earliest = sourceDays.min(by: { $0.daysSince1970 < $1.daysSince1970 }),
                let latest = sourceDays.max(by: { $0.daysSince1970 < $1.daysSince1970 })
            {
                let names = [earliest, latest].map { "\(words.number($0.day)) \(words.months[$0.month - 1])" }
                polar += ", \(words.fromDays(names[0] == names[1] ? names[0] : "\(names[0]) – \(names[1])"))"
            }
        }
        return ["\(words.rule) \(ruleText)", polar]
    }

    // MARK: - Legend

    /// A line per mark the table uses: `*`, `~`, `+1` / `-1`, and `–` for a time that does not exist
    /// that day; `nil` when the table has none.
    private var legend: String? {
        var marks = Set<Character>()
        var nextDay = false
        var previousDay = false
        var missing = false
        for schedule in schedules {
            for prayer in Self.prayers {
                guard let time = schedule[prayer] else {
                    missing = true
                    continue
                }
                let text = Self.marks(time, in: schedule)
                marks.formUnion(text.filter { $0 == "*" || $0 == "~" })
                nextDay = nextDay || text.contains("+")
                previousDay = previousDay || text.contains("-")
            }
        }
        var entries: [(mark: String, text: String)] = []
        if marks.contains("*") { entries.append(("*", words.ruleMark)) }
        if marks.contains("~") { entries.append(("~", words.borrowedMark(parameters.polarResolution))) }
        if nextDay { entries.append((words.number("+1"), words.nextDayMark)) }
        if previousDay { entries.append((words.number("-1"), words.previousDayMark)) }
        if missing { entries.append(("–", words.missingMark(parameters))) }
        guard !entries.isEmpty else { return nil }
        // On an Arabic page the mark is isolated left to right, so that +1 does not read 1+.
        return entries.map { mark, text in
            let symbol = language == .ar ? "<bdi dir=\"ltr\">\(Self.escape(mark))</bdi>" : Self.escape(mark)
            return "<p class=\"legend\">\(symbol) \(isolatingOptions(Self.escape(text)))</p>"
        }.joined(separator: "\n")
    }
}
