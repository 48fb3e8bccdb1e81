import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit sync conflicts`: the local values a pulled row replaced before the server had them, to
/// keep or dismiss.
enum SyncConflictsCommand: Command {
    static let name = "conflicts"
    static let abstract = "List the values of this device that another device's later change replaced."
    static let discussion = """
        When two devices change the same thing before either has synced, the later change wins everywhere;
        the value this device lost is kept here, never silently gone. So are this device's settings when a
        login that prefers the server's settings replaced them. --keep ID makes this device's value the
        value again (a new change, sent at the next sync); --dismiss ID forgets it.
        """
    static let keep = Option<Int?>(
        "keep", value: "id", help: "Make this device's value of conflict ID the value again.", atLeast: 1)
    static let dismiss = Option<Int?>(
        "dismiss", value: "id", help: "Forget conflict ID; the value that won stays.", atLeast: 1)
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [keep, dismiss, format]
    static let examples = ["praykit sync conflicts", "praykit sync conflicts --keep 3"]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let sync = context.dependency.syncService()
        switch (arguments[keep], arguments[dismiss]) {
        case (.some, .some):
            throw CLIError.usage("--keep and --dismiss cannot be given together")
        case (let id?, nil):
            try sync.keepConflict(id: id)
            try context.output.write("Conflict \(id): this device's value is the value again; it syncs next.\n")
        case (nil, let id?):
            try sync.dismissConflict(id: id)
            try context.output.write("Conflict \(id) dismissed; the value that won stays.\n")
        case (nil, nil):
            let conflicts = try sync.conflicts()
            if arguments[format] == .json {
                return try context.output.write(JSON.array(conflicts.map(json)).rendered() + "\n")
            }
            guard !conflicts.isEmpty else { return try context.output.write("No conflicts.\n") }
            try context.output.write(conflicts.map { line($0, now: context.now) }.joined(separator: "\n") + "\n")
        }
    }

    /// `3  method: this device had isna, the server's umm-al-qura won (a login that prefers the
    /// server's settings), 2 min ago`.
    static func line(_ conflict: SyncConflict, now: Date) -> String {
        let local = conflict.localValue.map { $0.summary.escapingControlCharacters() } ?? "nothing (deleted)"
        let winner = conflict.winningValue.map { $0.summary.escapingControlCharacters() } ?? "nothing (deleted)"
        let why =
            switch conflict.reason {
            case .newerElsewhere: "another device's later change won"
            case .serverPreferred: "the login preferred the server's settings"
            }
        return "\(conflict.id)  \(what(conflict)): this device had \(local); now \(winner) — \(why), "
            + SyncCommand.ago(conflict.at, now: now)
    }

    /// The row in words: `method`, `the place`, `fajr on 2026-12-01`.
    static func what(_ conflict: SyncConflict) -> String {
        switch conflict.collection {
        case .pref: conflict.key
        case .place: "the place"
        case .log: "log " + conflict.key.replacing("/", with: " ")
        case .fast: "fast of " + conflict.key
        case .hijriStart: "start of Hijri month " + conflict.key
        default: conflict.collection.rawValue + " " + conflict.key.escapingControlCharacters()
        }
    }

    private static func json(_ conflict: SyncConflict) -> JSON {
        func value(_ value: SyncValue?) -> JSON { .string(value?.summary) }
        return .object([
            ("id", .int(conflict.id)), ("collection", .string(conflict.collection.rawValue)),
            ("key", .string(conflict.key)), ("local", value(conflict.localValue)),
            ("winner", value(conflict.winningValue)), ("reason", .string(conflict.reason.rawValue)),
            ("at", .string(SyncAPI.timestamp(conflict.at))),
        ])
    }
}
