import Foundation
import PrayCore

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
        is not counted here). With 'praykit config set fast-suggestions on', 'praykit next' and
        'praykit times' suggest days for a voluntary fast: Mondays and Thursdays, the white days (13-15
        of each Hijri month), Arafah, Tasu'a and Ashura, and the six days of Shawwal.
        """
    static let examples = [
        "praykit fast record --status fasted",
        "praykit fast record --date 2027-02-14 --status excused --note travel",
        "praykit fast record --date 2027-04-05 --status made-up",
        "praykit fast list --from 2027-02-08 --through 2027-03-09 --format json",
        "praykit fast remove --date 2027-02-14",
        "praykit fast stats",
    ]
    static let subcommands: [any CommandNode.Type] = [
        FastRecordCommand.self, FastListCommand.self, FastRemoveCommand.self, FastStatsCommand.self,
    ]

    /// The rules of fasting on the saved Hijri calendar, offset and announced month starts.
    /// - Throws: What the preferences store throws.
    static func calendar(context: CommandContext) throws -> FastCalendar {
        try calendar(saved: context.preferences(), hijri: context.dependency.hijriService())
    }

    /// The rules of fasting on the Hijri calendar, offset and month starts `saved`.
    static func calendar(saved: Preferences, hijri: any HijriService) -> FastCalendar {
        FastCalendar(
            hijri: hijri.following(saved.hijriMonthStarts),
            calendar: saved[.hijriCalendar].flatMap(HijriCalendar.init(rawValue:)) ?? .ummAlQura,
            offset: saved[.hijriOffset].flatMap { Int($0) } ?? 0)
    }

    /// Today in `--tz`, else the saved zone, else the system's (as `praykit log` has it).
    static func today(_ arguments: ParsedArguments, context: CommandContext) throws -> CivilDate {
        try LogCommand.today(arguments, context: context)
    }

    /// Every recorded fast.
    static func all(context: CommandContext) throws -> [FastEntry] {
        try context.dependency.fasts().entries(from: .first, through: .last)
    }

    /// The JSON of an entry, as the model encodes it.
    static func json(_ entry: FastEntry) -> JSON {
        .object([
            ("date", .string(entry.date.description)), ("status", .string(entry.status.rawValue)),
            ("recordedAt", .string(PrayerLogEntry.timestamp(entry.recordedAt))), ("note", .string(entry.note)),
        ])
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
