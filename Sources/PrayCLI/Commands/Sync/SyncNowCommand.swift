import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit sync now`: one cycle, now.
enum SyncNowCommand: Command {
    static let name = "now"
    static let abstract = "Send what waits and fetch what other devices changed, now."

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let sync = context.dependency.syncService()
        if context.diagnostics.isTerminal, let server = try sync.currentStatus().server {
            try context.diagnostics.write("Syncing with \(server)…\n")
        }
        let report = try await SyncCommand.withProgress(context) { try await sync.syncNow() }
        var line = "Synced: \(report.pushed) sent, \(report.pulled) received"
        if report.rejected > 0 {
            line += ", \(SyncCommand.changes(report.rejected)) refused by the server (see 'praykit sync failed')"
        }
        try context.output.write(line + ".\n" + MosqueCommand.goneLines(report.gone))
    }
}
