import PrayCore
import PrayPlaces
import PrayServices
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The server is a Linux dependency of PrayKit (Package.swift). `os(Linux)` as well as `canImport`,
// because SwiftPM puts every Swift module it builds in one folder: on another platform a build of the
// whole package may have built PrayServer (for the benchmark) before PrayKit, and `canImport` alone
// would then see it.
#if os(Linux) && canImport(PrayServer)
    import PrayServer
#endif

/// The container apps use: every service of `PrayKitDependency` (PrayCore), created once, on first
/// use, and shared.
///
/// ```swift
/// try PrayDependency.configure(.init(minLogLevel: .info))   // optional, before first use
/// let dependency = PrayDependency()
/// let day = try await dependency.prayerManager().day(for: request)
/// ```
///
/// Each service is a stored `static let`, which Swift creates lazily and thread-safely the first
/// time it is read; services that need others read those lets. That is the whole wiring. The
/// managers are `PrayKitDependency`'s own, built from these services.
public struct PrayDependency: PrayKitDependency {
    /// Creates a handle on the shared services.
    public init() {}
}

// MARK: - Data notices

extension PrayDependency {
    /// The notices of the data the container's services carry (the zone boundaries and the
    /// gazetteer), to show where an app credits its sources.
    public static let dataNotices: [String] = [
        TimeZoneServiceBoundaries.dataNotice, PlaceServiceGazetteer.dataNotice,
    ]
}

// MARK: - Configuration

extension PrayDependency {
    /// What a process sets once, before the first service is used: where log events go and from
    /// which level, the database file, the published timetable and the HTTP client's limits.
    /// Two configurations are equal when their values are.
    public struct Configuration: Equatable, Sendable {
        /// The least important log level recorded.
        public var minLogLevel: LogLevel
        /// Where log events go; the console (standard error) by default.
        public var logDestinations: [LogDestination]
        /// The database file.
        public var databasePath: String
        /// The published timetable ``PrayDependency/remotePrayerService()`` serves, if any.
        public var remoteTimetable: RemoteTimetable?
        /// Limits and retry policy of the HTTP client.
        public var network: NetworkOptions
        /// The shell command ``PrayDependency/notificationService()`` runs for each reminder, over the
        /// saved `notify-hook`; when neither is set, desktop notifications.
        public var notificationHook: String?
        /// The program ``PrayDependency/soundService()`` plays sounds with; `nil` for the first of
        /// `pw-play`, `paplay` and `aplay` on `PATH`.
        public var soundPlayer: SoundPlayer.Kind?
        /// Announced Hijri month starts that every Hijri date of ``PrayDependency/serverRoutes()``
        /// follows (`praykit serve --hijri-starts`): a mosque's or a community's server. None by
        /// default.
        public var serverHijriMonthStarts = HijriMonthStarts()
        /// This device's identity for sync, which tells a database copied to another machine (a restore
        /// on a new phone) from the one it logged in on: an app on Apple platforms gives a stable one of
        /// its own (`UIDevice.current.identifierForVendor`); `nil` (the default) reads
        /// `/etc/machine-id`, else keeps a random one in the user's state folder (see
        /// `SyncJournal.currentMachineIdentity()`).
        public var machineIdentity: String?

        /// Creates a configuration.
        /// - Parameters:
        ///   - minLogLevel: The least important log level recorded; warnings by default.
        ///   - logDestinations: Where log events go; the console by default.
        ///   - databasePath: The database file; ``defaultDatabasePath(environment:application:)`` by default.
        ///   - remoteTimetable: The published timetable to serve, if any.
        ///   - network: Limits and retry policy of the HTTP client.
        ///   - notificationHook: A shell command run for each reminder, over the saved one.
        public init(
            minLogLevel: LogLevel = .warning, logDestinations: [LogDestination] = [.console],
            databasePath: String = defaultDatabasePath(), remoteTimetable: RemoteTimetable? = nil,
            network: NetworkOptions = NetworkOptions(), notificationHook: String? = nil
        ) {
            self.notificationHook = notificationHook
            self.minLogLevel = minLogLevel
            self.logDestinations = logDestinations
            self.databasePath = databasePath
            self.remoteTimetable = remoteTimetable
            self.network = network
        }

