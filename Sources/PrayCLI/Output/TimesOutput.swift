import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Renders a prayer-times response as a table, JSON (the contract of DESIGN §6) or CSV, writing day
/// by day as it goes.
struct TimesOutput {
    let request: PrayerAPI.Request
    let response: PrayerAPI.Response
    let place: PlaceOptions.Place
    /// The method and why.
    let method: MethodChoice
    /// The Hijri date of each day, in the order of the schedules (empty when unknown).
    let hijri: [HijriDay]
    /// Whether tables show `5:20 am` rather than `05:20`.
    var clock12Hour = false
    /// The saved iqama and Jumu'ah times, shown when set.
    var iqama: IqamaSettings?
    /// How the times between the prayers were asked for (`--extra`), or `nil`.
    var extra: ExtraTimeSettings?
    /// The days suggested for a voluntary fast, when `fast-suggestions` is on; `nil` when it is off
    /// (then the output is what it was before suggestions).
    var fastSuggestions: [CivilDate: FastSuggestion]?
    /// The `Source:` line's words when the chosen mosque's timetable gave times (``MosqueSource``).
    var mosqueSource: String?

    private var clock: LocalClock { LocalClock(zone: request.zone) }
    private var parameters: CalculationParameters { request.parameters }
    private var withSeconds: Bool { parameters.rounding == .none }
    /// The published timetable's provider, or `nil` for calculated times.
    private var provider: String? {
        switch response.source {
        case .calculated: nil
        case .remote(let provider, _), .cache(let provider, _): provider
        }
    }

    /// When a published timetable's days were fetched.
    private var fetchedAt: Date? {
        switch response.source {
        case .calculated: nil
        case .remote(_, let fetchedAt), .cache(_, let fetchedAt): fetchedAt
        }
    }

    /// The JSON field order of a day: the contract's order.
    static let jsonPrayers: [Prayer] = [
        .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha, .imsak, .midnight, .firstThird, .lastThird,
    ]

    /// The table's columns, in the order the times happen.
    static let tablePrayers: [Prayer] = [
        .imsak, .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha, .firstThird, .midnight, .lastThird,
    ]

    // MARK: - JSON

    /// Writes `{"location", "parameters", "source", "sourceFetchedAt", "days": […]}`.
    func writeJSON(to output: OutputSink) throws(CLIError) {
        var head: [(String, JSON)] = [
            ("location", Self.location(request, place: place)),
            ("parameters", Self.parameters(parameters, methodSource: methodSource)),
            ("source", .string(response.source.description)),
            ("sourceFetchedAt", .string(fetchedAt.map(PrayerLogEntry.timestamp))),
        ]
        if let extra { head.append(("extraTimes", ExtraTimeOptions.json(extra))) }
        try JSON.writeObject(head, streaming: "days", items: response.schedules.lazy.map(day), to: output)
    }

    /// The location block, shared with `praykit next --format json`.
    static func location(_ request: PrayerAPI.Request, place: PlaceOptions.Place) -> JSON {
        var members: [(String, JSON)] = []
        if let name = place.name { members.append(("name", .string(name))) }
        members += [
            ("latitude", .number(request.coordinates.latitude)),
            ("longitude", .number(request.coordinates.longitude)),
            ("elevation", .number(request.coordinates.elevation)),
            ("horizonDip", .number(request.coordinates.sunriseDepression - 0.8333)),
            ("timeZone", .string(place.zone.identifier)),
            ("timeZoneSource", .string(place.zoneSource.contractValue)),
        ]
        if !place.alternatives.isEmpty {
            members.append(("timeZoneAlternatives", .array(place.alternatives.map { .string($0) })))
        }
        if let near = place.near { members.append(("near", .string(near))) }
        if let choice = place.cityChoice {
            members.append(("match", .string(choice.match.kind.rawValue)))
            if let note = MatchText.note(choice.match, query: choice.query) {
                members.append(("matchNote", .string(note)))
            }
            if !choice.others.isEmpty {
                members.append(("alsoNamed", .array(choice.others.map { .string($0.place.fullName) })))
            }
        }
        return .object(members)
    }

