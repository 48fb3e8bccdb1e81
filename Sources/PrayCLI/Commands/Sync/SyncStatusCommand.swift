import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit sync status`: what a person looks at — last synced, what waits, failures, the server and
/// this device.
enum SyncStatusCommand: Command {
    static let name = "status"
    static let abstract = "Show when this device last synced, what waits, failures, the server and this device."
    static let format = Option<OutputFormat>.format([.table, .json])
    static let options: [any OptionDefinition] = [format]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let sync = context.dependency.syncService()
        let status = try sync.currentStatus()
        if arguments[format] == .json {
            func time(_ date: Date?) -> JSON { date.map { .string(SyncAPI.timestamp($0)) } ?? .null }
            func text(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }
            return try context.output.write(
                JSON.object([
                    ("phase", .string(status.phase.rawValue)), ("server", text(status.server)),
                    ("user", text(status.user)),
                    ("device", .object([("id", text(status.deviceID)), ("name", text(status.deviceName))])),
                    ("lastSynced", time(status.lastSynced)), ("unsynced", .int(status.unsyncedCount)),
                    ("oldestUnsynced", time(status.oldestUnsynced)), ("failed", .int(status.failedCount)),
                    ("lastError", text(status.lastError)), ("conflicts", .int(status.conflictCount)),
                    ("offlineReason", text(status.offlineReason?.rawValue)),
                    ("liveSince", time(status.liveSince)), ("liveError", text(status.liveError)),
                ]).rendered() + "\n")
        }
        try context.output.write(lines(status, now: context.now).joined(separator: "\n") + "\n")
    }

    /// Why the last cycle failed, in a few words.
    static func offlineWords(_ reason: SyncStatus.OfflineReason?) -> String {
        switch reason {
        case .unreachable?, nil: "the server could not be reached"
        case .serverUnavailable?: "the server is up but cannot sync now"
        case .rateLimited?: "the server asked this device to wait"
        case .failed?: "the last sync failed"
        }
    }

    /// The status in words.
    static func lines(_ status: SyncStatus, now: Date) -> [String] {
        guard status.phase != .off else {
            return ["Sync is off on this device. Log in with: praykit sync login --server URL"]
        }
        let last = status.lastSynced.map { "last synced \(SyncCommand.ago($0, now: now))" } ?? "never synced yet"
        let phase: String =
            switch status.phase {
            case .off, .idle: "on, \(last)"
            case .syncing: "syncing now, \(last)"
            case .offline: "offline (\(offlineWords(status.offlineReason))), \(last)"
            case .loggedOut:
                // A screen paired by a mosque's follow code has no login of its own to give again.
                status.user?.hasPrefix("follower/") == true
                    ? "logged out by the server (its follow code was revoked): 'praykit sync logout', then "
                        + "'praykit mosque follow NEWCODE --server URL' with a new code from the mosque's owner or an editor"
                    : "logged out by the server: log in again with 'praykit sync login'"
            case .needsLogin: "this database was copied from another machine: log in again with 'praykit sync login'"
            }
        var lines = ["Sync: \(phase)"]
        if let server = status.server {
            let user = status.user.map { " (user \($0))" } ?? ""
            lines.append("Server: \(server)\(user)")
        }
        if let name = status.deviceName {
            lines.append("This device: \(name)\(status.deviceID.map { " (\($0))" } ?? "")")
        }
        if let since = status.liveSince {
            lines.append("Live: yes, changes arrive as they happen (since \(SyncCommand.ago(since, now: now)))")
        } else {
            lines.append(
                "Live: no" + (status.liveError.map { " (\($0))" } ?? "")
                    + "; 'praykit notify' or 'praykit sync watch' holds the server's event stream")
        }
        if status.unsyncedCount > 0 {
            let oldest = status.oldestUnsynced.map { ", oldest \(SyncCommand.ago($0, now: now))" } ?? ""
            lines.append("Not yet synced: \(SyncCommand.changes(status.unsyncedCount))\(oldest)")
        } else {
            lines.append("Not yet synced: nothing")
        }
        if status.failedCount > 0 {
            lines.append(
                "Refused by the server: \(SyncCommand.changes(status.failedCount)) (see 'praykit sync failed')")
        }
        if !status.spacesNoLongerUpdated.isEmpty {
            lines.append(
                "No longer updated: " + status.spacesNoLongerUpdated.joined(separator: ", ")
                    + " (see 'praykit mosque list')")
        }
        if status.conflictCount > 0 {
            lines.append(
                "Replaced before they synced: \(status.conflictCount) value\(status.conflictCount == 1 ? "" : "s") "
                    + "of this device (see 'praykit sync conflicts')")
        }
        if let error = status.lastError, status.phase != .idle {
            lines.append("Last error: \(error)")
        }
        return lines
    }
}