        /// `$PRAYKIT_DATABASE`, else the application's own data folder: on Apple platforms its
        /// Application Support folder, `…/<application>/praykit.sqlite`; elsewhere
        /// `$XDG_DATA_HOME/<application>/praykit.sqlite`, else
        /// `~/.local/share/<application>/praykit.sqlite`. The `praykit` tool's application name is
        /// `praykit`, so an app never writes into the tool's database by default.
        /// - Parameters:
        ///   - environment: The process environment.
        ///   - application: The folder's name; ``applicationName`` by default.
        public static func defaultDatabasePath(
            environment: [String: String] = ProcessInfo.processInfo.environment, application: String = applicationName
        ) -> String {
            if let path = environment["PRAYKIT_DATABASE"], !path.isEmpty { return path }
            let file = FilePath.appending("praykit.sqlite", to: application)
            #if canImport(Darwin)
                if let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                {
                    return support.appendingPathComponent(file).path
                }
            #endif
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
                return FilePath.appending(file, to: data)
            }
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FilePath.userHome()
            return FilePath.appending(".local/share/" + file, to: home)
        }

        /// The name an application's data folder has: its bundle identifier when it has one, else the
        /// name of its executable (`praykit` for the tool), reduced to letters, digits, `.`, `-`, `_`.
        public static var applicationName: String {
            #if canImport(Darwin)
                let name = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
            #else
                // No bundles on Linux: Bundle.main would only cost every command's start-up a search.
                let name = ProcessInfo.processInfo.processName
            #endif
            // Letters, marks and digits (CharacterSet.alphanumerics' categories), by the standard library.
            let kept = name.unicodeScalars.filter {
                switch $0.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                    .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                    return true
                default:
                    return ".-_".unicodeScalars.contains($0)
                }
            }
            let cleaned = String(String.UnicodeScalarView(kept))
            return cleaned.isEmpty || cleaned.hasPrefix(".") ? "praykit" : cleaned
        }

        /// The minimum level named by `PRAYKIT_LOG_LEVEL` (`trace` … `critical`, any case), or `nil`
        /// when it is unset or names no level.
        public static func logLevel(
            fromEnvironment environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> LogLevel? {
            environment["PRAYKIT_LOG_LEVEL"].flatMap { LogLevel(rawValue: $0.lowercased()) }
        }
    }

    /// A place log events go to. Destinations compare by value: a file by its path and limits, an
    /// app's own service by the name it is given.
    public enum LogDestination: Equatable, Sendable {
        /// One line per event on standard error (`LogServiceConsole`).
        case console
        /// Appended to a file, rotated at `maximumBytes` keeping `backups` old files
        /// (`LogServiceFile`); the file is opened by ``PrayDependency/configure(_:)``.
        case file(path: String, maximumBytes: Int = 5 * 1024 * 1024, backups: Int = 3)
        /// An app's own service, named so that two configurations can be compared.
        case service(name: String, any LogService)

        /// Compares kinds and values; services by their names.
        public static func == (lhs: LogDestination, rhs: LogDestination) -> Bool {
            switch (lhs, rhs) {
            case (.console, .console): true
            case (.file(let a, let aBytes, let aBackups), .file(let b, let bBytes, let bBackups)):
                a == b && aBytes == bBytes && aBackups == bBackups
            case (.service(let a, _), .service(let b, _)): a == b
            default: false
            }
        }
    }

    /// Why ``PrayDependency/configure(_:)`` refused a configuration.
    public typealias ConfigurationError = PrayKitError<ConfigurationErrorKind>

    /// What kind of failure a ``ConfigurationError`` is.
    public enum ConfigurationErrorKind: String, Hashable, Sendable {
        /// A different configuration was set before.
        case alreadyConfigured
        /// A service was used before the call, so the defaults are fixed.
        case calledAfterFirstUse
        /// A log file could not be opened.
        case logFile
    }

    /// Sets the configuration, once, before any service is used. Calling it again with an equal
    /// configuration does nothing.
    /// - Throws: ``ConfigurationError`` — in every build — for a second, different configuration, a
    ///   call after a service was used, or a log file that cannot be opened; the configuration in
    ///   effect is then unchanged.
    public static func configure(_ configuration: Configuration) throws(ConfigurationError) {
        try ConfigurationStore.shared.set(configuration)
    }

    /// The configuration in effect; reading it fixes it.
    static let configuration: Configuration = ConfigurationStore.shared.freeze()
}