    /// Where the method came from: `option`, `saved`, `country:SA` or `default`.
    var methodSource: String { method.source.description }

    /// The parameters block, shared with `praykit methods --format json`.
    static func parameters(_ parameters: CalculationParameters, methodSource: String? = nil) -> JSON {
        func adjustments(_ table: PrayerAdjustments) -> JSON {
            .object(Prayer.allCases.compactMap { prayer in table.minutes[prayer].map { (prayer.rawValue, .int($0)) } })
        }
        var imsak: [(String, JSON)] = []
        switch parameters.imsak {
        case .minutesBeforeFajr(let minutes): imsak = [("minutesBeforeFajr", .int(minutes))]
        case .angle(let angle): imsak = [("angle", .number(angle))]
        }
        return .object(
            [("method", .string(parameters.method.rawValue))]
                + (methodSource.map { [("methodSource", JSON.string($0))] } ?? []) + [
                    ("fajrAngle", .number(parameters.fajrAngle)),
                    ("ishaAngle", parameters.ishaInterval == nil ? .number(parameters.ishaAngle) : .null),
                    ("ishaInterval", parameters.ishaInterval.map { .int($0) } ?? .null),
                    ("maghribAngle", .number(parameters.maghribAngle)),
                    ("maghribInterval", parameters.maghribInterval.map { .int($0) } ?? .null),
                    ("madhab", .string(parameters.madhab?.rawValue)),
                    ("asrShadowFactor", .number(parameters.asrShadowFactor)),
                    ("highLatitudeRule", .string(parameters.highLatitudeRule.rawValue)),
                    ("polarResolution", .string(parameters.polarResolution.rawValue)),
                    ("shafaq", .string(parameters.seasonalTwilight?.rawValue)),
                    ("rounding", .string(parameters.rounding.rawValue)),
                    ("night", .string(parameters.night.rawValue)),
                    ("imsak", .object(imsak)),
                    ("methodAdjustments", adjustments(parameters.methodAdjustments)),
                    ("adjustments", adjustments(parameters.adjustments)),
                ])
    }

    private func hijriDate(of schedule: PrayerSchedule) -> String? {
        hijri.first { $0.gregorian == schedule.date }?.hijri.description
    }

    private func day(_ schedule: PrayerSchedule) -> JSON {
        var members: [(String, JSON)] = [("date", .string(schedule.date.description))]
        members.append(("hijri", .string(hijriDate(of: schedule))))
        for prayer in Self.jsonPrayers {
            members.append((prayer.rawValue, .string(schedule[prayer].map { clock.iso8601($0.date) })))
        }
        let unavailable = Self.jsonPrayers.compactMap { prayer in
            schedule.unavailability(of: prayer).map { (prayer.rawValue, JSON.string($0.description)) }
        }
        if !unavailable.isEmpty { members.append(("unavailable", .object(unavailable))) }
        let rules = Self.jsonPrayers.compactMap { prayer in
            Self.note(schedule[prayer]).map { (prayer.rawValue, JSON.string($0)) }
        }
        if !rules.isEmpty { members.append(("rules", .object(rules))) }
        if let basis = schedule.polarBasis { members.append(("polarBasis", .string(basis.description))) }
        let congregation = Self.jsonPrayers.compactMap { prayer in
            schedule.congregationTimes[prayer].map { (prayer.rawValue, JSON.string(clock.iso8601($0))) }
        }
        if !congregation.isEmpty { members.append(("congregation", .object(congregation))) }
        if let mosque = schedule.mosque {
            members.append(("source", .string("mosque:" + mosque)))
            let given = Self.jsonPrayers.filter { schedule[$0]?.derivation == .published }
            members.append(("mosqueTimes", .array(given.map { .string($0.rawValue) })))
            if !schedule.jumuahTimes.isEmpty {
                members.append(("mosqueJumuah", .array(schedule.jumuahTimes.map { .string(clock.iso8601($0)) })))
            }
        }
        if let iqama {
            let times = Prayer.obligatory.compactMap { prayer in
                schedule[prayer].flatMap { iqama.iqama(of: $0, in: schedule) }.map {
                    (prayer.rawValue, JSON.string(clock.iso8601($0)))
                }
            }
            if !times.isEmpty { members.append(("iqama", .object(times))) }
            let jumuah = iqama.jumuahTimes(in: schedule)
            if !jumuah.isEmpty { members.append(("jumuah", .array(jumuah.map { .string(clock.iso8601($0)) }))) }
        }
        if extra != nil { members += extraMembers(schedule.extraTimes) }
        if let fastSuggestions {
            members.append(
                ("fastSuggestion", fastSuggestions[schedule.date].map { FastCommand.json($0.reasons) } ?? .null))
        }
        return .object(members)
    }

