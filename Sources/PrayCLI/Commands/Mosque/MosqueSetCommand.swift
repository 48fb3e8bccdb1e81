import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit mosque set NAME …`: a mosque's iqama, Jumu'ah and Eid prayers, Hijri calendar, announced
/// month starts and place.
enum MosqueSetCommand: Command {
    static let name = "set"
    static let abstract = "Set a mosque's iqama rules, Jumu'ah and Eid prayers, Hijri calendar and place."
    static let discussion = """
        Each option replaces that part of the mosque's settings and leaves the others. Iqama is per prayer,
        minutes after the adhan (+20, never before it) or a clock time (13:30); a day of the mosque's
        timetable that gives its own iqama wins. At most three Jumu'ah times. An Eid prayer day is its
        Hijri date (1 Shawwal or 10 Dhu al-Hijjah), its date and up to five times:
        1448-10-01=2027-03-10@07:30+09:00. A month's start as the mosque announces it is
        --hijri-start 1448-09=2027-02-09 (repeat it; 1448-09=none removes it). The place comes from the
        mosque's timetable, else the saved place, unless given. For a mosque space you edit, the settings
        sync to every member and screen. Whoever chose the mosque ('praykit config set mosque NAME')
        follows its Hijri calendar, offset and announced starts in every command.
        """
    static let examples = [
        "praykit mosque set 'East London Mosque' --iqama fajr=+20,dhuhr=13:30,asr=+10 --jumuah 13:15,14:00",
        "praykit mosque set 'East London Mosque' --eid 1448-10-01=2027-03-10@07:30+09:00",
        "praykit mosque set 'East London Mosque' --hijri-start 1448-09=2027-02-09",
        "praykit mosque set 'East London Mosque' --screen silence=2,after=off,hijri=maghrib",
    ]
    static let iqama = Option<String?>(
        "iqama", value: "rules", help: "Per prayer: fajr=+20,dhuhr=13:30 (minutes after the adhan, or a clock time).",
        defaultText: "unchanged")
    static let rounding = Option<Int?>(
        "iqama-rounding", value: "minutes", help: "Round iqama minutes up to a multiple of this.",
        defaultText: "unchanged", range: 1...60)
    static let jumuah = Option<String?>(
        "jumuah", value: "times", help: "Up to three Friday prayer times: 13:15,14:00 ('none' clears).",
        defaultText: "unchanged")
    static let eid = Option<String?>(
        "eid", value: "day", help: "An Eid prayer day HIJRI=DATE@TIME+TIME (repeat it; 'none' clears).",
        defaultText: "unchanged", repeatable: true)
    static let hijriCalendar = Option<HijriCalendar?>(
        "hijri-calendar", value: "calendar", help: "The Hijri calendar the mosque follows.", defaultText: "unchanged")
    static let hijriOffset = Option<Int?>(
        "hijri-offset", value: "days", help: "Days added to that calendar, -2…2.", defaultText: "unchanged",
        range: HijriAPI.offsets)
    static let hijriStart = Option<String?>(
        "hijri-start", value: "month=date",
        help: "A month's first day as the mosque announced it: 1448-09=2027-02-09 (repeat it; =none removes).",
        defaultText: "unchanged", repeatable: true)
    static let latitude = Option<Double?>(
        "latitude", value: "degrees", help: "The mosque's latitude.", defaultText: "kept")
    static let longitude = Option<Double?>(
        "longitude", value: "degrees", help: "The mosque's longitude.", defaultText: "kept")
    static let timeZone = Option<String?>(
        "time-zone", value: "zone", help: "The IANA zone of its clock times.", defaultText: "kept")
    static let screen = Option<String?>(
        "screen", value: "phases",
        help: "What its screens show around each prayer (praykit serve --display), such as "
            + "silence=off,hijri=maghrib; names left out are kept, 'default' for the defaults (docs/display.md).",
        defaultText: "unchanged")
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]
    static let options: [any OptionDefinition] = [
        iqama, rounding, jumuah, eid, hijriCalendar, hijriOffset, hijriStart, latitude, longitude, timeZone, screen,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let name = arguments[MosqueCommand.mosque]
        let store = context.dependency.mosqueTimetables()
        let starts = try arguments.all(hijriStart).compactMap { $0 }.map(Self.monthStart)
        let before = try FastCommand.calendar(context: context)
        // The settings are one synced record, written whole: the edit starts from the server's copy
        // (when it can be reached), so another editor's change since this device's last sync is kept.
        await context.dependency.syncService().syncBeforeEdit()
        let stored = try store.settings(of: name)
        var settings = try stored ?? (try defaults(for: name, arguments, context: context))
        if let text = arguments[iqama] {
            // Read as the iqama setting is, so the rules and their messages are that one parser's.
            let rules = try IqamaSettings(parsing: text).rules
            settings.iqama = Dictionary(uniqueKeysWithValues: rules.map { ($0.key.rawValue, $0.value.description) })
        }
        if let minutes = arguments[rounding] { settings.iqamaRounding = minutes }
        if let text = arguments[jumuah] {
            settings.jumuah =
                text == "none" ? [] : try IqamaSettings(parsing: "", jumuah: text).jumuah
        }
        let eids = arguments.all(eid).compactMap { $0 }
        if !eids.isEmpty {
            settings.eid = try eids == ["none"] ? [] : eids.map(Self.eidDay)
        }
        if let calendar = arguments[hijriCalendar] { settings.hijriCalendar = calendar }
        if let offset = arguments[hijriOffset] { settings.hijriOffset = offset }
        if let value = arguments[latitude] { settings.latitude = value }
        if let value = arguments[longitude] { settings.longitude = value }
        if let zone = arguments[timeZone] { settings.timeZone = zone }
        if let text = arguments[screen] {
            settings.screen =
                text == "default" ? nil : try DisplayAPI.Settings(parsing: text, over: settings.screen ?? .init())
        }
        try check(starts, of: name, settings: settings, context: context)
        // Unchanged settings (only --hijri-start given, or the values they had) are not written again:
        // a copy written back would win over a newer one another editor made meanwhile.
        if settings != stored { try store.setSettings(settings, of: name) }
        for (month, start) in starts { try store.setHijriMonthStart(start, for: month, of: name) }
        _ = await context.dependency.syncService().syncAfterWrite()
        try context.output.write("Settings of \(name): \(settings.summary.escapingControlCharacters()).\n")
        if !starts.isEmpty {
            let kept = try store.hijriMonthStarts(of: name).sorted.map { "\($0.month) \($0.start)" }
            try context.output.write(
                "Announced month starts: \(kept.isEmpty ? "none" : kept.joined(separator: ", ")).\n")
        }
        // Those who follow this mosque's calendar may see recorded fasts move.
        FastCommand.warnMoved(before: before, after: try FastCommand.calendar(context: context), context: context)
    }

    /// Refuses `starts` when, with the mosque's other starts, they would make a month around them other
    /// than 29 or 30 days on the mosque's calendar — as `hijri set-start` refuses a person's.
    static func check(
        _ starts: [(HijriMonthStarts.Month, CivilDate?)], of name: String, settings: SyncMosqueSettingsValue,
        context: CommandContext
    ) throws {
        guard !starts.isEmpty else { return }
        var all = try context.dependency.mosqueTimetables().hijriMonthStarts(of: name)
        for (month, start) in starts { all[month] = start }
        let service = HijriServiceMonthStarts(base: context.dependency.hijriService(), starts: all)
        let near = Set(starts.flatMap { [$0.0.previous, $0.0, $0.0.next] })
        let problems = service.problems(calendar: settings.hijriCalendar, offset: settings.hijriOffset)
        if let problem = problems.filter({ near.contains($0.key) }).min(by: { $0.key < $1.key }) {
            throw CLIError.usage("--hijri-start: \(problem.value); nothing was changed")
        }
    }

    /// `1448-09=2027-02-09`, or `1448-09=none` (removes the month's start).
    static func monthStart(_ text: String) throws -> (HijriMonthStarts.Month, CivilDate?) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            throw CLIError.usage("--hijri-start '\(text)' must look like 1448-09=2027-02-09 (or 1448-09=none)")
        }
        let month: HijriMonthStarts.Month
        do {
            month = try HijriMonthStarts.Month(parsing: parts[0])
        } catch {
            throw CLIError.usage("--hijri-start '\(text)': \(error.message)")
        }
        if parts[1] == "none" { return (month, nil) }
        guard let start = try? CivilDate(parsing: parts[1]) else {
            throw CLIError.usage("--hijri-start '\(text)': '\(parts[1])' is not a date YYYY-MM-DD")
        }
        do {
            try HijriMonthStarts.checkPlausible(start, for: month)
        } catch {
            throw CLIError.usage("--hijri-start '\(text)': \(error.message)")
        }
        return (month, start)
    }

    /// New settings at the place given, else the mosque's timetable's place, else the saved place.
    static func defaults(for name: String, _ arguments: ParsedArguments, context: CommandContext) throws
        -> SyncMosqueSettingsValue
    {
        if let latitude = arguments[latitude], let longitude = arguments[longitude], let zone = arguments[timeZone] {
            return SyncMosqueSettingsValue(latitude: latitude, longitude: longitude, timeZone: zone)
        }
        if let timetable = try context.dependency.mosqueTimetables().mosques().first(where: { $0.name == name }) {
            return SyncMosqueSettingsValue(
                latitude: timetable.coordinates.latitude, longitude: timetable.coordinates.longitude,
                elevation: timetable.coordinates.elevation, timeZone: timetable.timeZone)
        }
        let saved = try context.preferences()
        guard let place = try saved.coordinates(), let zone = saved[.timeZone] else {
            throw CLIError.usage(
                "\(name) has no timetable here and no place is saved: give --latitude, --longitude and --time-zone")
        }
        return SyncMosqueSettingsValue(
            latitude: place.latitude, longitude: place.longitude, elevation: place.elevation, timeZone: zone)
    }

    /// `1448-10-01=2027-03-10@07:30+09:00`.
    static func eidDay(_ text: String) throws -> SyncMosqueSettingsValue.Eid {
        let parts = text.split(separator: "=", maxSplits: 1)
        let rest = parts.count == 2 ? parts[1].split(separator: "@", maxSplits: 1) : []
        guard rest.count == 2, let date = try? CivilDate(parsing: String(rest[0])) else {
            throw CLIError.usage("--eid '\(text)' must look like 1448-10-01=2027-03-10@07:30+09:00")
        }
        let times = try IqamaSettings(
            parsing: "", jumuah: String(rest[1]).replacing("+", with: ",")
        ).jumuah
        return SyncMosqueSettingsValue.Eid(hijri: String(parts[0]), date: date, prayers: times)
    }
}
