import PrayCore

/// `praykit hijri starts`: the saved announced month starts, each beside the calendar's first day.
enum HijriStartsCommand: Command {
    static let name = "starts"
    static let abstract = "List the Hijri months whose first day was announced ('hijri set-start')."
    static let discussion = """
        Each month shows its announced first day, the calendar's (the saved hijri-calendar with the saved
        hijri-offset: the day 'praykit hijri' would begin the month on without the announcement) and the
        difference. An override that no longer fits the saved calendar and offset (more than 2 days from
        the calendar's own first day, before the offset, or a month of other than 29 or 30 days) is
        listed with the reason and is not applied.
        """
    static let examples = ["praykit hijri starts", "praykit hijri starts --format json"]
    static let options: [any OptionDefinition] = [Option<OutputFormat>.format([.table, .json])]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let query = HijriQuery(arguments, choice: try context.hijriChoice())
        let service = HijriServiceMonthStarts(base: context.dependency.hijriService(), starts: query.starts)
        let problems = service.problems(calendar: query.calendar, offset: query.offset)
        let calendar = context.dependency.hijriService()
        let rows = query.starts.sorted.map { entry in
            let first = try? HijriDate(year: entry.month.year, month: entry.month.month, day: 1)
            // The calendar as every other command shows it: moved by the offset.
            let calendarStart = first.flatMap {
                try? calendar.day(of: $0, calendar: query.calendar, offset: query.offset).gregorian
            }
            return (entry.month, entry.start, calendarStart, problems[entry.month])
        }
        if query.format == .json {
            return try JSON.writeArray(
                rows.map { month, start, calendarStart, problem in
                    JSON.object([
                        ("month", .string(month.description)), ("monthName", .string(month.name)),
                        ("start", .string(start.description)), ("calendarStart", .string(calendarStart?.description)),
                        ("offset", .int(query.offset)),
                        (
                            "shift",
                            calendarStart.map { .int(start.daysSince1970 - $0.daysSince1970) } ?? .null
                        ),
                        ("applied", .bool(problem == nil)), ("problem", .string(problem)),
                    ])
                }, to: context.output)
        }
        guard !rows.isEmpty else {
            var text = "No announced month starts."
            if let (month, start, shift) = HijriStartsStore.example(context: context) {
                let how =
                    shift == 0 ? "on the calendar's own day" : "a day \(shift < 0 ? "before" : "after") the calendar's"
                text +=
                    " When a month's first day is announced, save it; for 1 \(month.name) \(month.year) \(how):\n"
                    + "  praykit hijri set-start \(month) \(start)"
            }
            return try context.output.write(text + "\n")
        }
        var table = [["Month", "Name", "Announced start", "Calendar's start", "Shift", "Note"]]
        for (month, start, calendarStart, problem) in rows {
            let shift = calendarStart.map { start.daysSince1970 - $0.daysSince1970 }
            table.append([
                month.description, month.name, start.description, calendarStart?.description ?? "-",
                shift.map { $0 > 0 ? "+\($0)" : "\($0)" } ?? "-", problem.map { "not applied: " + $0 } ?? "",
            ])
        }
        let whose = query.mosque.map {
            "As \($0.escapingControlCharacters()) announced them, with your own for the months it did not:\n"
        }
        // With an offset, the header of 'praykit hijri', and what the column then means.
        let offset =
            query.offset == 0
            ? ""
            : "Calendar: \(query.calendar == .ummAlQura ? "Umm al-Qura" : "tabular (civil)"), offset "
                + "\(query.offset > 0 ? "+" : "")\(query.offset) day\(abs(query.offset) == 1 ? "" : "s") (the "
                + "calendar's start is the day the month begins on without the announcement)\n"
        try context.output.write((whose ?? "") + offset + Table.render(table))
    }
}