    /// `ishraq`, `zawal`, `transit`, `isfirar`, `duha` and `disliked` of a day (`--extra`).
    private func extraMembers(_ times: ExtraTimes?) -> [(String, JSON)] {
        func interval(_ interval: DateInterval) -> [(String, JSON)] {
            [("start", .string(clock.iso8601(interval.start))), ("end", .string(clock.iso8601(interval.end)))]
        }
        return [
            ("ishraq", .string(times?.ishraq.map(clock.iso8601))),
            ("zawal", .string(times.map { clock.iso8601($0.zawal) })),
            ("transit", .string(times.map { clock.iso8601($0.transit) })),
            ("isfirar", .string(times?.isfirar.map(clock.iso8601))),
            ("duha", times?.duha.map { .object(interval($0)) } ?? .null),
            (
                "disliked",
                .array(
                    (times?.disliked ?? []).map { time in
                        .object([("kind", .string(time.kind.rawValue))] + interval(time.interval))
                    }
                )
            ),
        ]
    }

    /// Why a time is not what its angle alone gives: a rule, a season, a polar resolution, or a hold.
    static func note(_ time: PrayerTime?) -> String? {
        guard let time else { return nil }
        var notes: [String] = []
        switch time.derivation {
        case .highLatitudeRule, .seasonal: notes.append(time.derivation.description)
        default: break
        }
        if time.isPolarResolved { notes.append("polar resolution") }
        if time.isHeldBack { notes.append("held back to the time before it, to keep the day in order") }
        return notes.isEmpty ? nil : notes.joined(separator: ", ")
    }

    /// `-1` or `+1` when `time` falls on the civil day before or after `schedule`'s, else empty.
    private func dayMark(_ time: PrayerTime, of schedule: PrayerSchedule) -> String {
        Self.dayMark(time, of: schedule, clock: clock)
    }

    /// `-1` or `+1` when `time` falls on the civil day before or after `schedule`'s on `clock`, else
    /// empty: the mark the table and the printed timetable put after such a time.
    static func dayMark(_ time: PrayerTime, of schedule: PrayerSchedule, clock: LocalClock) -> String {
        let difference = clock.components(time.date).day.daysSince1970 - schedule.date.daysSince1970
        return difference == 0 ? "" : difference > 0 ? "+\(difference)" : "\(difference)"
    }

    // MARK: - CSV

