import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit serve sync migrate --from sqlite:PATH --to postgres://…`: a SQLite store moved into an
/// empty PostgreSQL database, every device keeping its token and its cursor.
enum ServeSyncMigrateCommand: Command {
    static let name = "migrate"
    static let abstract = "Copy a SQLite sync store into an empty PostgreSQL database; devices keep their cursors."
    static let discussion = """
        Copies everything the server keeps: the store's identity (which every device's cursor names), the
        users with their version counters, the devices (their tokens keep working), pairing codes,
        clients with their last mutation IDs, recent mutations, and every row with its version. After the
        move, each device pulls only what changed since its last sync: nobody logs in again and nothing
        is synced afresh.

        Stop the server first: the SQLite store is read in one snapshot, and a change made after it would
        not be copied. The database given by --to must hold no users (its schema is created when
        missing); the copy is one transaction there, so it ends with everything or nothing. Give the URL
        without a password (libpq reads it from ~/.pgpass, or the file PGPASSFILE names), or the whole
        URL in a file of yours alone (--sync-store-file) or in PRAYKIT_SYNC_DATABASE_URL. Then start
        'praykit serve --sync-store postgres://…' where the old server listened: devices need no change.
        On a terminal, a line on standard error shows how far the copy got.
        """
    static let examples = [
        "praykit serve sync migrate --from sqlite:/var/lib/praykit/sync.sqlite "
            + "--to 'postgresql:///praykit?host=/run/postgresql'",
        "praykit serve sync migrate --from sqlite:~/.local/share/praykit/sync-server.sqlite "
            + "--to postgres://praykit@db.example.org/praykit",
    ]
    static let source = Option<SyncStoreLocation>(
        "from", value: "store", help: "The SQLite store to copy: sqlite:PATH (the server stopped).")
    static let destination = Option<SyncStoreLocation?>(
        "to", value: "store", help: "The PostgreSQL database to copy into, without users: postgres://… (no password).",
        defaultText: "the URL in --sync-store-file, else $\(ServeSyncCommand.databaseURLVariable)")
    static let options: [any OptionDefinition] = [source, destination, ServeSyncCommand.storeFile]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let from = arguments[source]
        guard let to = try ServeSyncCommand.givenLocation(arguments, option: destination, context: context) else {
            throw CLIError.usage(
                "--to is required: the PostgreSQL database to copy into (or --sync-store-file, or "
                    + "\(ServeSyncCommand.databaseURLVariable), when the URL holds a password)")
        }
        guard case .sqlite = from else {
            throw CLIError.usage("--from must be a SQLite store (sqlite:PATH), got \(from)")
        }
        guard case .postgreSQL = to else {
            throw CLIError.usage("--to must be a PostgreSQL URL (postgres://… or postgresql://…), got \(to)")
        }
        let migrator = context.dependency.syncStoreMigrator()
        let line = ProgressLine(context.diagnostics)
        let report: SyncStoreCopyReport
        do {
            defer { line.clear() }
            report = try migrator.copy(from: from, to: to) { line.show($0) }
        } catch let error as StorageError {
            throw CLIError.runtime("nothing was copied: \(error.description)")
        }
        try context.output.write(summary(report, from: from, to: to))
    }

    /// `Copied 3 users, 7 devices, 12,345 rows, …`, and the identity kept.
    static func summary(_ report: SyncStoreCopyReport, from: SyncStoreLocation, to: SyncStoreLocation) -> String {
        let counts = [
            count(report.users, "user"), count(report.devices, "device"), count(report.rows, "row"),
            count(report.clients, "client"), count(report.recentMutations, "recent mutation"),
            count(report.pairingCodes, "pairing code"), count(report.failures, "failure count"),
        ]
        return """
            Copied \(counts.dropLast().joined(separator: ", ")) and \(counts[counts.count - 1])
            from \(from) to \(to).
            The store keeps its identity (\(report.storeID)): devices keep their cursors and tokens.
            Start the server with: praykit serve --sync-store '\(to)'

            """
    }

    /// `12,345 rows`, `1 user`.
    static func count(_ value: Int, _ noun: String) -> String {
        "\(grouped(value)) \(noun)\(value == 1 ? "" : "s")"
    }

    /// `12,345`: thousands grouped with commas, whatever the locale.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    /// On a terminal, one line on standard error kept up to date with the copy's progress (redrawn
    /// when the percentage changes), then cleared; elsewhere (a pipe, a file, a test) nothing.
    final class ProgressLine: Sendable {
        private let diagnostics: OutputSink
        private let shown = Mutex<Int?>(nil)

        init(_ diagnostics: OutputSink) {
            self.diagnostics = diagnostics
        }

        /// Redraws the line when the percentage changed.
        func show(_ progress: SyncStoreCopyProgress) {
            guard diagnostics.isTerminal else { return }
            let percent = progress.total > 0 ? progress.copied * 100 / progress.total : 100
            let changed = shown.withLock { shown in
                guard shown != percent else { return false }
                shown = percent
                return true
            }
            guard changed else { return }
            try? diagnostics.write(
                verbatim: "\r\u{1B}[2KCopying: \(grouped(progress.copied)) of \(grouped(progress.total)) records "
                    + "(\(percent)%)…")
            try? diagnostics.flush()
        }

        /// Clears the line, if one was drawn.
        func clear() {
            guard shown.withLock({ $0 }) != nil else { return }
            try? diagnostics.write(verbatim: "\r\u{1B}[2K")
            try? diagnostics.flush()
        }
    }
}
