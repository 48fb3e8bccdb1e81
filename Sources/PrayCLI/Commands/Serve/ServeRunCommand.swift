import Dispatch
import PrayCore
import PrayKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `praykit serve` without a verb (`praykit serve run`): the AlAdhan API, and with `--sync-store` the
/// sync endpoints, until SIGTERM or SIGINT.
enum ServeRunCommand: Command {
    static let name = "run"
    static let abstract = "Run the server: the AlAdhan API, and sync with --sync-store."
    static let discussion = "The default of 'praykit serve': see 'praykit serve --help'."
    static let examples = [
        "praykit serve --port 8080", "praykit serve --sync-store sqlite:/var/lib/praykit/sync.sqlite",
    ]

    /// The server's own defaults and limits, shown and checked by the options.
    private static let defaults = ServerAPI.Configuration()

    static let host = Option(
        "host", value: "address", help: "The IP address to listen on: 127.0.0.1, 0.0.0.0 (every IPv4), ::1 or ::.",
        default: defaults.host)
    static let port = Option(
        "port", value: "n", help: "The TCP port (0: any free port, printed on the first line).",
        default: defaults.port, range: ServerAPI.Configuration.ports)
    static let threads = Option<Int?>(
        "threads", value: "n", help: "Worker threads, each polling its own connections.",
        defaultText: "the number of cores", range: ServerAPI.Configuration.threadCounts)
    static let timeout = Option(
        "timeout", value: "seconds",
        help: "Seconds a client may take to send a whole request, head and body, or stay idle, before it is "
            + "disconnected.",
        default: Int(defaults.requestTimeout), range: ServerAPI.Configuration.requestTimeouts, unit: "seconds")
    static let connections = Option(
        "max-connections", value: "n", help: "The most connections open at once.", default: defaults.connectionLimit,
        range: ServerAPI.Configuration.connectionLimits)
    static let connectionsPerAddress = Option(
        "max-connections-per-address", value: "n",
        help: "The most connections open at once from one IP address (an IPv6 /64); 0 for no limit of its own.",
        default: defaults.connectionLimitPerAddress, range: ServerAPI.Configuration.connectionLimitsPerAddress)
    static let head = Option(
        "max-head", value: "bytes", help: "The longest request head (request line and header fields) accepted.",
        default: defaults.maximumRequestHeadBytes, range: ServerAPI.Configuration.requestHeadLimits, unit: "bytes")
    static let body = Option(
        "max-body", value: "bytes",
        help: "The longest request body accepted (a GET's body is read and ignored; with --sync-store, at least "
            + "\(SyncAPI.maximumBodyBytes) bytes, the sync endpoints' limit).",
        default: defaults.maximumRequestBodyBytes, range: ServerAPI.Configuration.requestBodyLimits, unit: "bytes")
    static let syncStore = Option<SyncStoreLocation?>(
        "sync-store", value: "store",
        help: "Serve sync at /sync/v1/ from this store: sqlite:PATH (created 0600 in a 0700 folder when missing), "
            + "or postgres://… without a password (see --sync-store-file).",
        defaultText: "$\(ServeSyncCommand.databaseURLVariable), else no sync")
    static let trustedProxy = Option<String>(
        "trusted-proxy", value: "address",
        help: "A reverse proxy (its IP address) whose X-Forwarded-For is believed: the client is the last "
            + "address it lists. For the per-address limits of sync behind HAProxy or nginx.",
        repeatable: true)
    static let hijriStarts = Option<String?>(
        "hijri-starts", value: "file",
        help: "Announced Hijri month starts (the 'hijri import-starts' format: 'YYYY-MM YYYY-MM-DD [source]' a "
            + "line) that every Hijri date the API answers follows, whatever its calendarMethod: for the server of "
            + "a mosque or a community.",
        completion: .file)
    static let display = Flag(
        "display",
        help: "Also serve the screen of the saved place at /display (its model at /display.json): the clock, "
            + "the day's times with the saved iqama and Jumu'ah (or the chosen mosque's: its timetable, settings "
            + "and notices), the next prayer's countdown, and live updates at /display/events; the machine stays "
            + "in sync while it runs. For a screen by the door, in Chromium's kiosk mode ('praykit display units', "
            + "docs/display.md).")
    static let insecureHTTP = Flag(
        "insecure-http",
        help: "Serve sync over plain HTTP on an address other machines can reach (behind a TLS proxy only).")

    static let options: [any OptionDefinition] = [
        host, port, threads, timeout, connections, connectionsPerAddress, head, body, syncStore,
        ServeSyncCommand.storeFile, trustedProxy, insecureHTTP, hijriStarts, display,
    ]