    /// Writes a header row, then a row per day: the date, the Hijri date, the times (ISO 8601), and
    /// notes for times that a rule produced or held back, or that fall on another day.
    func writeCSV(to output: OutputSink) throws(CLIError) {
        let extraColumns = extra == nil ? [] : ["ishraq", "zawal", "transit", "isfirar"]
        let fastColumn = fastSuggestions == nil ? [] : ["fastSuggestion"]
        try output.write(
            CSV.row(["date", "hijri"] + Self.jsonPrayers.map(\.rawValue) + extraColumns + ["notes"] + fastColumn))
        for schedule in response.schedules {
            var times = Self.jsonPrayers.map { schedule[$0].map { clock.iso8601($0.date) } ?? "" }
            if extra != nil {
                let extra = schedule.extraTimes
                times += [extra?.ishraq, extra?.zawal, extra?.transit, extra?.isfirar].map {
                    $0.map(clock.iso8601) ?? ""
                }
            }
            var notes: [String] = []
            for prayer in Self.jsonPrayers {
                guard let time = schedule[prayer] else { continue }
                if let note = Self.note(time) { notes.append("\(prayer.rawValue): \(note)") }
                if let mosque = schedule.mosque, time.derivation == .published {
                    notes.append("\(prayer.rawValue): from \(mosque)")
                }
                let mark = dayMark(time, of: schedule)
                if !mark.isEmpty { notes.append("\(prayer.rawValue): \(mark) day") }
            }
            try output.write(
                CSV.row(
                    [schedule.date.description, hijriDate(of: schedule) ?? ""] + times
                        + [notes.joined(separator: "; ")]
                        + (fastSuggestions.map { [$0[schedule.date]?.summary ?? ""] } ?? [])))
        }
    }

    // MARK: - Table

    /// Writes the header lines, then the table a row per day, then the legend of the marks used.
    func writeTable(to output: OutputSink) throws(CLIError) {
        try output.write((header() + [""]).joined(separator: "\n") + "\n")
        let width = (withSeconds ? 8 : 5) + (clock12Hour ? 3 : 0) + 3
        let headings = ["Date", "Hijri"] + Self.tablePrayers.map { $0.name }
        let widths = headings.enumerated().map { column, heading in max(column < 2 ? 10 : width, heading.count) }
        var usedMarks = Set<String>()
        try output.write(Table.line(headings, widths: widths))
        for schedule in response.schedules {
            var row = [schedule.date.description, hijriDate(of: schedule) ?? "--"]
            for prayer in Self.tablePrayers {
                guard let time = schedule[prayer] else {
                    row.append("--")
                    usedMarks.insert("--")
                    continue
                }
                let mark = schedule.mosque != nil && time.derivation == .published ? "m" : Self.mark(time)
                let day = dayMark(time, of: schedule)
                // Each mark for the legend (a borrowed time held back is `~*`).
                for character in mark { usedMarks.insert(String(character)) }
                if !day.isEmpty { usedMarks.insert("±1") }
                row.append(clock.time(time.date, withSeconds: withSeconds, twelveHour: clock12Hour) + mark + day)
            }
            try output.write(Table.line(row, widths: widths))
        }
        if response.schedules.contains(where: { !$0.congregationTimes.isEmpty || !$0.jumuahTimes.isEmpty }) {
            try output.write("\nCongregation (jamat):\n")
            let prayers = Prayer.obligatory
            let withJumuah = response.schedules.contains { !$0.jumuahTimes.isEmpty }
            var rows = [["Date"] + prayers.map { $0.name } + (withJumuah ? ["Jumu'ah"] : [])]
            for schedule in response.schedules {
                let jumuah = schedule.jumuahTimes.map { clock.time($0, withSeconds: false, twelveHour: clock12Hour) }
                rows.append(
                    [schedule.date.description]
                        + prayers.map { prayer in
                            schedule.congregationTimes[prayer].map {
                                // A mosque's isha iqama after midnight is the next day's, marked as the times are.
                                clock.time($0, withSeconds: false, twelveHour: clock12Hour)
                                    + dayMark(
                                        PrayerTime(prayer: prayer, date: $0, derivation: .published), of: schedule)
                            } ?? "--"
                        } + (withJumuah ? [jumuah.joined(separator: ", ")] : []))
            }
            try output.write(Table.render(rows))
        }
        if let iqama, !iqama.isEmpty {
            try output.write("\nIqama:\n")
            var rows = [["Date"] + Prayer.obligatory.map { $0.name } + ["Jumu'ah"]]
            for schedule in response.schedules {
                let times = Prayer.obligatory.map { prayer in
                    schedule[prayer].flatMap { iqama.iqama(of: $0, in: schedule) }.map {
                        clock.time($0, withSeconds: false, twelveHour: clock12Hour)
                    } ?? "--"
                }
                let jumuah = iqama.jumuahTimes(in: schedule).map {
                    clock.time($0, withSeconds: false, twelveHour: clock12Hour)
                }
                rows.append(
                    [schedule.date.description] + times + [jumuah.isEmpty ? "" : jumuah.joined(separator: ", ")])
            }
            try output.write(Table.render(rows))
        }
        if let extra { try writeExtraTable(extra, to: output) }
        let legend = [
            (
                "*",
                "set by a rule: high-latitude rule, Moonsighting Committee season, or held back to keep the day in order (--format json says which)"
            ),
            ("~", "taken from the nearest latitude or day"),
            ("m", "from " + Set(response.schedules.compactMap(\.mosque)).sorted().joined(separator: ", ")),
            ("±1", "-1 / +1: on the day before / after the row's date"),
            ("--", "unavailable this day (--format json says why)"),
        ].filter { usedMarks.contains($0.0) }
        if !legend.isEmpty {
            try output.write("\n" + legend.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + "\n")
        }
        if let note = MissingTimes.note(response.schedules, prayers: Self.tablePrayers, parameters: parameters) {
            try output.write("Note: " + note + "\n")
        }
        // Last, so that the rest is what it is with suggestions off.
        if let fastSuggestions { try writeFastSuggestions(fastSuggestions, to: output) }
    }