/// The set-once configuration: open until first read, then fixed.
final class ConfigurationStore: Sendable {
    static let shared = ConfigurationStore()

    /// A store with nothing set (tests make their own; the process uses ``shared``).
    init() {}

    private struct State {
        var configuration: PrayDependency.Configuration?
        var logServices: [any LogService] = []
        /// Whether `configure` set the configuration (rather than first use fixing the defaults).
        var wasSet = false
        var frozen = false
    }

    private let state = Mutex(State())

    /// Stores `configuration` and opens its log destinations, unless the configuration was already
    /// read or set differently.
    /// - Throws: ``PrayDependency/ConfigurationError``.
    func set(_ configuration: PrayDependency.Configuration) throws(PrayDependency.ConfigurationError) {
        try state.withLock { state throws(PrayDependency.ConfigurationError) in
            if let current = state.configuration {
                guard current == configuration else {
                    throw PrayDependency.ConfigurationError(
                        state.frozen && !state.wasSet ? .calledAfterFirstUse : .alreadyConfigured,
                        message: state.frozen && !state.wasSet
                            ? "PrayDependency.configure(_:) was called after a service was used"
                            : "PrayDependency.configure(_:) was already called with a different configuration"
                    )
                }
                return
            }
            state.logServices = try Self.services(configuration.logDestinations)
            state.configuration = configuration
            state.wasSet = true
        }
    }

    /// Fixes and returns the configuration: the one set, or the defaults.
    func freeze() -> PrayDependency.Configuration {
        freezeWithServices().configuration
    }

    /// Fixes and returns the configuration with its opened log services.
    func freezeWithServices() -> (configuration: PrayDependency.Configuration, logServices: [any LogService]) {
        state.withLock { state in
            state.frozen = true
            if state.configuration == nil {
                let defaults = PrayDependency.Configuration()
                state.configuration = defaults
                state.logServices = (try? Self.services(defaults.logDestinations)) ?? [LogServiceConsole()]
            }
            return (state.configuration ?? PrayDependency.Configuration(), state.logServices)
        }
    }

    private static func services(
        _ destinations: [PrayDependency.LogDestination]
    ) throws(PrayDependency.ConfigurationError) -> [any LogService] {
        var services: [any LogService] = []
        for destination in destinations {
            switch destination {
            case .console: services.append(LogServiceConsole())
            case .service(_, let service): services.append(service)
            case .file(let path, let maximumBytes, let backups):
                do {
                    services.append(try LogServiceFile(path: path, maximumBytes: maximumBytes, backups: backups))
                } catch {
                    throw PrayDependency.ConfigurationError(.logFile, message: error.message)
                }
            }
        }
        return services
    }
}

// MARK: - Log

extension PrayDependency {
    private static let logServices: [any LogService] = ConfigurationStore.shared.freezeWithServices().logServices
    private static let log = LogManager(services: logServices, minLevel: configuration.minLogLevel)

    /// The configured log destinations.
    public func logServices() -> [any LogService] { Self.logServices }
    /// The shared logger.
    public func log() -> LogManager { Self.log }
}

// MARK: - Prayer service

extension PrayDependency {
    private static let prayerService = PrayerServiceAstronomical(log: log)
    private static let mosquePrayerService = PrayerServiceMosque(
        base: prayerService, store: mosqueTimetables, preferences: preferences)

    /// The astronomical prayer-time service, with the chosen mosque's imported times over it (the
    /// `mosque` preference).
    public func prayerService() -> any PrayerService { Self.mosquePrayerService }
    /// The astronomical calculation, synchronous.
    public func prayerCalculator() -> any PrayerCalculator { Self.prayerService }
}

// MARK: - Clock

extension PrayDependency {
    private static let clock = PrayClockWall()

    /// The wall clock (its waits end at the right time of day after a suspend): what the stores stamp
    /// changes with, what sync's stamps and the server's offset start from, and what reminders wait on.
    public func clock() -> any PrayClock { Self.clock }
}