/// Checks and saves announced month starts, for `set-start`, `unset-start` and `import-starts`.
enum HijriStartsStore {
    /// The saved calendar and offset the overrides are checked against.
    static func calendar(_ saved: Preferences) -> (calendar: HijriCalendar, offset: Int) {
        let own = HijriCalendarChoice(saved: saved)
        return (own.calendar, own.offset)
    }

    /// What is wrong with `starts` around the months `changed`, in the saved calendar and offset:
    /// the changed months' own problems and those of their neighbours, earliest first.
    static func problems(
        _ starts: HijriMonthStarts, changed: [HijriMonthStarts.Month], saved: Preferences, context: CommandContext
    ) -> [(month: HijriMonthStarts.Month, problem: String)] {
        let (calendar, offset) = calendar(saved)
        let service = HijriServiceMonthStarts(base: context.dependency.hijriService(), starts: starts)
        let problems = service.problems(calendar: calendar, offset: offset)
        let near = Set(changed.flatMap { [$0.previous, $0, $0.next] })
        return problems.filter { near.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Warns of the recorded fasts that replacing the saved starts with `starts` moved out of Ramadan
    /// or onto an Eid.
    static func warnMovedFasts(saved: Preferences, starts: HijriMonthStarts, context: CommandContext) {
        guard let before = try? FastCommand.calendar(saved: saved, context: context),
            let after = try? FastCommand.calendar(saved: saved, context: context, starts: starts)
        else { return }
        FastCommand.warnMoved(before: before, after: after, context: context)
    }

    /// A start `set-start` accepts now, for the empty list's example: the next Ramadan, Shawwal or Dhu
    /// al-Hijjah (the months whose starts are announced) on the saved calendar, a day before its
    /// calendar's first day, else a day after, else on it — whichever makes no month other than 29 or
    /// 30 days; `nil` when the calendar cannot say.
    static func example(context: CommandContext) -> (month: HijriMonthStarts.Month, start: CivilDate, shift: Int)? {
        guard let saved = try? context.preferences() else { return nil }
        let (calendar, offset) = calendar(saved)
        let zone = saved[.timeZone].flatMap(TimeZoneName.init) ?? context.zones.local
        let service = context.dependency.hijriService().following(saved.hijriMonthStarts)
        guard let today = try? CivilDate(containing: context.now, in: zone),
            let now = try? service.days(for: HijriAPI.Request(date: today, calendar: calendar, offset: offset)).first
        else { return nil }
        let announced: [HijriMonth] = [.ramadan, .shawwal, .dhuAlHijjah]
        for year in [now.hijri.year, now.hijri.year + 1] {
            for name in announced {
                guard let month = try? HijriMonthStarts.Month(year: year, month: name.rawValue),
                    let first = try? HijriDate(year: year, month: name.rawValue, day: 1),
                    let start = try? service.day(of: first, calendar: calendar, offset: offset).gregorian,
                    start > today
                else { continue }
                for shift in [-1, 1, 0] {
                    var starts = saved.hijriMonthStarts
                    starts[month] = start.adding(days: shift)
                    if problems(starts, changed: [month], saved: saved, context: context).isEmpty {
                        return (month, start.adding(days: shift), shift)
                    }
                }
            }
        }
        return nil
    }

    /// The Hijri month a `YYYY-MM` argument names.
    /// - Throws: ``CLIError`` (usage) for a year outside the Hijri calendar.
    static func month(_ given: YearMonth) throws -> HijriMonthStarts.Month {
        do {
            return try HijriMonthStarts.Month(year: given.year, month: given.month)
        } catch {
            throw CLIError.usage(error.message)
        }
    }

    /// Saves `starts` as the `hijri-starts` preference (removes it when there are none).
    static func save(_ starts: HijriMonthStarts, context: CommandContext) throws {
        try context.dependency.preferences().update { preferences in
            if starts.isEmpty {
                preferences.unset(.hijriStarts)
            } else {
                try preferences.set(starts.description, for: .hijriStarts)
            }
        }
    }
}
