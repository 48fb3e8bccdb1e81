import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit calendar`: prayer times as an iCalendar file (RFC 5545) to import into GNOME Calendar,
/// Thunderbird or Google Calendar.
enum CalendarCommand: Command {
    static let name = "calendar"
    static let abstract = "Write prayer times as an iCalendar (.ics) file, with alarms."
    static let discussion = """
        Times are written in UTC (DTSTART:…Z), which every calendar converts to the viewer's zone; the
        place's zone is named in X-WR-TIMEZONE. Each event's UID is stable (the day, the prayer and the
        place, not the method), so importing a newer file — after a change of method, say — updates the
        events rather than duplicating them. An event
        lasts --duration minutes, or until the iqama when iqama times are saved.
        """
    static let examples = [
        "praykit calendar --lat 21.4225 --lon 39.8262 --tz Asia/Riyadh --month 2027-02 --alarm 10m > prayers.ics",
        "praykit calendar --year 2027 --prayers fajr,maghrib",
    ]
    static let date = Option<Day?>(
        "date", value: "day", help: "First day: YYYY-MM-DD, today, tomorrow, +N or -N.",
        defaultText: "today in the zone")
    static let days = Option("days", value: "n", help: "Number of days.", default: 30, range: 1...3660)
    static let month = Option<YearMonth?>("month", value: "YYYY-MM", help: "Every day of this month.")
    static let year = Option<Int?>("year", value: "YYYY", help: "Every day of this year.", range: 1...9999)
    static let prayers = Option(
        "prayers", value: "list", help: "The times to include: fajr,sunrise,dhuhr,asr,maghrib,isha,… or all.",
        default: PrayerList(Prayer.obligatory))
    static let alarm = Option<AlarmLead>(
        "alarm", value: "time", help: "An alarm this long before each event: 10m, 1h, 0m (at the time).",
        repeatable: true)
    static let duration = Option(
        "duration", value: "min", help: "Minutes each event lasts, when no iqama is saved.", default: 15,
        range: 1...240, unit: "minutes")
    static let options: [any OptionDefinition] =
        PlaceOptions.place + [date, days, month, year] + PlaceOptions.calculation + [prayers, alarm, duration]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let spans: [any OptionDefinition] = [days, month, year]
        let given = spans.filter(arguments.isGiven)
        guard given.count <= 1 else {
            throw CLIError.usage("use only one of " + given.map { "--" + $0.name }.joined(separator: ", "))
        }
        if !arguments.isGiven(days), arguments.isGiven(date), given.count == 1 {
            throw CLIError.usage("--date goes with --days, not with --\(given[0].name)")
        }
        var start = arguments[date]
        var count = arguments[days]
        if let month = arguments[month] {
            start = try Day(argument: "\(month.argumentDescription)-01")
            count = CivilDate.daysIn(month: month.month, year: month.year)
        } else if let year = arguments[year] {
            start = try Day(argument: "\(year.zeroPadded(4))-01-01")
            count = CivilDate.isLeap(year) ? 366 : 365
        }
        let chosen = try arguments[prayers].resolved(
            every: Prayer.chronological, allowed: Prayer.allCases, option: "prayers", merging: true)
        let calculation = try await PlaceOptions.calculation(arguments, context: context, date: start, days: count)
        let response = try await context.dependency.prayerService().prayerTimes(for: calculation.request)
        if let note = MissingTimes.note(response.schedules, prayers: chosen, parameters: calculation.request.parameters)
        {
            try context.diagnostics.write("Note: \(note) They have no events.\n")
            try context.diagnostics.flush()
        }
        let writer = ICalendarWriter(
            calculation: calculation, prayers: chosen, alarms: arguments.all(alarm).map(\.minutes),
            durationMinutes: arguments[duration], stamp: context.now)
        try writer.write(response.schedules, to: context.output)
    }
}

/// How long before an event its alarm rings: `10m`, `1h`, `90` (minutes), at most a day.
struct AlarmLead: ArgumentValue {
    /// The minutes before the event.
    let minutes: Int

    init(argument: String) throws(ArgumentValueError) {
        let lowered = argument.lowercased()
        let unit = lowered.last.map { $0 == "h" ? 60 : 1 } ?? 1
        let digits = lowered.hasSuffix("m") || lowered.hasSuffix("h") ? String(lowered.dropLast()) : lowered
        guard let value = Int(digits), value >= 0, value * unit <= 1440 else {
            throw ArgumentValueError(reason: "must look like 10m or 1h (at most 24h)")
        }
        minutes = value * unit
    }

    var argumentDescription: String { "\(minutes)m" }
}

/// Writes `praykit calendar`'s file with PrayKit's one iCalendar writer (``ICalendar``): CRLF line ends,
/// lines folded at 75 octets, TEXT values escaped.
struct ICalendarWriter {
    let calculation: PlaceOptions.Calculation
    let prayers: [Prayer]
    let alarms: [Int]
    let durationMinutes: Int
    let stamp: Date

    func write(_ schedules: [PrayerSchedule], to output: OutputSink) throws(CLIError) {
        let request = calculation.request
        let placeName =
            calculation.place.name
            ?? "\(request.coordinates.latitude.formattedCompactly), \(request.coordinates.longitude.formattedCompactly)"
        let header = ICalendar.header(name: "Prayer times — \(placeName)", zone: calculation.place.zone.identifier)
        try output.write(verbatim: header.map(ICalendar.fold).joined())
        for schedule in schedules {
            var lines: [String] = []
            for prayer in prayers {
                guard let time = schedule[prayer] else { continue }
                lines += ICalendar.lines(of: event(prayer, time: time, schedule: schedule))
            }
            try output.write(verbatim: lines.map(ICalendar.fold).joined())
        }
        try output.write(verbatim: ICalendar.fold("END:VCALENDAR"))
    }

    private func event(_ prayer: Prayer, time: PrayerTime, schedule: PrayerSchedule) -> ICalendar.Event {
        let request = calculation.request
        let iqama = calculation.iqama.flatMap { settings in
            prayer == .dhuhr
                ? settings.jumuahTimes(in: schedule).first ?? settings.iqama(of: time, in: schedule)
                : settings.iqama(of: time, in: schedule)
        }
        let end =
            iqama.map { max($0, time.date.addingTimeInterval(60)) }
            ?? time.date.addingTimeInterval(
                Double(durationMinutes) * 60)
        let clock = LocalClock(zone: request.zone)
        var description =
            "\(prayer.name) at \(clock.time(time.date, withSeconds: false)) (\(calculation.place.zone.identifier))"
        if let iqama { description += ", iqama \(clock.time(iqama, withSeconds: false))" }
        description += ". Method: \(request.parameters.method.displayName)."
        return ICalendar.Event(
            uid: uid(prayer, schedule.date), stamp: stamp, start: time.date, end: end, summary: prayer.name,
            description: description, location: calculation.place.name, coordinates: request.coordinates,
            alarms: alarms.map { minutes in
                ICalendar.Alarm(
                    minutesBefore: minutes,
                    description: minutes == 0 ? prayer.name : "\(prayer.name) in \(minutes) minutes")
            })
    }

    /// The same day, time and place always give the same UID — whatever the method, so that a file
    /// made after a change of method updates the events imported before instead of adding copies.
    private func uid(_ prayer: Prayer, _ date: CivilDate) -> String {
        let coordinates = calculation.request.coordinates
        let place = "\(coordinates.latitude.fixed(4))_\(coordinates.longitude.fixed(4))"
        return "\(date)-\(prayer.rawValue)-\(place)@praykit"
    }
}