    /// The largest starts file read, as `hijri import-starts`.
    static let maximumStartsBytes = HijriImportStartsCommand.maximumBytes

    static func configure(
        _ configuration: inout PrayDependency.Configuration, _ arguments: ParsedArguments, environment: [String: String]
    ) throws {
        guard let path = arguments[hijriStarts] else { return }
        configuration.serverHijriMonthStarts = try monthStarts(path)
    }

    /// The starts of a file: every line checked (a start within days of where any calendar puts it;
    /// the server serves several calendars, so not more closely), nothing taken on any error.
    /// - Throws: ``CLIError`` (usage) naming the file and the line.
    static func monthStarts(_ path: String) throws -> HijriMonthStarts {
        guard let data = try? FileBytes.read(path: path, limit: maximumStartsBytes + 1) else {
            throw CLIError.usage("cannot read \(path)")
        }
        guard data.count <= maximumStartsBytes else { throw CLIError.usage("\(path) is larger than 1 MiB") }
        guard let text = String(data: data, encoding: .utf8) else { throw CLIError.usage("\(path) is not UTF-8 text") }
        var starts = HijriMonthStarts()
        do {
            let entries = try HijriMonthStarts.entries(parsingFile: text)
            guard !entries.isEmpty else { throw CLIError.usage("\(path) has no months") }
            let lines = HijriImportStartsCommand.lineNumbers(text)
            for entry in entries {
                do {
                    try HijriMonthStarts.checkPlausible(entry.start, for: entry.month)
                } catch {
                    throw ValidationError(
                        field: error.field, message: (lines[entry.month].map { "line \($0): " } ?? "") + error.message)
                }
                starts[entry.month] = entry.start
            }
        } catch let error as ValidationError {
            throw CLIError.usage("\(path) \(error.message); the server did not start")
        }
        return starts
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let location = try ServeSyncCommand.givenLocation(arguments, option: syncStore, context: context)
        let configuration = try configuration(arguments, sync: location != nil)
        let dependency = context.dependency
        // A database connection for each worker thread: a request holds one for its transaction.
        let store = try location.map { location in
            try ServeSyncCommand.checkedStore(at: location, connections: configuration.threads, context: context)
        }
        let screen = try await arguments[display] ? self.screen(context: context) : nil
        raiseOpenFileLimit(to: configuration.connectionLimit + 64)
        // The screen follows the saved place: its routes are made again when the place changes.
        let followed = screen.map { screen in
            FollowedScreen(screen) { screen in
                (dependency.displayRoutes(screen), dependency.pageRoutes(store: store, screen: screen))
            }
        }
        let routes = ServerRoutesCombined(
            api: dependency.serverRoutes(), sync: store.map { dependency.syncRoutes(store: $0) },
            display: followed?.display,
            pages: followed?.pages ?? store.map { dependency.pageRoutes(store: $0, screen: nil) })
        let server = try dependency.serverService().start(configuration, handler: routes.handler)
        let signals = TerminationSignals { Task { await server.shutdown() } }
        defer { signals.stop() }
        // A screen keeps its machine in sync, holding the server's event stream (as 'notify' does):
        // on a screen by the door this server is the one praykit that runs, and an iqama an editor
        // moves then reaches the open page within seconds. Nothing happens while sync is off.
        let scheduler = screen.map { _ in Task { await dependency.syncService().runScheduler() } }
        defer { scheduler?.cancel() }
        let follower = followed.map { followed in
            Task { await follow(followed, context: context, url: server.url.absoluteString) }
        }
        defer { follower?.cancel() }
        do {
            var lines = "Listening on \(server.url.absoluteString)\n"
            if let screen {
                let shown = try context.preferences()[.mosque] ?? screen.name ?? "the saved place"
                lines += "Display of \(shown) at \(server.url.absoluteString)/display\n"
                lines += "Month of \(shown) at \(server.url.absoluteString)/month\n"
            }
            if let location {
                lines += "Sync at \(server.url.absoluteString)/sync/v1/ from \(location)\n"
            }
            try context.output.write(lines)
            try context.output.flush()
        } catch {
            await server.shutdown()
            throw error
        }
        // Under systemd (`Type=notify`, as `praykit display units` writes it): the units that start
        // after this one — the screen's Chromium — start once the server listens.
        do {
            try SystemdNotify.send("READY=1", environment: context.environment)
        } catch {
            try? context.diagnostics.write("Warning: could not tell systemd the server is ready: \(error)\n")
            try? context.diagnostics.flush()
        }
        await server.waitUntilStopped()
    }

