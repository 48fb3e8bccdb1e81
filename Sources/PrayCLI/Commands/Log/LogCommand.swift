import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit log`: the prayer log — record, list, statistics, delete, export.
enum LogCommand: CommandGroup {
    static let name = "log"
    static let abstract = "Record prayers as prayed, late, missed or made up, and see the log."
    static let discussion = """
        'record' returns once the entries are safely on disk. A prayer has one status a day; recording
        again replaces it (record 'qada' when a missed prayer is made up).
        """
    static let examples = [
        "praykit log record --prayer fajr --status prayed",
        "praykit log record --prayer all --status prayed --date 2026-11-28",
        "praykit log list --from 2026-11-01 --format json",
        "praykit log delete --prayer isha --date 2026-11-28",
        "praykit log stats",
    ]
    static let subcommands: [any CommandNode.Type] = [
        LogRecordCommand.self, LogListCommand.self, LogStatsCommand.self, LogDeleteCommand.self,
        LogExportCommand.self,
    ]

    static let prayer = Option<PrayerList>(
        "prayer", value: "name", help: "The prayer: fajr, dhuhr, asr, maghrib, isha, a list (fajr,isha), or all.",
        completion: .list(Prayer.obligatory.map(\.rawValue) + ["all"]))
    static let date = Option<Day?>(
        "date", value: "day", help: "The day: YYYY-MM-DD, today, yesterday, +1 or -N.", defaultText: "today")
    static let timeZone = Option<String?>(
        "tz", value: "zone", help: "The zone that says what 'today' is.",
        defaultText: "the saved zone, else the system's", completion: .timeZone)

    /// The prayers of `--prayer`: one of the five, a list of them, or `all`.
    /// - Throws: ``CLIError`` (usage) for another time or one named twice.
    static func prayers(_ arguments: ParsedArguments) throws -> [Prayer] {
        try arguments[prayer].resolved(every: Prayer.obligatory, allowed: Prayer.obligatory, option: prayer.name)
    }

    /// Today in `--tz`, else the saved zone, else the system's.
    static func today(_ arguments: ParsedArguments, context: CommandContext) throws -> CivilDate {
        let zone = try PlaceOptions.zone(arguments, option: timeZone, context: context)
        return try CivilDate(containing: context.now, in: zone)
    }

    /// The JSON of entries.
    static func json(_ entry: PrayerLogEntry) -> JSON {
        .object([
            ("date", .string(entry.date.description)), ("prayer", .string(entry.prayer.rawValue)),
            ("status", .string(entry.status.rawValue)),
            ("recordedAt", .string(PrayerLogEntry.timestamp(entry.recordedAt))), ("note", .string(entry.note)),
        ])
    }
}
