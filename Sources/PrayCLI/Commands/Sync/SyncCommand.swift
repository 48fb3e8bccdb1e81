import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit sync`: the log, the synced settings and the place on all of a person's devices, through a
/// `praykit serve --sync-store …` server (SYNC.md).
enum SyncCommand: CommandGroup {
    static let name = "sync"
    static let abstract = "Keep the log, settings and place the same on all your devices, through praykit serve."
    static var discussion: String {
        """
        Log in once with a pairing code from the server's administrator ('praykit serve sync users add NAME'
        prints one). From then on every change to synced data is kept in an outbox in the same transaction as
        the change, and sent when the server is reachable: after each write (briefly, never failing the
        write), every 30 minutes and a few seconds after a change while 'praykit notify' runs, and on
        'praykit sync now'. Nothing is lost while offline.

        What syncs: \(syncedData).

        Synced settings: \(syncedSettings).

        Never synced: \(neverSynced) (they belong to one machine). The device token is kept beside the
        database in a file only you can read.
        """
    }

    /// What each collection holds, in a person's words: the one list help, the man page and the README
    /// say what syncs from (a test checks that every collection has its words).
    static let collectionWords: [SyncCollection: String] = [
        .log: "the prayer log", .pref: "the synced settings", .place: "the saved place (as one record)",
        .qada: "prayers to make up (qada)", .fast: "fasts", .hijriStart: "announced Hijri month starts",
        .mosque: "imported mosque timetables",
        .mosqueMonth: "a mosque space's timetable months", .mosqueSettings: "a mosque space's settings",
        .notice: "a mosque space's notices",
    ]

    /// Every collection's words, in the registry's order.
    static var syncedData: String {
        SyncCollection.all.map { collectionWords[$0] ?? $0.rawValue }.joined(separator: ", ")
    }

    /// The settings that sync, by name.
    static var syncedSettings: String {
        SyncRules.syncedPreferenceKeys.map(\.rawValue).sorted().joined(separator: ", ")
    }

    /// The settings that never sync: neither on the allowlist nor part of a record of their own (the
    /// place's keys and the month starts sync as `place` and `hijri-start` rows).
    static var neverSynced: String {
        let recorded: Set<Preferences.Key> = [.latitude, .longitude, .elevation, .timeZone, .placeName, .hijriStarts]
        return Preferences.Key.allCases.filter {
            !SyncRules.syncedPreferenceKeys.contains($0) && !recorded.contains($0)
        }
        .map(\.rawValue).sorted().joined(separator: ", ")
    }
    static let examples = [
        "praykit sync login --server https://pray.example.org --device-name laptop",
        "praykit sync status", "praykit sync now", "praykit sync watch", "praykit sync failed --retry",
        "praykit sync logout",
    ]
    static let subcommands: [any CommandNode.Type] = [
        SyncStatusCommand.self, SyncLoginCommand.self, SyncNowCommand.self, SyncFailedCommand.self,
        SyncConflictsCommand.self, SyncLogoutCommand.self, SyncResetCommand.self, SyncWatchCommand.self,
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