    /// The block of `--extra`: per day, the disliked time after sunrise, duha, the disliked time at
    /// the zenith and the one before sunset.
    private func writeExtraTable(_ settings: ExtraTimeSettings, to output: OutputSink) throws(CLIError) {
        try output.write("\nBetween the prayers (\(ExtraTimeOptions.source(settings))):\n")
        func time(_ date: Date) -> String { clock.time(date, withSeconds: withSeconds, twelveHour: clock12Hour) }
        func span(_ interval: DateInterval?) -> String {
            interval.map { "\(time($0.start))–\(time($0.end))" } ?? "--"
        }
        var rows = [["Date", "Disliked: sunrise", "Duha (ishraq)", "Disliked: zenith", "Disliked: sunset"]]
        var missing = false
        for schedule in response.schedules {
            let extra = schedule.extraTimes
            let cells = [
                span(extra?.disliked(.sunrise)?.interval), span(extra?.duha), span(extra?.disliked(.zenith)?.interval),
                span(extra?.disliked(.sunset)?.interval),
            ]
            missing = missing || cells.contains("--")
            rows.append([schedule.date.description] + cells)
        }
        try output.write(Table.render(rows))
        if missing {
            try output.write("-- the sun does not rise a spear's length (or set) that day\n")
        }
    }

    /// The days suggested for a voluntary fast (`fast-suggestions` on), or a line saying there is none.
    private func writeFastSuggestions(_ suggestions: [CivilDate: FastSuggestion], to output: OutputSink)
        throws(CLIError)
    {
        let days = response.schedules.compactMap { suggestions[$0.date] }
        guard !days.isEmpty else {
            return try output.write("\nSuggested voluntary fasts: none on these days\n")
        }
        try output.write("\nSuggested voluntary fasts:\n")
        try output.write(
            Table.render(
                [["Date", "Hijri", "Why"]]
                    + days.map { [$0.day.gregorian.description, $0.day.hijri.description, $0.summary] }))
    }

