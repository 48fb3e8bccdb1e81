import Foundation
import PrayCore

/// `praykit sync`: the log, the synced settings and the place on all of a person's devices, through a
/// `praykit serve --sync-store …` server (SYNC.md).
enum SyncCommand: CommandGroup {
    static let name = "sync"
    static let abstract = "Keep the log, settings and place the same on all your devices, through praykit serve."
    static let discussion = """
        Log in once with a pairing code from the server's administrator ('praykit serve sync users add NAME'
        prints one). From then on every change to the log, a synced setting or the saved place is kept in an
        outbox in the same transaction as the change, and sent when the server is reachable: after each
        write (briefly, never failing the write), every 30 minutes and a few seconds after a change while
        'praykit notify' runs, and on 'praykit sync now'. Nothing is lost while offline.

        Synced settings: the method and every calculation key, madhab, hijri-calendar, hijri-offset, iqama,
        iqama-rounding, jumuah, reminder-minutes, and the place as one record. Never synced: notify-hook
        and clock (they belong to one machine), and, for now, imported mosque timetables and the mosque
        setting that chooses one. The device token is kept beside the database in a file only you can
        read.
        """
    static let examples = [
        "praykit sync login --server https://pray.example.org --device-name laptop",
        "praykit sync status", "praykit sync now", "praykit sync failed --retry", "praykit sync logout",
    ]
    static let subcommands: [any CommandNode.Type] = [
        SyncStatusCommand.self, SyncLoginCommand.self, SyncNowCommand.self, SyncFailedCommand.self,
        SyncLogoutCommand.self, SyncResetCommand.self,
    ]
    static var defaultSubcommand: (any Command.Type)? { SyncStatusCommand.self }

    /// After a command changed synced data: a short cycle when sync is on, which never fails the
    /// command (the change waits in the outbox when the server is not reachable).
    static func afterWrite(_ context: CommandContext) async {
        _ = try? await withProgress(context) { await context.dependency.syncService().syncAfterWrite() }
    }

    /// Runs `work` (a login or a cycle) and, on a terminal, keeps one line on standard error up to date
    /// with what is left to send while it runs — a first sync of a long log takes seconds — then
    /// clears it. Elsewhere (a pipe, a file, a test) it only runs `work`.
    static func withProgress<T: Sendable>(
        _ context: CommandContext, _ work: () async throws -> T
    ) async throws -> T {
        guard context.diagnostics.isTerminal else { return try await work() }
        let diagnostics = context.diagnostics
        let progress = Task {
            for await status in context.dependency.syncService().status() where status.phase == .syncing {
                let left = status.unsyncedCount > 0 ? ": \(changes(status.unsyncedCount)) left to send" : ""
                try? diagnostics.write(verbatim: "\r\u{1B}[2KSyncing\(left)…")
                try? diagnostics.flush()
            }
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await work())
        } catch {
            result = .failure(error)
        }
        progress.cancel()
        await progress.value
        try? diagnostics.write(verbatim: "\r\u{1B}[2K")
        try? diagnostics.flush()
        return try result.get()
    }

    /// `3 min ago`, `2 h ago`, `4 days ago`: how long before `now`.
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default:
            let days = seconds / 86_400
            return "\(days) day\(days == 1 ? "" : "s") ago"
        }
    }

    /// `3 changes`.
    static func changes(_ count: Int) -> String { "\(count) change\(count == 1 ? "" : "s")" }
}

extension SyncLogin.Preference: ArgumentValue {}
