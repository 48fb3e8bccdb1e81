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

/// `praykit log record`.
struct LogRecordCommand: Command {
    static let name = "record"
    static let abstract = "Record how prayers were kept on a day (not more than a day ahead)."
    static let status = Option<PrayerStatus>("status", value: "status", help: "How it was kept.")
    static let options: [any OptionDefinition] = [LogCommand.prayer, status, LogCommand.date, LogCommand.timeZone]

    let prayers: [Prayer]
    let status: PrayerStatus
    let date: CivilDate

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        prayers = try LogCommand.prayers(arguments, context: context)
        guard let status = try arguments.value(Self.status) else {
            throw context.usage("Missing expected argument '--status <status>'")
        }
        self.status = status
        let today = try LogCommand.today(arguments, context: context)
        date = try arguments.value(LogCommand.date) ?? today
        guard date <= today.clampedAdding(days: 1) else {
            throw context.usage(
                "--date \(date) is in the future; prayers are recorded up to a day ahead (\(today.clampedAdding(days: 1)))"
            )
        }
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        var entries: [PrayerLogEntry] = []
        for prayer in prayers {
            do {
                entries.append(try PrayerLogEntry(date: date, prayer: prayer, status: status, recordedAt: context.now))
            } catch {
                throw CLIError(error, command: context.commandPath)
            }
        }
        // One transaction: all of them or none.
        if entries.count == 1 {
            let entry = try LogCommand.store(context) { try $0.record(status, for: prayers[0], on: date) }
            return try context.output.write("\(entry.date) \(entry.prayer) \(entry.status)\n")
        }
        try LogCommand.store(context) { try $0.record(entries) }
        try context.output.write(entries.map { "\($0.date) \($0.prayer) \($0.status)\n" }.joined())
    }
}

/// `praykit log list`.
struct LogListCommand: Command {
    static let name = "list"
    static let abstract = "List the entries of a range of days."
    static let from = Option<CivilDate>(
        "from", value: "YYYY-MM-DD", help: "First day.", default: "six days before --to")
    static let to = Option<CivilDate>("to", value: "YYYY-MM-DD", help: "Last day.", default: "today")
    static let format = Option<OutputFormat>.format([.table, .json, .csv])
    static let options: [any OptionDefinition] = [from, to, LogCommand.timeZone, format]

    let start: CivilDate
    let end: CivilDate
    let format: OutputFormat

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        let today = try LogCommand.today(arguments, context: context)
        end = try arguments.value(Self.to) ?? today
        start = try arguments.value(Self.from) ?? end.clampedAdding(days: -6)
        guard start <= end else { throw context.usage("--from \(start) is after --to \(end)") }
        format = try arguments.value(Self.format) ?? .table
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let entries = try LogCommand.store(context) { try $0.entries(from: start, through: end) }
        try LogListCommand.write(entries, format: format, to: context.output)
    }

    /// Writes entries as a table, JSON or CSV.
    static func write(_ entries: [PrayerLogEntry], format: OutputFormat, to output: OutputSink) throws(CLIError) {
        switch format {
        case .json:
            try JSON.writeArray(entries.lazy.map(LogCommand.json), to: output)
        case .csv:
            try output.write(CSV.row(["date", "prayer", "status", "recordedAt"]))
            for entry in entries {
                try output.write(
                    CSV.row([
                        entry.date.description, entry.prayer.rawValue, entry.status.rawValue,
                        PrayerLogEntry.timestamp(entry.recordedAt),
                    ]))
            }
        default:
            guard !entries.isEmpty else { return try output.write("No entries.\n") }
            try output.write(
                Table.render(
                    [["Date", "Prayer", "Status", "Recorded"]]
                        + entries.map {
                            [
                                $0.date.description, $0.prayer.rawValue, $0.status.rawValue,
                                PrayerLogEntry.timestamp($0.recordedAt),
                            ]
                        }))
        }
    }
}

/// `praykit log stats`.
struct LogStatsCommand: Command {
    static let name = "stats"
    static let abstract = "Print streaks, counts and the qada still owed."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [LogCommand.timeZone, format]

    let today: CivilDate
    let format: OutputFormat

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        today = try LogCommand.today(arguments, context: context)
        format = try arguments.value(Self.format) ?? .table
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let statistics = try LogCommand.store(context) { try $0.statistics(today: today) }
        if format == .json {
            return try context.output.write(
                JSON.object([
                    ("currentStreak", .int(statistics.currentStreak)), ("bestStreak", .int(statistics.bestStreak)),
                    ("qadaOwed", .int(statistics.qadaOwed)), ("daysLogged", .int(statistics.daysLogged)),
                    (
                        "counts",
                        .object(PrayerStatus.allCases.map { ($0.rawValue, .int(statistics.counts[$0] ?? 0)) })
                    ),
                ]).rendered() + "\n")
        }
        func days(_ count: Int) -> String { "\(count) day\(count == 1 ? "" : "s")" }
        let counts = PrayerStatus.allCases.map { "\($0) \(statistics.counts[$0] ?? 0)" }.joined(separator: ", ")
        try context.output.write(
            """
            Current streak: \(days(statistics.currentStreak)) with all five prayed
            Best streak: \(days(statistics.bestStreak))
            Qada owed: \(statistics.qadaOwed)
            Entries: \(counts) over \(days(statistics.daysLogged))

            """)
    }
}

/// `praykit log delete`.
struct LogDeleteCommand: Command {
    static let name = "delete"
    static let abstract = "Delete the entries of prayers on a day, and say what was deleted."
    static let date = Option<CivilDate>("date", value: "YYYY-MM-DD", help: "The day.")
    static let options: [any OptionDefinition] = [LogCommand.prayer, date]

    let prayers: [Prayer]
    let date: CivilDate

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        prayers = try LogCommand.prayers(arguments, context: context)
        guard let date = try arguments.value(Self.date) else {
            throw context.usage("Missing expected argument '--date <YYYY-MM-DD>'")
        }
        self.date = date
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let removed = try LogCommand.store(context) { try $0.delete(prayers, on: date) }
        guard !removed.isEmpty else {
            return try context.output.write(
                "No entries for \(prayers.map(\.rawValue).joined(separator: ", ")) on \(date); nothing deleted\n")
        }
        try context.output.write(removed.map { "Deleted \($0.date) \($0.prayer) \($0.status)\n" }.joined())
    }
}

/// `praykit log export`.
struct LogExportCommand: Command {
    static let name = "export"
    static let abstract = "Write the whole prayer log as CSV or JSON."
    static let format = Option<OutputFormat>.format([.csv, .json])
    static let options: [any OptionDefinition] = [format]

    let format: OutputFormat

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        format = try arguments.value(Self.format) ?? .csv
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let entries = try LogCommand.store(context) {
            try $0.entries(from: CivilDate.first, through: CivilDate.last)
        }
        try LogListCommand.write(entries, format: format, to: context.output)
    }
}
