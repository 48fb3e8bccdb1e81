import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit mosque follow CODE [--server URL]`: joins a mosque with an invitation code.
enum MosqueFollowCommand: Command {
    static let name = "follow"
    static let abstract = "Follow a mosque with its code: join it, or (with --server) set up a screen."
    static let discussion = """
        On a logged-in device, the code adds you to the mosque with the role it gives, and its timetable,
        settings and notices arrive at once. With --server on a device that is not logged in (a screen by
        the door, a visitor's phone), a viewer's code pairs the device as a follower of that mosque alone:
        it reads the mosque and nothing else, and writes nothing. Then choose it: 'praykit config set
        mosque NAME'.
        """
    static let code = Argument<String>("code", help: "The code from 'praykit mosque invite'.")
    static let server = Option<String?>(
        "server", value: "url", help: "The sync server, to follow without an account (a screen).",
        defaultText: "this device's login")
    static let deviceName = Option<String?>(
        "device-name", value: "name", help: "With --server: this device's name on the server.",
        defaultText: "the host name")
    static let arguments: [any ArgumentDefinition] = [code]
    static let options: [any OptionDefinition] = [server, deviceName]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        do {
            try await follow(arguments, context: context)
        } catch let error as SyncError where error.kind == .pairingRefused {
            // A mosque's code comes from its owner or an editor, not from the server's operator (whose
            // `serve sync pair` makes a person's login code, which joins no mosque).
            throw CLIError.runtime(
                error.message + " (an owner or editor of the mosque makes a new one: "
                    + "'praykit mosque invite NAME --role viewer')")
        }
    }

    private static func follow(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let sync = context.dependency.syncService()
        let code = arguments[Self.code]
        let space: SyncSpaceInfo
        if let serverText = arguments[server] {
            guard let url = URL(string: serverText), url.scheme != nil, url.host != nil else {
                throw CLIError.usage("--server must be a URL such as https://pray.example.org, got '\(serverText)'")
            }
            if try sync.currentStatus().phase != .off {
                throw CLIError.usage(
                    "this device is logged in: follow without --server (or 'praykit sync logout' first)")
            }
            let login = SyncLogin(
                server: url, code: code, deviceName: arguments[deviceName] ?? SyncLogin.localHostName())
            _ = try await SyncCommand.withProgress(context) { try await sync.login(login) }
            guard let followed = try sync.spaces().first else {
                throw CLIError.runtime(
                    "the server paired this device, but the code is not a mosque's: it is logged in as a person's "
                        + "device ('praykit sync status')")
            }
            space = followed
        } else {
            space = try await SyncCommand.withProgress(context) { try await sync.join(code: code) }
        }
        let store = context.dependency.mosqueTimetables()
        let timetable = try store.mosques().first { $0.name == space.localName }
        var lines = [
            "Following \(space.localName) as \(MosqueCommand.article(space.space.role)) \(space.space.role)."
        ]
        if let timetable { lines.append("Its timetable: \(timetable.first) to \(timetable.last).") }
        // A device with no place of its own (a screen by the door) takes the mosque's, and its times.
        let settings = try store.settings(of: space.localName)
        let place =
            settings.map { ($0.latitude, $0.longitude, $0.elevation, $0.timeZone) }
            ?? timetable.map {
                ($0.coordinates.latitude, $0.coordinates.longitude, $0.coordinates.elevation, $0.timeZone)
            }
        if try context.preferences().coordinates() == nil, let place {
            try context.dependency.preferences().update { preferences in
                try preferences.set(String(place.0), for: .latitude)
                try preferences.set(String(place.1), for: .longitude)
                try preferences.set(String(place.2), for: .elevation)
                try preferences.set(place.3, for: .timeZone)
                // Named after the mosque: without it a screen shows no name once the mosque is unset.
                try? preferences.set(space.localName, for: .placeName)
                try preferences.set(space.localName, for: .mosque)
            }
            lines.append("This device had no place: it now uses the mosque's (\(place.3)) and its times.")
        } else if try context.preferences()[.mosque] != space.localName {
            lines.append("Use its times: praykit config set mosque \(space.localName.shellWord)")
        }
        try context.output.write(lines.joined(separator: "\n") + "\n")
    }
}
