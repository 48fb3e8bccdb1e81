import Foundation
import PrayCore
import PrayKit
import PrayServices

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `praykit serve`: the AlAdhan prayer-times API over HTTP, calculated here, offline.
struct ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Serve the AlAdhan prayer-times API (api.aladhan.com/v1) over HTTP."
    static let discussion = """
        Answers the AlAdhan API's paths, parameters and JSON shapes from PrayKit's own calculation:
        /v1/timings/{DD-MM-YYYY}, /v1/calendar/{year}/{month}, /v1/hijriCalendar/{year}/{month},
        /v1/gToH/{date}, /v1/hToG/{date}, /v1/gToHCalendar/{month}/{year}, /v1/qibla/{lat}/{lon},
        /v1/methods, /v1/currentTime?zone=…, /status. Clients that speak AlAdhan work unchanged when
        pointed at this server. Without timezonestring a request's times are given in UTC, and
        meta.timezone says so.

        The first line on standard output is 'Listening on http://HOST:PORT' (with --port 0, the port
        the system chose). SIGTERM or SIGINT stops the server gracefully: it stops accepting, lets the
        requests in progress finish, then exits 0. Log lines go to standard error.

        The server keeps no state: run as many copies as needed behind any HTTP load balancer. Answers
        for a fixed date and place carry an ETag and Cache-Control: public, max-age=86400.
        """
    static let examples = [
        "praykit serve",
        "praykit serve --host 0.0.0.0 --port 8080 --threads 4",
        "curl 'http://127.0.0.1:8080/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=4"
            + "&timezonestring=Asia/Riyadh'",
    ]

    static let host = Option<String>(
        "host", value: "address", help: "The IP address to listen on: 127.0.0.1, 0.0.0.0 (every IPv4), ::1 or ::.",
        default: "127.0.0.1")
    static let port = Option<Int>(
        "port", value: "n", help: "The TCP port (0: any free port, printed on the first line).", default: "8080")
    static let threads = Option<Int>(
        "threads", value: "n", help: "Worker threads (1…256), each polling its own connections.",
        default: "the number of cores")
    static let timeout = Option<Int>(
        "timeout", value: "seconds",
        help: "Seconds a client may take to send a request, or stay idle, before it is disconnected (1…3600).",
        default: "15")
    static let connections = Option<Int>(
        "max-connections", value: "n", help: "The most connections open at once (1…1000000).", default: "4096")

    static let options: [any OptionDefinition] = [host, port, threads, timeout, connections]

    let configuration: ServerAPI.Configuration

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) {
        var configuration = ServerAPI.Configuration()
        configuration.host = try arguments.value(Self.host) ?? "127.0.0.1"
        configuration.port = try arguments.value(Self.port) ?? 8080
        configuration.threads = try arguments.value(Self.threads) ?? ProcessInfo.processInfo.activeProcessorCount
        configuration.requestTimeout = TimeInterval(try arguments.value(Self.timeout) ?? 15)
        configuration.connectionLimit = try arguments.value(Self.connections) ?? 4096
        do {
            try configuration.validate()
        } catch {
            throw context.usage(error.message)
        }
        self.configuration = configuration
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        let dependency = context.dependency
        let log = dependency.log()
        let routes = AlAdhanRoutes(
            prayers: (dependency.prayerService() as? PrayerServiceAstronomical) ?? PrayerServiceAstronomical(log: log),
            hijri: dependency.hijriService(), qibla: dependency.qiblaService(), lookups: Self.lookups(dependency),
            clock: context.clock, log: log)
        Self.raiseOpenFileLimit(to: configuration.connectionLimit + 64)
        let server: any RunningServer
        do {
            server = try dependency.serverService().start(configuration, handler: routes.handler)
        } catch let error as ServerError {
            throw error.kind == .startFailed ? .runtime(error.message) : context.usage(error.message)
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
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

    /// The zone and city lookups of the API: the offline zone boundaries for requests without
    /// `timezonestring`, and the places gazetteer for the `…ByCity` routes.
    static func lookups(_ dependency: any PrayKitDependency) -> AlAdhanRoutes.Lookups {
        let zones = dependency.timeZoneService()
        let places = dependency.placeService()
        return AlAdhanRoutes.Lookups(
            // Without `timezonestring`, the zone at the coordinates, as AlAdhan does (offline here).
            zone: { coordinates in (try? zones.timeZone(at: coordinates))?.timeZone },
            // `city` and `country` (and `state`) as one gazetteer query: "London, Canada".
            city: { query in
                let text = [query.city, query.state, query.country].compactMap { $0 }.filter { !$0.isEmpty }
                    .joined(separator: ", ")
                guard let place = (try? places.search(text, limit: 2))?.best, let zone = place.timeZone else {
                    return nil
                }
                return AlAdhanRoutes.Place(coordinates: place.coordinates, timeZone: zone)
            })
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