    /// Seconds between two looks at the saved place while a screen is shown.
    static let placeInterval: Duration = .seconds(5)

    /// Resolves the saved place again every ``placeInterval`` while the server runs, and shows it when
    /// it changed (`config set city`, another method), saying so on standard output. A place that
    /// cannot be resolved now (being saved) keeps the one shown.
    private static func follow(_ followed: FollowedScreen, context: CommandContext, url: String) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: placeInterval)
            } catch {
                return
            }
            guard let screen = try? await self.screen(context: context), followed.update(screen) else { continue }
            let shown = (try? context.preferences()[.mosque]) ?? screen.name ?? "the saved place"
            try? context.output.write("Display of \(shown) at \(url)/display (the saved place changed)\n")
            try? context.output.flush()
        }
    }

    /// The screen of the saved place (`--display`): its zone, method and iqama resolved as `praykit
    /// times` resolves them, named after the saved place (the chosen mosque's name and place, read at
    /// each answer, come first). A device with no place that follows a mosque with settings takes the
    /// mosque's place.
    /// - Throws: ``CLIError`` (usage) when no place is saved and no mosque with a place is chosen; what
    ///   the services throw.
    static func screen(context: CommandContext) async throws -> DisplayAPI.Screen {
        let saved = try context.preferences()
        var place = LocationAPI.Request(.saved)
        if (try? saved.coordinates()) == nil {
            guard let name = saved[.mosque], let settings = try context.dependency.mosqueTimetables().settings(of: name)
            else {
                throw CLIError.usage(
                    "--display shows the saved place's times: save one first with 'praykit config set city <name>' "
                        + "(or 'config set latitude' and 'config set longitude'), or follow a mosque "
                        + "('praykit mosque follow CODE --server URL')")
            }
            place = LocationAPI.Request(
                .coordinates(
                    try Coordinates(
                        latitude: settings.latitude, longitude: settings.longitude, elevation: settings.elevation)),
                timeZone: TimeZoneName(settings.timeZone))
        }
        let prepared = try await context.dependency.locationManager().prayerRequest(
            for: place, at: context.now, days: DisplayAPI.days)
        return DisplayAPI.Screen(prepared: prepared, name: saved[.placeName] ?? prepared.location.name)
    }

    /// The server's configuration from the options: with `sync`, a body limit of at least
    /// ``SyncAPI/maximumBodyBytes``, and an address other machines can reach only with `--insecure-http`.
    /// - Throws: ``CLIError`` (usage) for sync on such an address without `--insecure-http`;
    ///   ``ServerError`` for a value out of range.
    static func configuration(_ arguments: ParsedArguments, sync: Bool) throws -> ServerAPI.Configuration {
        var configuration = defaults
        configuration.host = arguments[host]
        configuration.port = arguments[port]
        configuration.threads = arguments[threads] ?? defaults.threads
        configuration.requestTimeout = TimeInterval(arguments[timeout])
        configuration.connectionLimit = arguments[connections]
        configuration.connectionLimitPerAddress = arguments[connectionsPerAddress]
        configuration.maximumRequestHeadBytes = arguments[head]
        configuration.maximumRequestBodyBytes = arguments[body]
        configuration.trustedProxies = arguments.all(trustedProxy)
        if sync {
            configuration.maximumRequestBodyBytes = max(configuration.maximumRequestBodyBytes, SyncAPI.maximumBodyBytes)
            guard configuration.listensOnLoopbackOnly || arguments[insecureHTTP] else {
                throw CLIError.usage(
                    "sync on \(configuration.host) would send device tokens across the network in plain text: "
                        + "listen on 127.0.0.1 or ::1 behind a TLS reverse proxy (nginx, caddy), or, when such a "
                        + "proxy on another machine forwards to this address, add --insecure-http")
            }
        }
        try configuration.validate()
        return configuration
    }

    /// Raises the soft limit of open files towards `count` (within the hard limit), so that the
    /// connection limit, not the default of 1024 descriptors, bounds the connections.
    private static func raiseOpenFileLimit(to count: Int) {
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
        _ = setrlimit(resource, &limit)
    }
}

/// SIGTERM and SIGINT while serving: each calls `stop` (a graceful shutdown) instead of ending the
/// process at once.
private final class TerminationSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ stop: @escaping @Sendable () -> Void) {
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
    }

    /// Stops handling the signals and restores their default action.
    func stop() {
        for source in sources { source.cancel() }
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
    }
}
