import Foundation
import PrayCore
import PrayKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `praykit serve`: the AlAdhan prayer-times API over HTTP, calculated here, offline.
enum ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Serve the AlAdhan prayer-times API (api.aladhan.com/v1) over HTTP."
    static let discussion = """
        Answers the AlAdhan API's paths, parameters and JSON shapes from PrayKit's own calculation:
        /v1/timings/{DD-MM-YYYY}, /v1/calendar/{year}/{month}, /v1/hijriCalendar/{year}/{month},
        /v1/gToH/{date}, /v1/hToG/{date}, /v1/gToHCalendar/{month}/{year}, /v1/qibla/{lat}/{lon},
        /v1/methods, /v1/currentTime?zone=…, /status. Clients that speak AlAdhan work unchanged when
        pointed at this server. Without timezonestring a request's times are given in the zone at its
        coordinates (offline boundaries), as AlAdhan does, and meta.timezone names it; timezonestring
        takes any tz database name (Asia/Kolkata, US/Eastern), UTC or an offset. The …ByCity routes
        find cities in the offline gazetteer.

        method=N is AlAdhan's method N as AlAdhan defines it — its angles and intervals, no hidden
        minute adjustments, and the minutes api.aladhan.com itself adds to Dubai, Turkey, Morocco and
        Portugal, shown in meta.offset — not the preset of 'praykit times --method', which carries
        the Adhan libraries' minutes (dhuhr +1 and more); tune adds minutes. JAKIM (17) has fajr 18°,
        JAKIM's rule since November 2019, where AlAdhan still has 20°. Without method, a request gets
        the method of the country at its coordinates, as 'praykit times' chooses it (Muslim World
        League where the table has no row), not AlAdhan's nearest authority. method=99 needs
        methodSettings. /v1/methods gives each method's source and how PrayKit's arithmetic differs
        (Asr, midnight: a minute or two; midnightDay=same measures the night as AlAdhan does).

        The first line on standard output is 'Listening on http://HOST:PORT' (with --port 0, the port
        the system chose). SIGTERM or SIGINT stops the server gracefully: it stops accepting, lets the
        requests in progress finish, then exits 0. Log lines go to standard error.

        Limits: a client has --timeout seconds to send a whole request, head and body, however slowly
        it trickles; a request head over --max-head bytes gets 414 or 431, a body over --max-body 413;
        one address may hold --max-connections-per-address connections (behind a proxy every client
        has the proxy's address: raise it). Requests whose length or target a proxy could read
        otherwise (two Content-Length fields, Transfer-Encoding with Content-Length, a space before a
        field's colon, an HTTP/1.1 request without Host) get 400, and the connection is closed.

        The server keeps no state: run as many copies as needed behind any HTTP load balancer. Answers
        for a fixed date and place carry an ETag and Cache-Control: public, max-age=86400.
        """
    static let examples = [
        "praykit serve",
        "praykit serve --host 0.0.0.0 --port 8080 --threads 4",
        "curl 'http://127.0.0.1:8080/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=4"
            + "&timezonestring=Asia/Riyadh'",
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
        help: "The most connections open at once from one IP address; 0 for no limit of its own.",
        default: defaults.connectionLimitPerAddress, range: ServerAPI.Configuration.connectionLimitsPerAddress)
    static let head = Option(
        "max-head", value: "bytes", help: "The longest request head (request line and header fields) accepted.",
        default: defaults.maximumRequestHeadBytes, range: ServerAPI.Configuration.requestHeadLimits, unit: "bytes")
    static let body = Option(
        "max-body", value: "bytes", help: "The longest request body accepted (a GET's body is read and ignored).",
        default: defaults.maximumRequestBodyBytes, range: ServerAPI.Configuration.requestBodyLimits, unit: "bytes")

    static let options: [any OptionDefinition] = [
        host, port, threads, timeout, connections, connectionsPerAddress, head, body,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        var configuration = defaults
        configuration.host = arguments[host]
        configuration.port = arguments[port]
        configuration.threads = arguments[threads] ?? defaults.threads
        configuration.requestTimeout = TimeInterval(arguments[timeout])
        configuration.connectionLimit = arguments[connections]
        configuration.connectionLimitPerAddress = arguments[connectionsPerAddress]
        configuration.maximumRequestHeadBytes = arguments[head]
        configuration.maximumRequestBodyBytes = arguments[body]
        try configuration.validate()
        let dependency = context.dependency
        raiseOpenFileLimit(to: configuration.connectionLimit + 64)
        let server = try dependency.serverService().start(configuration, handler: dependency.serverRoutes().handler)
        let signals = TerminationSignals { Task { await server.shutdown() } }
        defer { signals.stop() }
        do {
            try context.output.write("Listening on \(server.url.absoluteString)\n")
            try context.output.flush()
        } catch {
            await server.shutdown()
            throw error
        }
        await server.waitUntilStopped()
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
