import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit sync reset`: pull everything again.
enum SyncResetCommand: Command {
    static let name = "reset"
    static let abstract = "Fetch everything from the server again at the next sync; changes that wait are kept."
    static let discussion = """
        A repair: this device forgets how far it has read the server's changes, and the next sync reads them
        all again. Whatever is newer — here or on the server — wins, as always; nothing that waits is lost.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let sync = context.dependency.syncService()
        try sync.reset()
        let report = try await sync.syncNow()
        let rows = "\(report.received) row\(report.received == 1 ? "" : "s")"
        let changed = report.pulled == 0 ? "none changed anything here" : "\(report.pulled) changed something here"
        try context.output.write("Fetched everything again: \(rows) received, \(changed); \(report.pushed) sent.\n")
    }
}
