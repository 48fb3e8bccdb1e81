import Foundation
import PrayCore

/// `praykit log`: the prayer log — record, list, statistics, delete, export.
struct LogCommand: Command {
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
    static let subcommands: [any Command.Type] = [
        LogRecordCommand.self, LogListCommand.self, LogStatsCommand.self, LogDeleteCommand.self,
        LogExportCommand.self,
    ]

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        throw context.usage("Missing subcommand of 'log': record, list, stats, delete or export")
    }

    func run(_ context: CommandContext) async throws(CLIError) {}

    static let prayer = Option<String>(
        "prayer", value: "name", help: "The prayer: fajr, dhuhr, asr, maghrib, isha, a list (fajr,isha), or all.",
        completion: .list(Prayer.obligatory.map(\.rawValue) + ["all"]))
    static let date = Option<CivilDate>("date", value: "YYYY-MM-DD", help: "The day.", default: "today")
    static let timeZone = Option<String>(
        "tz", value: "zone", help: "The zone that says what 'today' is.", default: "the saved zone, else the system's",
        completion: .timeZone)

    /// The prayers of `--prayer`: one, a comma-separated list, or `all`.
    static func prayers(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> [Prayer] {
        guard let text = try arguments.value(prayer) else {
            throw context.usage("Missing expected argument '--prayer <name>'")
        }
        if text.lowercased() == "all" { return Prayer.obligatory }
        var prayers: [Prayer] = []
        for name in text.lowercased().split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) }) {
            guard let prayer = Prayer(rawValue: name), prayer.isObligatory else {
                let names = Prayer.obligatory.map(\.rawValue) + ["all"]
                throw context.usage(
                    "--prayer must be fajr, dhuhr, asr, maghrib, isha or all, got '\(name)'"
                        + Suggestion.didYouMean(name, among: names))
            }
            guard !prayers.contains(prayer) else { throw context.usage("--prayer names \(prayer) twice") }
            prayers.append(prayer)
        }
        guard !prayers.isEmpty else { throw context.usage("--prayer names no prayer") }
        return prayers
    }

    /// Today in `--tz`, else the saved zone, else the system's.
    static func today(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> CivilDate {
        let (zone, _) = try PlaceOptions.zone(
            arguments.value(timeZone), saved: try context.preferences()[.timeZone], context: context)
        return LocalClock(timeZone: zone).components(context.now).day
    }

    /// Runs a store call, turning its errors into the tool's.
    static func store<T>(_ context: CommandContext, _ body: (any PrayerLogStore) throws -> T) throws(CLIError) -> T {
        do { return try body(context.dependency.prayerLog()) } catch {
            throw CLIError(error, command: context.commandPath)
        }
    }

    /// The JSON of entries.
    static func json(_ entry: PrayerLogEntry) -> JSON {
        .object([
            ("date", .string(entry.date.description)), ("prayer", .string(entry.prayer.rawValue)),
            ("status", .string(entry.status.rawValue)),
            ("recordedAt", .string(PrayerLogEntry.timestamp(entry.recordedAt))),
        ])
    }
}
