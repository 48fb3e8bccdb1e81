import Foundation
import PrayCore
import PrayServices
import Synchronization

/// The container apps use: every service of `PrayKitDependency` (PrayCore), created once, on first
/// use, and shared.
///
/// ```swift
/// PrayDependency.configure(.init(minLogLevel: .info))   // optional, before first use
/// let dependency = PrayDependency()
/// let day = try await dependency.prayerManager().day(for: request)
/// ```
///
/// Each service is a stored `static let`, which Swift creates lazily and thread-safely the first
/// time it is read; services that need others read those lets. That is the whole wiring.
public struct PrayDependency: PrayKitDependency {
    /// Creates a handle on the shared services.
    public init() {}
}

// MARK: - Configuration

extension PrayDependency {
    /// What a process sets once, before the first service is used.
    public struct Configuration: Equatable, Sendable {
        /// The least important log level recorded.
        public var minLogLevel: LogLevel
        /// Where log events go; the console (standard error) by default.
        public var logServices: [any LogService]
        /// The database file.
        public var databasePath: String
        /// The published timetable ``PrayDependency/remotePrayerService()`` serves, if any.
        public var remoteTimetable: RemoteTimetable?
        /// Limits and retry policy of the HTTP client.
        public var network: NetworkServiceCurl.Options

        /// Creates a configuration.
        /// - Parameters:
        ///   - minLogLevel: The least important log level recorded; warnings by default.
        ///   - logServices: Where log events go; the console by default.
        ///   - databasePath: The database file; ``defaultDatabasePath(environment:)`` by default.
        ///   - remoteTimetable: The published timetable to serve, if any.
        ///   - network: Limits and retry policy of the HTTP client.
        public init(
            minLogLevel: LogLevel = .warning, logServices: [any LogService] = [LogServiceConsole()],
            databasePath: String = defaultDatabasePath(), remoteTimetable: RemoteTimetable? = nil,
            network: NetworkServiceCurl.Options = NetworkServiceCurl.Options()
        ) {
            self.minLogLevel = minLogLevel
            self.logServices = logServices
            self.databasePath = databasePath
            self.remoteTimetable = remoteTimetable
            self.network = network
        }

        /// `$PRAYKIT_DATABASE`, else `$XDG_DATA_HOME/praykit/praykit.sqlite`, else
        /// `~/.local/share/praykit/praykit.sqlite`.
        public static func defaultDatabasePath(
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> String {
            if let path = environment["PRAYKIT_DATABASE"], !path.isEmpty { return path }
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
                return (data as NSString).appendingPathComponent("praykit/praykit.sqlite")
            }
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            return (home as NSString).appendingPathComponent(".local/share/praykit/praykit.sqlite")
        }

        /// Compares the values and the kinds of log services.
        public static func == (lhs: Configuration, rhs: Configuration) -> Bool {
            lhs.minLogLevel == rhs.minLogLevel && lhs.databasePath == rhs.databasePath
                && lhs.remoteTimetable == rhs.remoteTimetable && lhs.network == rhs.network
                && sameKinds(lhs.logServices, rhs.logServices)
        }

        /// Whether two lists of log services have the same types in the same order (services are not
        /// comparable; their kinds are).
        static func sameKinds(_ lhs: [any LogService], _ rhs: [any LogService]) -> Bool {
            lhs.map { ObjectIdentifier(type(of: $0)) } == rhs.map { ObjectIdentifier(type(of: $0)) }
        }
    }

    /// Sets the configuration. Call it once, before any service is used; a later call with a
    /// different configuration is a programming error (it traps in debug builds and is ignored in
    /// release builds, where the first configuration stays).
    public static func configure(_ configuration: Configuration) {
        let accepted = ConfigurationStore.shared.set(configuration)
        assert(accepted, "PrayDependency.configure(_:) called after first use or with a different configuration")
    }

    /// The configuration in effect; reading it fixes it.
    static let configuration: Configuration = ConfigurationStore.shared.freeze()
}

/// The process's logging: where events go and from which level. Set once, before the container is
/// used (the CLI sets it from `--log-level`, `PRAYKIT_LOG_LEVEL` and `--log-file`).
///
/// ```swift
/// PrayLogging.configure(services: [LogServiceConsole(), try LogServiceFile(path: logPath)], minLevel: .info)
/// ```
public enum PrayLogging {
    /// Sets the log destinations and minimum level; they override those of
    /// ``PrayDependency/Configuration``. A second, different call, or one after the container was
    /// used, is a programming error (it traps in debug builds).
    public static func configure(services: [any LogService], minLevel: LogLevel) {
        let accepted = ConfigurationStore.shared.setLogging(services: services, minLevel: minLevel)
        assert(accepted, "PrayLogging.configure(services:minLevel:) called after first use or differently")
    }

    /// The minimum level named by `PRAYKIT_LOG_LEVEL` (`trace` … `critical`), or `nil`.
    public static func levelFromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> LogLevel?
    {
        environment["PRAYKIT_LOG_LEVEL"].flatMap { LogLevel(rawValue: $0.lowercased()) }
    }
}

/// The set-once configuration: open until first read, then fixed.
final class ConfigurationStore: Sendable {
    static let shared = ConfigurationStore()

    /// A store with nothing set (tests make their own; the process uses ``shared``).
    init() {}

    private struct State {
        var configuration: PrayDependency.Configuration?
        var logging: (services: [any LogService], minLevel: LogLevel)?
        var frozen = false
    }

