import Foundation
import PrayCore

/// `praykit log`: record prayers and look back at them.
struct LogCommand {
    static let name = "log"
    static let overview = "Record prayers as prayed, late, missed or made up, and see the log."
    static let usage = "praykit log record --prayer <name> --status <status> [--date <YYYY-MM-DD>] | list | stats"
    static let options: [OptionSpec] = [
        OptionSpec(
            name: "prayer", value: "name", help: "With 'record': the prayer.",
            choices: Prayer.obligatory.map(\.rawValue)
        ),
        OptionSpec(
            name: "status", value: "status", help: "With 'record': how it was kept.",
            choices: PrayerStatus.allCases.map(\.rawValue)
        ),
        OptionSpec(name: "date", value: "YYYY-MM-DD", help: "With 'record': the day.", defaultText: "today"),
        OptionSpec(
            name: "from", value: "YYYY-MM-DD", help: "With 'list': first day.", defaultText: "six days before --to"),
        OptionSpec(name: "to", value: "YYYY-MM-DD", help: "With 'list': last day.", defaultText: "today"),
        .timeZone("The zone that says what 'today' is."),
        .format(["table", "json"], help: "Output of 'list' and 'stats'."),
    ]

    static var help: String {
        HelpText.render(
            overview: overview, usage: usage, options: options,
            footer: """
                'record' returns once the entry is safely on disk. A prayer has one status a day; recording
                again replaces it (record 'qada' when a missed prayer is made up).

                EXAMPLES:
                  praykit log record --prayer fajr --status prayed
                  praykit log record --prayer isha --status missed --date 2026-11-28
                  praykit log list --from 2026-11-01 --format json
                  praykit log stats
                """
        )
    }

    enum Action {
        case record(Prayer, PrayerStatus, CivilDate)
        case list(CivilDate, CivilDate)
        case stats(CivilDate)
    }

    let action: Action
    let format: String

    init(_ arguments: ParsedArguments, environment: [String: String], now: Date) throws(CLIError) {
        func fail(_ message: String) -> CLIError { .usage(message, command: Self.name) }
        format = try CommandValues.format(arguments["format"], allowed: ["table", "json"], command: Self.name)
        let (zone, _) = try CommandValues.zone(arguments["tz"], environment: environment, command: Self.name)
        let today = LocalClock(timeZone: zone).components(now).day
        let words = arguments.positionals
        guard words.count == 1 else {
            throw fail(
                words.isEmpty ? "Missing subcommand: record, list or stats" : "Unexpected argument '\(words[1])'")
        }
        switch words[0] {
        case "record":
            guard let prayerText = arguments["prayer"] else {
                throw fail("Missing expected argument '--prayer <name>'")
            }
            guard let prayer = Prayer(rawValue: prayerText.lowercased()), prayer.isObligatory else {
                throw fail("--prayer must be one of fajr, dhuhr, asr, maghrib, isha, got '\(prayerText)'")
            }
            guard let status = try CommandValues.choice(arguments, "status", PrayerStatus.self, command: Self.name)
            else {
                throw fail("Missing expected argument '--status <status>'")
            }
            action = .record(prayer, status, try CommandValues.date(arguments, "date", command: Self.name) ?? today)
        case "list":
            let end = try CommandValues.date(arguments, "to", command: Self.name) ?? today
            let start = try CommandValues.date(arguments, "from", command: Self.name) ?? end.adding(days: -6)
            guard start <= end else { throw fail("--from \(start) is after --to \(end)") }
            action = .list(start, end)
        case "stats":
            action = .stats(today)
        default:
            throw fail("Unknown log subcommand '\(words[0])'")
        }
    }

    func run(store: any PrayerLogStore) throws(CLIError) -> String {
        do {
            switch action {
            case .record(let prayer, let status, let date):
                let entry = try store.record(status, for: prayer, on: date)
                return "\(entry.date) \(entry.prayer) \(entry.status)\n"
            case .list(let start, let end):
                return list(try store.entries(from: start, through: end))
            case .stats(let today):
                return stats(try store.statistics(today: today))
            }
        } catch let error as StorageError {
            throw .runtime(error.description)
        } catch let error as ValidationError {
            throw .usage(error.message, command: Self.name)
        } catch {
            throw .runtime("\(error)")
        }
    }

    private func list(_ entries: [PrayerLogEntry]) -> String {
        if format == "json" {
            return JSON.array(
                entries.map { entry in
                    .object([
                        ("date", .string(entry.date.description)), ("prayer", .string(entry.prayer.rawValue)),
                        ("status", .string(entry.status.rawValue)),
                        ("recordedAt", .string(PrayerLogEntry.timestamp(entry.recordedAt))),
                    ])
                }
            ).rendered() + "\n"
        }
        guard !entries.isEmpty else { return "No entries.\n" }
        return Table.render(
            [["Date", "Prayer", "Status", "Recorded"]]
                + entries.map {
                    [
                        $0.date.description, $0.prayer.rawValue, $0.status.rawValue,
                        PrayerLogEntry.timestamp($0.recordedAt),
                    ]
                }
        )
    }

    private func stats(_ statistics: PrayerLogStatistics) -> String {
        if format == "json" {
            return JSON.object([
                ("currentStreak", .int(statistics.currentStreak)), ("bestStreak", .int(statistics.bestStreak)),
                ("qadaOwed", .int(statistics.qadaOwed)), ("daysLogged", .int(statistics.daysLogged)),
                ("counts", .object(PrayerStatus.allCases.map { ($0.rawValue, .int(statistics.counts[$0] ?? 0)) })),
            ]).rendered() + "\n"
        }
        let counts = PrayerStatus.allCases.map { "\($0) \(statistics.counts[$0] ?? 0)" }.joined(separator: ", ")
        return """
            Current streak: \(statistics.currentStreak) day\(statistics.currentStreak == 1 ? "" : "s") with all five prayed
            Best streak: \(statistics.bestStreak) day\(statistics.bestStreak == 1 ? "" : "s")
            Qada owed: \(statistics.qadaOwed)
            Entries: \(counts) over \(statistics.daysLogged) day\(statistics.daysLogged == 1 ? "" : "s")

            """
    }
}
