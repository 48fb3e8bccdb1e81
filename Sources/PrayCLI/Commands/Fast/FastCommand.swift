import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit fast`: the fasts of Ramadan, the days made up, voluntary fasts — record, list, remove,
/// stats.
enum FastCommand: CommandGroup {
    static let name = "fast"
    static let abstract = "Record the fasts of Ramadan, the days made up and voluntary fasts, and see what is owed."
    static let discussion = """
        A day has one fast. fasted, missed and excused are for the days of Ramadan; made-up (qada) and
        voluntary for the other days, never a day fasting is forbidden (1 Shawwal, 10-13 Dhu al-Hijjah).
        Ramadan's days follow the saved Hijri calendar, offset and announced month starts ('praykit
        hijri set-start'), as 'praykit times --ramadan' does. Excused days (travel, illness, a woman's
        period) are made up like missed ones: 'stats' counts the days owed as the missed and excused
        days of every Ramadan recorded less the days made up (fidya, for those who cannot fast at all,
        is not counted here). When an announced month start ('hijri set-start', 'hijri import-starts')
        moves a recorded fast out of Ramadan or onto an Eid, the fast is kept as recorded, a warning
        names it and says what to do, and 'list' and 'stats' mark it, uncounted, until it is recorded
        again or removed (as for a start that comes through sync or a backup, or a new offset). With
        'praykit config set fast-suggestions on', 'praykit next' and
        'praykit times' suggest days for a voluntary fast: Mondays and Thursdays, the white days (13-15
        of each Hijri month), Arafah, Tasu'a and Ashura, and the six days of Shawwal.
        """
    static let examples = [
        "praykit fast record --status fasted",
        "praykit fast record --date 2027-02-14 --status excused --note travel",
        "praykit fast record --date 2027-04-05 --status made-up",
        "praykit fast list --from 2027-02-08 --to 2027-03-09 --format json",
        "praykit fast remove --date 2027-02-14",
        "praykit fast stats",
    ]
    static let subcommands: [any CommandNode.Type] = [
        FastRecordCommand.self, FastListCommand.self, FastRemoveCommand.self, FastStatsCommand.self,
    ]

    /// The rules of fasting on the Hijri calendar the person follows (``HijriCalendarChoice``: the
    /// chosen mosque's, else the saved calendar, offset and announced month starts).
    /// - Throws: What the stores throw.
    static func calendar(context: CommandContext) throws -> FastCalendar {
        try calendar(saved: context.preferences(), context: context)
    }

    /// The rules of fasting on the Hijri calendar `saved` follows (with `starts` as the person's own
    /// announced starts instead of the saved ones).
    /// - Throws: What the stores throw.
    static func calendar(saved: Preferences, context: CommandContext, starts: HijriMonthStarts? = nil) throws
        -> FastCalendar
    {
        var saved = saved
        if let starts {
            if starts.isEmpty {
                saved.unset(.hijriStarts)
            } else {
                try saved.set(starts.description, for: .hijriStarts)
            }
        }
        return calendar(try HijriCalendarChoice(saved: saved, mosques: context.dependency.mosqueTimetables()), context)
    }

    /// The rules of fasting on `choice`.
    static func calendar(_ choice: HijriCalendarChoice, _ context: CommandContext) -> FastCalendar {
        FastCalendar(
            hijri: context.dependency.hijriService().following(choice.starts), calendar: choice.calendar,
            offset: choice.offset)
    }

    /// Today in `--tz`, else the saved zone, else the system's (as `praykit log` has it).
    static func today(_ arguments: ParsedArguments, context: CommandContext) throws -> CivilDate {
        try LogCommand.today(arguments, context: context)
    }

    /// Every recorded fast.
    static func all(context: CommandContext) throws -> [FastEntry] {
        try context.dependency.fasts().entries(from: .first, through: .last)
    }

    /// The JSON of an entry, as the model encodes it, with its day's Hijri date (`1448-09-01`, as
    /// `times` and `fast stats` write one; `null` when the calendar cannot say) and what its day no
    /// longer allows (`null` when nothing).
    static func json(_ entry: FastEntry, hijri: String?, problem: String?) -> JSON {
        .object([
            ("date", .string(entry.date.description)), ("hijri", .string(hijri)),
            ("status", .string(entry.status.rawValue)),
            ("recordedAt", .string(PrayerLogEntry.timestamp(entry.recordedAt))), ("note", .string(entry.note)),
            ("problem", .string(problem)),
        ])
    }

    /// `3 days`, `1 day`.
    static func days(_ count: Int) -> String { "\(count) day\(count == 1 ? "" : "s")" }

    // MARK: - Fasts the calendar moved

    /// What a fast's day no longer allows, in words: `now 1 Shawwal 1447 (Eid al-Fitr), on which
    /// fasting is forbidden`.
    static func problem(_ conflict: FastConflict) -> String {
        let hijri = conflict.day.hijri
        let day = "now \(hijri.day) \(hijri.monthName) \(hijri.year)"
        switch conflict.problem {
        case .notRamadan: return "\(day), not a day of Ramadan"
        case .ramadan: return "\(day), a day of Ramadan: fasted, missed or excused"
        case .forbidden(let reason): return "\(day) (\(reason)), on which fasting is forbidden"
        }
    }

    /// What to do about it: the command that fixes it.
    static func remedy(_ conflict: FastConflict) -> String {
        let date = conflict.entry.date
        let remove = "praykit fast remove --date \(date)"
        switch (conflict.problem, conflict.entry.status) {
        case (.forbidden, _):
            return "if it was the Eid for you, remove it: \(remove)"
        case (.notRamadan, .fasted):
            return "if you fasted it, record it as voluntary (praykit fast record --date \(date) --status voluntary), "
                + "else remove it: \(remove)"
        case (.notRamadan, _):
            return "a day outside Ramadan is not owed: remove it: \(remove)"
        case (.ramadan, _):
            return "record how you kept it: praykit fast record --date \(date) --status fasted (or missed, excused)"
        }
    }

    /// `2026-03-19 is now 1 Shawwal 1447 (Eid al-Fitr), on which fasting is forbidden, but it is
    /// recorded as fasted: 'praykit fast stats' does not count it; if it was the Eid for you, remove it: …`.
    static func warning(_ conflict: FastConflict) -> String {
        "\(conflict.entry.date) is \(problem(conflict)), but it is recorded as \(conflict.entry.status): "
            + "'praykit fast stats' does not count it; \(remedy(conflict))"
    }

    /// Writes a warning on standard error for each recorded fast that moving from the calendar `before`
    /// to `after` leaves on a day that no longer allows it (an announced start moved it onto the Eid or
    /// out of Ramadan). A failure to read the fasts loses only the warnings.
    static func warnMoved(before: FastCalendar, after: FastCalendar, context: CommandContext) {
        guard let entries = try? all(context: context), !entries.isEmpty,
            let moved = try? after.moved(entries, before: before), !moved.isEmpty
        else { return }
        for conflict in moved { try? context.diagnostics.write("Warning: \(warning(conflict))\n") }
        try? context.diagnostics.flush()
    }

    /// The JSON of a suggestion's reasons: `[{"id":"white-day","name":"White day 13 Rajab"}]`.
    static func json(_ reasons: [FastReason]) -> JSON {
        .array(reasons.map { .object([("id", .string($0.id)), ("name", .string($0.name))]) })
    }

    /// Whether `fast-suggestions` is on.
    static func suggestionsOn(_ saved: Preferences) -> Bool {
        saved[.fastSuggestions] == "on"
    }

    /// The days of `start`…`start + count - 1` suggested for a voluntary fast (none recorded on them),
    /// on the Hijri calendar, offset and month starts of `request`, when `fast-suggestions` is on; `nil`
    /// when it is off. A failure loses only the suggestions.
    static func suggestions(
        from start: CivilDate, count: Int, request: PrayerAPI.Request, context: CommandContext
    ) -> [CivilDate: FastSuggestion]? {
        guard let saved = try? context.preferences(), suggestionsOn(saved) else { return nil }
        let fasts = FastCalendar(
            hijri: context.dependency.hijriService().following(request.hijriMonthStarts),
            calendar: request.hijriCalendar, offset: request.hijriOffset)
        let end = start.clampedAdding(days: count - 1)
        let recorded = Set((try? context.dependency.fasts().entries(from: start, through: end))?.map(\.date) ?? [])
        let found = (try? fasts.suggestions(from: start, count: count, recorded: recorded)) ?? []
        return Dictionary(found.map { ($0.day.gregorian, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