// MARK: - Qibla

extension PrayDependency {
    private static let qiblaService = QiblaServiceGeodesic(log: log)

    /// The geodesic qibla service.
    public func qiblaService() -> any QiblaService { Self.qiblaService }
}

// MARK: - Magnetic field

extension PrayDependency {
    private static let magneticFieldService = MagneticFieldServiceWMM(log: log)

    /// The World Magnetic Model (WMM2025).
    public func magneticFieldService() -> any MagneticFieldService { Self.magneticFieldService }
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
    /// Sync's journal, shared by every store and the sync service: a store that writes an outbox entry
    /// is what tells the sync service that a change waits (``SyncService/needsSyncAfterWrite``).
    fileprivate static let journal: SyncJournal = {
        guard let identity = configuration.machineIdentity, !identity.isEmpty else { return SyncJournal() }
        return SyncJournal(machineIdentity: { identity })
    }()

    /// Closes the database connection, so that no file of it is held open (an app going to the
    /// background, a test that replaces the file). The next use opens it again; nothing is lost.
    public static func closeDatabase() {
        database.close()
    }
}

// MARK: - Preferences

extension PrayDependency {
    private static let preferences = PreferencesStoreSQLite(
        database: database, log: log, clock: clock, journal: journal)

    /// The preferences in the database.
    public func preferences() -> any PreferencesStore { Self.preferences }
}

// MARK: - Prayer log

extension PrayDependency {
    private static let prayerLog = PrayerLogStoreSQLite(database: database, log: log, clock: clock, journal: journal)

    /// The prayer log in the database.
    public func prayerLog() -> any PrayerLogStore { Self.prayerLog }
}

// MARK: - Mosque timetables

extension PrayDependency {
    private static let mosqueTimetables = MosqueTimetableStoreSQLite(
        database: database, log: log, clock: clock, journal: journal)

    /// The imported mosque timetables in the database.
    public func mosqueTimetables() -> any MosqueTimetableStore { Self.mosqueTimetables }
}

// MARK: - Prayers to make up

extension PrayDependency {
    private static let qada = QadaStoreSQLite(database: database, log: log, clock: clock, journal: journal)

    /// The prayers to make up (qada) in the database.
    public func qada() -> any QadaStore { Self.qada }
}

// MARK: - Fasts

extension PrayDependency {
    private static let fasts = FastStoreSQLite(database: database, log: log, clock: clock, journal: journal)

    /// The recorded fasts in the database.
    public func fasts() -> any FastStore { Self.fasts }
}

// MARK: - Backup

extension PrayDependency {
    private static let backup = BackupServiceSQLite(database: database, log: log, clock: clock, journal: journal)

    /// Export and import of the database's user data.
    public func backup() -> any BackupService { Self.backup }
}

// MARK: - Sync

extension PrayDependency {
    private static let syncService = SyncServiceHTTP(
        database: database, network: networkService, clock: clock, log: log, journal: journal)

    /// Sync of this database's log, synced settings and place with a `praykit serve` peer, over the
    /// container's network service; the token is kept beside the database, 0600.
    public func syncService() -> any SyncService { Self.syncService }
}

// MARK: - Location

extension PrayDependency {
    private static let timeZoneService = TimeZoneServiceBoundaries(log: log)
    private static let placeService = PlaceServiceGazetteer(log: log)
    private static let locationService = LocationServicePreferences(preferences: preferences, log: log)

    /// The offline time zone boundaries (timezone-boundary-builder, ODbL), loaded on first use.
    public func timeZoneService() -> any TimeZoneService { Self.timeZoneService }
    /// The offline gazetteer (GeoNames cities of 15,000 people or more, CC BY 4.0), loaded on first use.
    public func placeService() -> any PlaceService { Self.placeService }
    /// The saved place (the location on Linux).
    public func locationService() -> any LocationService { Self.locationService }
}

// MARK: - Network

extension PrayDependency {
    #if canImport(CCurl)
        private static let networkService = NetworkServiceCurl(options: configuration.network, log: log, clock: clock)
    #else
        private static let networkService = NetworkServiceURLSession(
            options: configuration.network, log: log, clock: clock)
    #endif