    private func header() -> [String] {
        let coordinates = request.coordinates
        let offset = LocalClock.offset(
            request.zone.offset(
                at: response.schedules.first?[.dhuhr]?.date ?? Date(timeIntervalSince1970: 0)))
        var placeLine = "Place: "
        if let name = place.name { placeLine += "\(place.nameWithNote ?? name) — " }
        placeLine +=
            "\(coordinates.latitude.formattedCompactly), \(coordinates.longitude.formattedCompactly), "
            + "elevation \(coordinates.elevation.formattedCompactly) m"
        if coordinates.elevation < 0 { placeLine += " (below sea level: the horizon dip applies only above it)" }
        if place.name == nil, let near = place.near { placeLine += " (near \(near))" }
        var zoneLine = "Time zone: \(place.zone.identifier) (UTC\(offset), \(zoneSourceText))"
        if !place.alternatives.isEmpty {
            zoneLine +=
                "; also claimed here: \(place.alternatives.joined(separator: ", ")) — choose with --tz "
                + place.alternatives[0]
        }
        var lines = [placeLine]
        if let choice = place.cityChoice, let others = MatchText.others(choice) { lines.append(others) }
        lines.append(zoneLine)
        if provider != RemoteTimetable.Provider.london.rawValue {
            lines += methodLines()
        }
        lines.append(
            "Source: "
                + (mosqueSource
                    ?? "\(response.source)"
                    + (fetchedAt.map { ", fetched \(LocalClock(zone: request.zone).iso8601($0))" } ?? "")))
        return lines
    }

    private var zoneSourceText: String {
        switch place.zoneSource {
        case .option: "from --tz"
        case .saved: "saved with the place"
        case .coordinates: "the zone at the coordinates"
        case .city: "the city's zone"
        case .system: "the system's"
        }
    }

    private func methodLines() -> [String] {
        var name = "\(parameters.method.displayName) (\(parameters.method.rawValue))"
        if parameters.method == .custom { name = "custom" }
        var settings: [String] = []
        if let angle = parameters.fajrAngle { settings.append("fajr \(angle.formattedCompactly)°") }
        if let minutes = parameters.ishaInterval {
            settings.append("isha \(minutes) min after maghrib")
        } else if let angle = parameters.ishaAngle {
            settings.append("isha \(angle.formattedCompactly)°")
        }
        if let angle = parameters.maghribAngle { settings.append("maghrib \(angle.formattedCompactly)°") }
        if let minutes = parameters.maghribInterval { settings.append("maghrib \(minutes) min after sunset") }
        settings.append(
            "Asr \(parameters.madhab?.rawValue ?? "factor \(parameters.asrShadowFactor.formattedCompactly)")")
        let adjustments = parameters.totalAdjustments
        if !adjustments.isEmpty { settings.append("adjustments \(adjustments)") }
        let rule = parameters.highLatitudeRule.resolved(latitude: request.coordinates.latitude)
        var ruleText = parameters.highLatitudeRule == .recommended ? "recommended (\(rule))" : rule.rawValue
        if parameters.seasonalTwilight != nil { ruleText = "Moonsighting Committee seasons" }
        var methodLine = "Method: \(name); \(settings.joined(separator: ", "))"
        if case .country(let code) = method.source {
            methodLine += " — chosen for \(code)"
            if let hint = method.madhabHint, parameters.madhab != hint {
                methodLine += "; \(hint) Asr is customary there (--madhab \(hint))"
            }
        }
        return [
            methodLine,
            "High-latitude rule: \(ruleText); polar resolution: \(parameters.polarResolution)",
        ]
    }

    /// The mark after a time in a table: `~` when it was taken from another latitude or day, `*` when
    /// a rule or a season set it or it was held back, else empty.
    static func mark(_ time: PrayerTime) -> String { TimetableMonth.mark(time) }
}

extension LocationAPI.TimeZoneSource {
    /// The value written in JSON (`timeZoneSource`): a city's own zone is the zone at its coordinates.
    var contractValue: String { self == .city ? LocationAPI.TimeZoneSource.coordinates.rawValue : rawValue }
}
