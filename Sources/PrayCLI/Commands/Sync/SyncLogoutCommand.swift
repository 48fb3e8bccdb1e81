import Foundation
import PrayCore

/// `praykit sync logout`: turns sync off on this device.
enum SyncLogoutCommand: Command {
    static let name = "logout"
    static let abstract = "Turn sync off on this device; the log and settings stay."
    static let discussion = """
        Refuses while changes have not reached the server, and says how many: run 'praykit sync now' first,
        or give --force to drop them. The device's token is deleted; revoke the device on the server too
        ('praykit serve sync devices revoke ID') when the machine is lost.
        """
    static let force = Flag("force", help: "Log out even though changes have not been synced (they are dropped).")
    static let options: [any OptionDefinition] = [force]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let dropped = try context.dependency.syncService().logout(force: arguments[force])
        let note = dropped > 0 ? " \(SyncCommand.changes(dropped)) not yet synced were dropped." : ""
        try context.output.write("Sync is off on this device.\(note)\n")
    }
}
