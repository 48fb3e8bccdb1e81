import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit sync logout`: turns sync off on this device.
enum SyncLogoutCommand: Command {
    static let name = "logout"
    static let abstract = "Turn sync off on this device; the log and settings stay."
    static let discussion = """
        Refuses while changes have not reached the server, and says how many: run 'praykit sync now' first, or
        give --force. The data stays on this device either way, and the next login sends it again (the log,
        qada and fasts with the times they were recorded, so a newer value on the server still wins; at a
        login that prefers the server's settings, a setting the server also has replaces this device's, which
        'praykit sync conflicts' then keeps); only a waiting deletion is lost, since the server's row would
        come back. Where the server can be reached, it retires this device first (its token stops working
        there, and 'praykit serve sync devices list' shows it revoked); when it cannot, sync is still turned
        off here, and the operator can revoke the device later ('praykit serve sync devices revoke ID'), as
        for a lost machine. The device's token is deleted.
        """
    static let force = Flag(
        "force", help: "Log out even though changes have not reached the server (waiting deletions are dropped).")
    static let options: [any OptionDefinition] = [force]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let sync = context.dependency.syncService()
        let waiting = (try? sync.unsyncedCount()) ?? 0
        // Refused first (it says how many wait) rather than after the server retired the device.
        if waiting > 0, !arguments[force] { try sync.logout(force: false) }
        let retired: String
        do {
            retired = try await sync.retireDevice() ? " The server retired this device." : ""
        } catch {
            retired =
                " The server could not retire this device (\(error)); the operator can revoke it there:"
                + " 'praykit serve sync devices revoke ID'."
        }
        let dropped = try sync.logout(force: arguments[force])
        var note = ""
        if waiting > 0 {
            let kept = waiting - dropped
            note = " Of the \(SyncCommand.changes(waiting)) that had not reached the server, "
            note += dropped == 0 ? "none was dropped" : "\(dropped) (deletion\(dropped == 1 ? "" : "s")) dropped"
            note +=
                kept > 0 ? "; the data of the other \(kept) stays here and goes to the server at the next login." : "."
        }
        try context.output.write("Sync is off on this device.\(retired)\(note)\n")
    }
}
