import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit mosque invite NAME --role editor|viewer`: a one-time code.
enum MosqueInviteCommand: Command {
    static let name = "invite"
    static let abstract = "Print a one-time code that gives a role in a mosque (15 minutes to 7 days)."
    static let discussion = """
        An owner invites editors and viewers, an editor viewers. The code works once, until it expires. A
        logged-in person redeems it with 'praykit mosque follow CODE'; a viewer's code also sets up a
        screen or a phone with no account: 'praykit mosque follow CODE --server URL' there.
        """
    static let role = Option<SyncRole>("role", value: "role", help: "What the code gives: editor or viewer.")
    static let expires = Option<Lifetime>(
        "expires", value: "duration", help: "How long the code works: 15m to 7d.", default: Lifetime(seconds: 86_400))
    static let arguments: [any ArgumentDefinition] = [MosqueCommand.mosque]
    static let options: [any OptionDefinition] = [role, expires]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let lifetime = arguments[expires].seconds
        guard (15 * 60...7 * 86_400).contains(lifetime) else {
            throw CLIError.usage("--expires must be 15m to 7d, got '\(arguments[expires].argumentDescription)'")
        }
        guard arguments[role] != .owner else {
            throw CLIError.usage("--role must be editor or viewer: a mosque has the owner who made it")
        }
        let sync = context.dependency.syncService()
        let name = arguments[MosqueCommand.mosque]
        let invitation = try await sync.invite(to: name, role: arguments[role], expiresIn: lifetime)
        let server = (try? sync.currentStatus().server) ?? "URL"
        var lines = [
            "Code for \(MosqueCommand.article(invitation.role)) \(invitation.role) of \(invitation.mosque): "
                + invitation.code,
            "It works once, until \(SyncAPI.timestamp(invitation.expiresAt)).",
            "A logged-in person: praykit mosque follow \(invitation.code)",
        ]
        if invitation.role == .viewer {
            lines.append(
                "A screen or phone without an account: praykit mosque follow \(invitation.code) --server \(server)")
        }
        try context.output.write(lines.joined(separator: "\n") + "\n")
    }
}
