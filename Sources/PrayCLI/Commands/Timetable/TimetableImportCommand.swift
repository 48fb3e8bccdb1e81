import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit timetable import FILE.csv --mosque NAME`: keeps a mosque's own timetable.
enum TimetableImportCommand: Command {
    static let name = "import"
    static let abstract = "Keep a mosque's own timetable from a CSV file, replacing the mosque's days kept before."
    static let discussion = """
        The file is UTF-8 text (a byte-order mark is accepted): a header row naming the columns, then one
        row per day. 'date' (YYYY-MM-DD) is required; any of fajr, sunrise, dhuhr, asr, maghrib, isha (adhan
        times), fajr_iqama, dhuhr_iqama, asr_iqama, maghrib_iqama, isha_iqama and jumuah (times separated by
        spaces) may follow, in any order. Times are HH:MM, 24-hour, in the mosque's zone; an empty cell
        leaves that time to the calculation.

        An isha or isha_iqama before 06:00 is after midnight, on the next day (isha 00:40 in a Scottish or
        Scandinavian summer), as the calculated times have it.

        The whole file is checked first: a time out of order (fajr after sunrise, an iqama before its
        adhan), a day given twice, a missing date column, an unknown column, columns separated by
        semicolons, a bad time or date, text that is not UTF-8 or a file without days is an error naming
        the line, and nothing is imported. Importing the same mosque again replaces all its days in one
        transaction.

        Each adhan time is then compared with the sun's at the mosque's place (the saved method). Mosques
        differ from one another by minutes, and fajr and isha by convention (12° to 20°, and the rules of
        high latitudes) by more, so a time outside its window is a wrong month, zone or column: a warning
        on standard error names the day, the time and the calculated one (the days are still imported).
        The middle of the night is halfway from sunset to sunrise.
        \(windowsText)

        The mosque's place is the saved place, or the one given with --city or --lat/--lon and --tz; its
        times apply within \(Int(MosqueTimetable.radiusKilometers)) km of it, in its zone, once it is chosen
        with 'praykit config set mosque NAME'. Then times, next, notify, calendar and timetable use its
        times for the days it gives, and calculated times for the rest.
        """
    static let examples = [
        "praykit timetable import east-london-2027.csv --mosque \"East London Mosque\" --city London",
        "praykit config set mosque \"East London Mosque\"",
    ]
    static let file = Argument<String>("file", help: "The CSV file, or - for standard input.", completion: .file)
    static let mosque = Option<String>("mosque", value: "name", help: "The mosque's name (1 to 100 characters).")
    static let options: [any OptionDefinition] = [mosque] + PlaceOptions.place
    static let arguments: [any ArgumentDefinition] = [file]

    /// The largest file read: 16 MiB (a century of days is under 6 MiB).
    static let maximumBytes = 16 * 1024 * 1024

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[mosque].trimmingWhitespace()
        do {
            try MosqueTimetable.validate(name: name)
        } catch {
            throw CLIError.usage("--mosque: " + error.message)
        }
        let data = try InputFile.read(arguments[file], limit: maximumBytes + 1, context: context)
        guard data.count <= maximumBytes else {
            throw CLIError.runtime("\(arguments[file]) is larger than \(maximumBytes / 1024 / 1024) MiB")
        }
        let days: [MosqueDay]
        do {
            days = try MosqueTimetableCSV.days(from: data)
        } catch {
            throw CLIError.runtime("\(arguments[file] == "-" ? "standard input" : arguments[file]), \(error.message)")
        }
        let saved = try context.preferences()
        let place = try await PlaceOptions.place(arguments, saved: saved, context: context)
        let timetable = MosqueTimetable(
            name: name, coordinates: place.coordinates, timeZone: place.zone.identifier, days: days)
        // Checked before it is stored, but never in its way: a calculation that fails loses only the check.
        let findings = (try? await check(timetable, arguments: arguments, saved: saved, context: context)) ?? []
        try context.dependency.mosqueTimetables().replace(timetable)
        let first = days.first.map { "\($0.date)" } ?? ""
        let last = days.last.map { "\($0.date)" } ?? ""
        var message =
            "Imported \(days.count) \(days.count == 1 ? "day" : "days") (\(first) to \(last)) for \(name), in \(place.zone.identifier).\n"
        if try context.preferences()[.mosque] != name {
            message += "Use its times with: praykit config set mosque \(name.praykitValueWord)\n"
        }
        try context.output.write(message)
        try warn(findings, of: timetable, context: context)
    }

    // MARK: - The check against the sun

    /// The most days named one by one; the rest are counted.
    static let namedFindings = 10

    /// The windows of ``MosqueTimetableCheck``, in words for help: a line each.
    static var windowsText: String {
        MosqueTimetableCheck.windows.map { window in
            "  " + padded(window.prayer.rawValue, to: 9) + words(window)
        }.joined(separator: "\n")
    }

    /// `within 15 minutes of sunrise`, `from 5 minutes before to 45 minutes after sunset`, `from 15
    /// minutes before the middle of the night to 30 minutes before sunrise`.
    static func words(_ window: MosqueTimetableCheck.Window) -> String {
        let (earliest, latest) = (window.earliest, window.latest)
        guard earliest.reference == latest.reference else { return "from \(words(earliest)) to \(words(latest))" }
        let reference = words(earliest.reference)
        if earliest.minutes == -latest.minutes, latest.minutes > 0 {
            return "within \(latest.minutes) minutes of \(reference)"
        }
        return "from \(offset(earliest.minutes)) to \(offset(latest.minutes)) \(reference)"
    }

    /// `15 minutes before the middle of the night`.
    static func words(_ edge: MosqueTimetableCheck.Edge) -> String {
        "\(offset(edge.minutes)) \(words(edge.reference))"
    }

    /// `15 minutes before`, `30 minutes after`.
    private static func offset(_ minutes: Int) -> String {
        "\(abs(minutes)) minutes \(minutes < 0 ? "before" : "after")"
    }

    private static func words(_ reference: MosqueTimetableCheck.Reference) -> String {
        switch reference {
        case .middleOfNight: "the middle of the night"
        case .sunrise: "sunrise"
        case .dhuhr: "the calculated dhuhr"
        case .shafiiAsr: "the Shafi'i asr"
        case .hanafiAsr: "the Hanafi asr"
        case .sunset: "sunset"
        }
    }

    /// The mosque's times outside their windows, against the times calculated at its place with the
    /// saved method (without the mosque's own: the calculator, not the prayer service).
    private static func check(
        _ timetable: MosqueTimetable, arguments: ParsedArguments, saved: Preferences, context: CommandContext
    ) async throws -> [MosqueTimetableCheck.Finding] {
        guard let first = timetable.days.first?.date, let last = timetable.days.last?.date else { return [] }
        let prepared = try await context.dependency.locationManager().prayerRequest(
            for: PlaceOptions.request(arguments, saved: saved, context: context), at: context.now)
        var request = prepared.request
        request.coordinates = timetable.coordinates
        // From the day before the first, for the night before its fajr.
        // (A timetable may start on 0001-01-01: no day before it, and the calculation refuses the years anyway.)
        request.date = first.clampedAdding(days: -1)
        request.days = min(last.daysSince1970 - first.daysSince1970 + 2, PrayerAPI.Request.maximumDays)
        var other = request
        other.parameters.asrShadowFactor = request.parameters.asrShadowFactor == 1 ? 2 : 1
        let calculator = context.dependency.prayerCalculator()
        return MosqueTimetableCheck.findings(
            in: timetable, calculated: try calculator.schedules(for: request),
            otherMadhab: try calculator.schedules(for: other))
    }

    /// Writes the findings on standard error: the first days one by one, then what to check.
    private static func warn(
        _ findings: [MosqueTimetableCheck.Finding], of timetable: MosqueTimetable, context: CommandContext
    ) throws {
        guard !findings.isEmpty, let zone = TimeZoneName(timetable.timeZone) else { return }
        let clock = LocalClock(zone: zone)
        func time(_ date: Date) -> String { clock.time(date, withSeconds: false) }
        var text = ""
        for finding in findings.prefix(namedFindings) {
            let prayer = finding.prayer.rawValue
            let calculated = finding.calculated.map { "calculated \(time($0))" } ?? "no calculated \(prayer)"
            text +=
                "Warning: \(finding.date): \(prayer) \(time(finding.given)), \(calculated); a mosque's \(prayer) is "
                + "\(words(finding.window)) (\(time(finding.earliest)) to \(time(finding.latest)))\n"
        }
        if findings.count > namedFindings {
            text += "Warning: … and \(findings.count - namedFindings) more times outside their windows\n"
        }
        let days = Set(findings.map(\.date)).count
        let times = findings.count == 1 ? "a time" : "times"
        text +=
            "Warning: \(days) day\(days == 1 ? " has" : "s have") \(times) far from the sun's in \(timetable.name)'s "
            + "timetable, more than mosques differ by: check that the file's dates are the right month and year, "
            + "that its times are in the mosque's zone, \(timetable.timeZone) (summer time included), and that each "
            + "column holds the prayer it names. It was imported: import the file again once fixed, or forget it "
            + "with 'praykit timetable remove --mosque \"\(timetable.name)\"'.\n"
        try context.diagnostics.write(text)
    }
}
