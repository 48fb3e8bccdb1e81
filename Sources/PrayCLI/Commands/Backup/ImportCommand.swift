import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit import`: replaces all user data with a backup file — except the settings that run
/// programs or belong to this machine, which a file sets only with `--trust`.
enum ImportCommand: Command {
    static let name = "import"
    static let abstract =
        "Replace all preferences, the prayer log, fasts, qada and mosque timetables with a backup file."
    static let discussion = """
        The whole file is checked first: its shape, every value, no prayer logged twice on a day, at most
        \(limits). Then everything is replaced in one transaction: after a
        failure or an interruption the database is as it was. Use '-' to read standard input.

        Settings that run programs or belong to this machine (\(machineLocalNames)) are taken from a file
        only with --trust. Without it, this machine's own stay as they are, and a warning shows what the
        file held; with it, a warning shows what was taken.
        """
    static let examples = [
        "praykit import backup.json", "praykit export | ssh host praykit import -",
        "praykit import --trust my-own-backup.json",
    ]
    static let file = Argument<String>("file", help: "The backup file, or - for standard input.", completion: .file)
    static let trust = Flag(
        "trust", help: "Also take the settings that run programs or belong to this machine (\(machineLocalNames)).")
    static let options: [any OptionDefinition] = [trust]
    static let arguments: [any ArgumentDefinition] = [file]

    /// The limits of a backup in words: `64 MiB and 1000000 log entries`.
    static let limits = "\(UserData.maximumFileBytes / 1024 / 1024) MiB and \(UserData.maximumLogEntries) log entries"

    /// The machine-local settings by name: `notify-hook`.
    static var machineLocalNames: String { Preferences.Key.machineLocal.map(\.rawValue).joined(separator: ", ") }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        // One byte past the limit is enough to know the file is too large.
        let limit = UserData.maximumFileBytes + 1
        let data = try InputFile.read(arguments[file], limit: limit, context: context)
        let backup = try UserData.decoded(from: data)
        try backup.checkNotAhead(of: context.now)
        let trusted = arguments[trust]
        let local = Preferences.Key.machineLocal.filter { backup.preferences[$0] != nil }
        let kept = trusted ? [] : Set(Preferences.Key.machineLocal)
        try context.dependency.backup().importData(backup, keeping: kept)
        for key in local {
            let value = backup.preferences[key] ?? ""
            try context.diagnostics.write(
                trusted
                    ? "Warning: \(key) taken from the backup (--trust): '\(value)'\n"
                    : "Warning: the backup sets \(key) ('\(value)'), which runs a program or belongs to a machine; "
                        + "it was not imported and this machine's own is kept. Check it, then use --trust to take it.\n"
            )
        }
        let settings = backup.preferences.values.keys.filter { trusted || !$0.isMachineLocal }.count
        try context.output.write(summary(backup, settings: settings) + "\n")
        // Done is done: a failure to read the fasts back loses only the warning.
        if let fasts = try? FastCommand.calendar(context: context).conflicts(in: FastCommand.all(context: context)),
            !fasts.isEmpty
        {
            try context.diagnostics.write(
                "Warning: \(FastCommand.days(fasts.count)) \(fasts.count == 1 ? "has a fast its" : "have fasts their") "
                    + "Hijri date no longer allows (the calendar or an announced start moved since); 'praykit fast "
                    + "stats' lists \(fasts.count == 1 ? "it" : "them") and says what to do.\n")
        }
    }

    /// `Imported 5 settings, 4 log entries, 119 fasts, 8 qada entries and 2 mosque timetables (730
    /// days).`: everything the file replaced, and what it left as it was (a backup made before PrayKit
    /// kept fasts, qada or mosques has none of them).
    static func summary(_ backup: UserData, settings: Int) -> String {
        func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
        var parts = [count(settings, "setting", "settings"), count(backup.prayerLog.count, "log entry", "log entries")]
        var absent: [String] = []
        if let fasts = backup.fasts {
            parts.append(count(fasts.count, "fast", "fasts"))
        } else {
            absent.append("fasts")
        }
        if let qada = backup.qada {
            parts.append(count(qada.count, "qada entry", "qada entries"))
        } else {
            absent.append("qada entries")
        }
        if let mosques = backup.mosques {
            let days = mosques.reduce(0) { $0 + $1.days.count }
            parts.append(
                count(mosques.count, "mosque timetable", "mosque timetables")
                    + (mosques.isEmpty ? "" : " (\(count(days, "day", "days")))"))
        } else {
            absent.append("mosque timetables")
        }
        var text = "Imported " + list(parts)
        if !absent.isEmpty {
            text +=
                "; the file has no \(list(absent, or: true)) (made before PrayKit kept them), so those kept here "
                + "stay as they are"
        }
        return text + "."
    }

    /// `a, b and c` (or `a, b or c`).
    private static func list(_ items: [String], or: Bool = false) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + (items.last ?? "")
    }
}