    /// The HTTP client: libcurl on Linux (loaded on first use), Foundation's URLSession elsewhere.
    public func networkService() -> any NetworkService { Self.networkService }
}

// MARK: - MQTT

extension PrayDependency {
    #if canImport(CMosquitto)
        private static let mqttService: any MQTTService = MQTTServiceMosquitto(log: log)
    #else
        private static let mqttService: any MQTTService = MQTTServiceUnavailable()
    #endif

    /// The MQTT client: libmosquitto on Linux (loaded when the first connection opens); elsewhere a
    /// client that says it is not there.
    public func mqttService() -> any MQTTService { Self.mqttService }
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

// MARK: - Notifications

extension PrayDependency {
    private static let notificationService = NotificationServicePreferred(
        hook: configuration.notificationHook, preferences: preferences, log: log)

    /// The configured hook (``Configuration/notificationHook``), else the saved `notify-hook`, else
    /// desktop notifications.
    public func notificationService() -> any NotificationService { Self.notificationService }
}

// MARK: - Printing

extension PrayDependency {
    private static let pdfService = PDFServiceConverter(log: log)

    /// WeasyPrint, else wkhtmltopdf, found on `PATH` when a PDF is asked for.
    public func pdfService() -> any PDFService { Self.pdfService }
}

// MARK: - Sounds

extension PrayDependency {
    private static let soundService = SoundServiceProgram(kind: configuration.soundPlayer, log: log)
    private static let reminderState = ReminderStateStoreFile(databasePath: configuration.databasePath)
    private static let homeAssistantState = ReminderStateStoreFile(
        databasePath: configuration.databasePath, daemon: "mqtt")

    /// The configured player (``Configuration/soundPlayer``), else the first of `pw-play`, `paplay`
    /// and `aplay` on `PATH`, found when it is first used.
    public func soundService() -> any SoundService { Self.soundService }

    /// The daemon's record and pid file beside the database (``Configuration/databasePath``).
    public func reminderState() -> any ReminderStateStore { Self.reminderState }

    /// The MQTT publisher's record and pid file beside the database (`praykit.mqtt-record`,
    /// `praykit.mqtt-pid`).
    public func homeAssistantState() -> any ReminderStateStore { Self.homeAssistantState }
}

// MARK: - Server

#if os(Linux) && canImport(PrayServer)
    extension PrayDependency {
        private static let serverService = ServerServiceMicroHTTPD(log: log, clock: clock)

        /// The libmicrohttpd HTTP server (loaded when a server starts).
        public func serverService() -> any ServerService { Self.serverService }
    }
#else
    extension PrayDependency {
        private static let serverService = ServerServiceUnavailable()

        /// No server on this platform (PrayServer is linked on Linux only): `start` throws `ServerError`
        /// (`startFailed`) saying so.
        public func serverService() -> any ServerService { Self.serverService }
    }
#endif

// MARK: - Server routes

#if os(Linux) && canImport(PrayServer)
    extension PrayDependency {
        private static let serverRoutes = AlAdhanRoutes(
            calculator: prayerService,
            hijri: configuration.serverHijriMonthStarts.isEmpty
                ? hijriService : hijriService.following(configuration.serverHijriMonthStarts),
            qibla: qiblaService, lookups: .init(PrayDependency().locationManager()), clock: clock, log: log)

        /// The AlAdhan API over the services above; its Hijri dates follow the configuration's
        /// ``Configuration/serverHijriMonthStarts``.
        public func serverRoutes() -> any ServerRoutes { Self.serverRoutes }

        /// The screen (`DisplayRoutes`, PrayServer) over the calculation, the Hijri calendar, the
        /// mosque timetables, the preferences and the clock above.
        public func displayRoutes(_ screen: DisplayAPI.Screen) -> any ServerRoutes {
            DisplayRoutes(
                screen: screen, calculator: Self.prayerService, hijri: Self.hijriService,
                mosques: Self.mosqueTimetables, preferences: Self.preferences, clock: Self.clock, log: Self.log)
        }

        /// The country at a place, for a published mosque's method (the AlAdhan routes' lookup).
        private static let pageCountry = AlAdhanRoutes.Lookups(PrayDependency().locationManager()).country