    private let state = Mutex(State())

    /// Stores `configuration` unless the configuration was already read or set differently.
    func set(_ configuration: PrayDependency.Configuration) -> Bool {
        state.withLock { state in
            if let current = state.configuration { return current == configuration }
            guard !state.frozen else { return false }
            state.configuration = configuration
            return true
        }
    }

    /// Stores the logging unless the configuration was already read or logging set differently.
    func setLogging(services: [any LogService], minLevel: LogLevel) -> Bool {
        state.withLock { state in
            if let current = state.logging {
                return current.minLevel == minLevel
                    && PrayDependency.Configuration.sameKinds(current.services, services)
            }
            guard !state.frozen else { return false }
            state.logging = (services, minLevel)
            return true
        }
    }

    /// Fixes and returns the configuration: the one set (with the logging set), or the defaults.
    func freeze() -> PrayDependency.Configuration {
        state.withLock { state in
            state.frozen = true
            var configuration = state.configuration ?? PrayDependency.Configuration()
            if let logging = state.logging {
                configuration.logServices = logging.services
                configuration.minLogLevel = logging.minLevel
            }
            state.configuration = configuration
            return configuration
        }
    }
}

// MARK: - Log

extension PrayDependency {
    private static let logServices: [any LogService] = configuration.logServices
    private static let log = LogManager(services: logServices, minLevel: configuration.minLogLevel)

    /// The configured log destinations.
    public func logServices() -> [any LogService] { Self.logServices }
    /// The shared logger.
    public func log() -> LogManager { Self.log }
}

// MARK: - Prayer service

extension PrayDependency {
    private static let prayerService = PrayerServiceAstronomical(log: log)

    /// The astronomical prayer-time service.
    public func prayerService() -> any PrayerService { Self.prayerService }
}

// MARK: - Prayer manager

extension PrayDependency {
    private static let prayerManager = PrayerManager(service: prayerService, log: log)

    /// The prayer manager over ``prayerService()``.
    public func prayerManager() -> PrayerManager { Self.prayerManager }
}

// MARK: - Qibla

extension PrayDependency {
    private static let qiblaService = QiblaServiceGeodesic(log: log)

    /// The geodesic qibla service.
    public func qiblaService() -> any QiblaService { Self.qiblaService }
}

// MARK: - Hijri

extension PrayDependency {
    private static let hijriService = HijriServiceUmmAlQura(prayerService: prayerService, log: log)

    /// The Umm al-Qura Hijri service.
    public func hijriService() -> any HijriService { Self.hijriService }
}

// MARK: - Database

extension PrayDependency {
    /// The one database every store shares, opened on first use at ``Configuration/databasePath``.
    fileprivate static let database = SQLiteDatabase(path: configuration.databasePath, log: log)
}

// MARK: - Preferences

extension PrayDependency {
    private static let preferences = PreferencesStoreSQLite(database: database, log: log)

    /// The preferences in the database.
    public func preferences() -> any PreferencesStore { Self.preferences }
}

// MARK: - Prayer log

extension PrayDependency {
    private static let prayerLog = PrayerLogStoreSQLite(database: database, log: log)

    /// The prayer log in the database.
    public func prayerLog() -> any PrayerLogStore { Self.prayerLog }
}

// MARK: - Backup

extension PrayDependency {
    private static let backup = BackupServiceSQLite(database: database, log: log)

    /// Export and import of the database's user data.
    public func backup() -> any BackupService { Self.backup }
}

// MARK: - Location

extension PrayDependency {
    private static let timeZoneService = TimeZoneServiceBoundaries(log: log)
    private static let placeService = PlaceServiceGazetteer(log: log)
    private static let locationService = LocationServicePreferences(preferences: preferences, log: log)
    private static let locationManager = LocationManager(
        timeZoneService: timeZoneService, placeService: placeService, preferences: preferences,
        locationService: locationService, log: log
    )

    /// The offline time zone boundaries (timezone-boundary-builder, ODbL), loaded on first use.
    public func timeZoneService() -> any TimeZoneService { Self.timeZoneService }
    /// The offline gazetteer (GeoNames cities of 15,000 people or more, CC BY 4.0), loaded on first use.
    public func placeService() -> any PlaceService { Self.placeService }
    /// The saved place (the location on Linux).
    public func locationService() -> any LocationService { Self.locationService }
    /// The location manager over the services above and the preferences.
    public func locationManager() -> LocationManager { Self.locationManager }
}

// MARK: - Network

extension PrayDependency {
    private static let networkService = NetworkServiceCurl(options: configuration.network, log: log)

    /// The libcurl HTTP client.
    public func networkService() -> any NetworkService { Self.networkService }
}

// MARK: - Published timetables

extension PrayDependency {
    private static let remotePrayerService: any PrayerService =
        configuration.remoteTimetable.map { timetable in
            PrayerServiceRemote(timetable: timetable, network: networkService, database: database, log: log)
        } ?? UnconfiguredPrayerService()

    /// The published timetable of ``Configuration/remoteTimetable``; without one, a service that says
    /// so.
    public func remotePrayerService() -> any PrayerService { Self.remotePrayerService }
}

/// The remote prayer service when no timetable was configured.
private struct UnconfiguredPrayerService: PrayerService {
    func prayerTimes(for request: PrayerAPI.Request) async throws -> PrayerAPI.Response {
        throw PrayError(
            .unavailable, message: "no published timetable is configured: set Configuration.remoteTimetable"
        )
    }
}
