import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `praykit sync login`: pairs this device with a server using a one-time code.
enum SyncLoginCommand: Command {
    static let name = "login"
    static let abstract = "Pair this device with a praykit server using a one-time code, and sync."
    static let discussion = """
        The code comes from the server's administrator ('praykit serve sync users add NAME' or
        'praykit serve sync pair NAME'); it works once, for 15 minutes. Without --code it is read from the
        terminal (or the first line of standard input), so that it never shows in the process list.

        The first login sends the whole log. Settings and the place: with --prefer server (the default)
        the server's win where it has them; with --prefer local this device's do. Logging in again (after
        'sync logout', a revoked device or a copied database) keeps every change that waits and sends it.
        """
    static let examples = [
        "praykit sync login --server https://pray.example.org",
        "praykit sync login --server http://127.0.0.1:8080 --device-name desktop --prefer local",
    ]
    static let server = Option<String>(
        "server", value: "url", help: "The server: https://…, or http:// to 127.0.0.1 or ::1 only.")
    static let code = Option<String?>(
        "code", value: "code", help: "The pairing code.", defaultText: "read from the terminal or standard input")
    static let deviceName = Option<String?>(
        "device-name", value: "name", help: "This device's name on the server.", defaultText: "the host name")
    static let prefer = Option<SyncLogin.Preference>(
        "prefer", value: "side", help: "Whose settings and place win the first time.", default: .server)
    static let options: [any OptionDefinition] = [server, code, deviceName, prefer]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        guard let url = URL(string: arguments[server]), url.scheme != nil, url.host != nil else {
            throw CLIError.usage("--server must be a URL such as https://pray.example.org, got '\(arguments[server])'")
        }
        let code = try arguments[Self.code] ?? readCode(context)
        let name = arguments[deviceName] ?? SyncLogin.localHostName()
        if context.diagnostics.isTerminal {
            try context.diagnostics.write("Pairing with \(url.absoluteString) and syncing…\n")
        }
        let login = SyncLogin(server: url, code: code, deviceName: name, prefer: arguments[prefer])
        let sync = context.dependency.syncService()
        let status = try await SyncCommand.withProgress(context) { try await sync.login(login) }
        var lines = ["Logged in to \(status.server ?? url.absoluteString) as \(name)."]
        lines += SyncStatusCommand.lines(status, now: context.now)
        // What the server's values replaced is said, never done silently (they stay in the conflicts):
        // only a first login prefers the server's settings, and a logout forgets the conflicts before.
        let replaced =
            status.conflictCount == 0 ? [] : ((try? sync.conflicts()) ?? []).filter { $0.reason == .serverPreferred }
        if !replaced.isEmpty {
            lines.append("The server's values replaced this device's:")
            lines += replaced.map { "  " + SyncConflictsCommand.line($0, now: context.now) }
            lines.append("'praykit sync conflicts --keep ID' makes this device's value the value again.")
        }
        try context.output.write(lines.joined(separator: "\n") + "\n")
    }

    /// The code typed at the terminal, else the first line of standard input.
    static func readCode(_ context: CommandContext) throws -> String {
        if isatty(STDIN_FILENO) == 1 {
            try context.diagnostics.write("Pairing code: ")
            try context.diagnostics.flush()
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw CLIError.usage("no pairing code was typed; give one with --code")
            }
            return line
        }
        let text = String(decoding: context.readStandardInput(1024).prefix(1024), as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).first, !line.isEmpty else {
            throw CLIError.usage("no pairing code: give --code, type it at the terminal, or pipe it in")
        }
        return String(line)
    }
}