        /// The pages (`PageRoutes`, PrayServer) over the calculation, the Hijri calendar, the mosque
        /// timetables, the preferences, the country lookup and the clock above.
        public func pageRoutes(store: (any SyncStore)?, screen: DisplayAPI.Screen?) -> any ServerRoutes {
            PageRoutes(
                store: store, screen: screen, calculator: Self.prayerService, hijri: Self.hijriService,
                mosques: Self.mosqueTimetables, preferences: Self.preferences, country: Self.pageCountry,
                clock: Self.clock, log: Self.log)
        }
    }
#else
    extension PrayDependency {
        private static let serverRoutes = ServerServiceUnavailable.Routes()

        /// No server on this platform: routes that answer every request with 501 Not Implemented.
        public func serverRoutes() -> any ServerRoutes { Self.serverRoutes }

        /// No server on this platform: routes that answer every request with 501 Not Implemented.
        public func displayRoutes(_ screen: DisplayAPI.Screen) -> any ServerRoutes { Self.serverRoutes }

        /// No server on this platform: routes that answer every request with 501 Not Implemented.
        public func pageRoutes(store: (any SyncStore)?, screen: DisplayAPI.Screen?) -> any ServerRoutes {
            Self.serverRoutes
        }
    }
#endif

// MARK: - Sync server

// The sync server's stores and their migrator are PrayServer's, linked on Linux only, as the server.
#if os(Linux) && canImport(PrayServer)
    extension PrayDependency {
        /// A SQLite store (`SyncStoreSQLite`, PrayServer) at the location's file, or a PostgreSQL store
        /// (`SyncStorePostgres`, libpq loaded on first use) at the location's URL; either is opened on
        /// first use.
        /// - Throws: ``SyncStoreError`` (`unsupported`) for a PostgreSQL URL where this build has no libpq.
        public func syncStore(at location: SyncStoreLocation, connections: Int) throws -> any SyncStore {
            switch location {
            case .sqlite(let path):
                return SyncStoreSQLite(path: path, log: Self.log)
            case .postgreSQL(let url):
                // CPostgres, as CCurl above: PrayServer has PostgreSQL only where it has libpq.
                #if canImport(CPostgres)
                    return SyncStorePostgres(url: url, connections: connections, log: Self.log)
                #else
                    _ = (url, connections)
                    throw SyncStoreError(
                        .unsupported,
                        message: "PostgreSQL sync stores need Linux (libpq); use a SQLite store (sqlite:PATH) here")
                #endif
            }
        }
    }

    extension PrayDependency {
        private static let syncStoreMigrator = SyncStoreMigratorSQL(log: log)

        /// The SQL stores' migrator (`SyncStoreMigratorSQL`, PrayServer), on the container's logger.
        public func syncStoreMigrator() -> any SyncStoreMigrator { Self.syncStoreMigrator }
    }
#else
    extension PrayDependency {
        /// No sync store on this platform (PrayServer is linked on Linux only): throws
        /// ``SyncStoreError`` (`unsupported`) saying so, for every kind of location.
        /// - Throws: ``SyncStoreError`` (`unsupported`).
        public func syncStore(at location: SyncStoreLocation, connections: Int) throws -> any SyncStore {
            _ = (location, connections)
            throw SyncStoreMigratorUnavailable.unsupported
        }
    }

    extension PrayDependency {
        private static let syncStoreMigrator = SyncStoreMigratorUnavailable()

        /// No sync store migrator on this platform: every step throws ``SyncStoreError`` (`unsupported`).
        public func syncStoreMigrator() -> any SyncStoreMigrator { Self.syncStoreMigrator }
    }
#endif

#if os(Linux) && canImport(PrayServer)
    extension PrayDependency {
        /// The sync endpoints (`SyncRoutes`) over `store`, on the container's clock and logger.
        public func syncRoutes(store: any SyncStore) -> any ServerRoutes {
            SyncRoutes(store: store, clock: Self.clock, log: Self.log)
        }
    }
#else
    extension PrayDependency {
        /// No server on this platform: routes that answer every request with 501 Not Implemented.
        public func syncRoutes(store: any SyncStore) -> any ServerRoutes { Self.serverRoutes }
    }
#endif
