/// The services an app uses, one factory function each. Apps get them from `PrayDependency` (in the
/// PrayKit module), and replace one or another with ``overriding(_:)``; tests use
/// `PrayDependencyMock` (PrayMocks), the same overriding over loud mocks.
///
/// The managers (``prayerManager()``, ``locationManager()``, ``reminderManager()``) are wired once,
/// here: their default implementations build them from this container's own services, so whatever
/// a container gives — live, replaced or mock — is what they use. Conformers implement the services
/// only.
///
/// ```swift
/// struct TimetableModel {
///     let dependency: any PrayKitDependency
///     func today(_ request: PrayerAPI.Request) async throws -> PrayerDay {
///         try await dependency.prayerManager().day(for: request)
///     }
/// }
/// ```
public protocol PrayKitDependency: Sendable {
    // MARK: - Prayer

    /// The service that calculates prayer times from the sun's position, with the chosen mosque's
    /// imported timetable laid over them (``PrayerServiceMosque``).
    func prayerService() -> any PrayerService
    /// The same calculation, synchronous: for servers and tools on threads of their own.
    func prayerCalculator() -> any PrayerCalculator
    /// The manager that builds prayer days from ``prayerService()``; the default builds it from this
    /// container's services.
    func prayerManager() -> PrayerManager
    /// The service that serves a published timetable (AlAdhan or London), cached in the database.
    func remotePrayerService() -> any PrayerService

    // MARK: - Time

    /// The clock: "now", and waits that end at the right time of day (daemons, countdowns).
    func clock() -> any PrayClock

    // MARK: - Network

    /// The HTTP client.
    func networkService() -> any NetworkService
    /// The MQTT client `praykit mqtt` publishes through (libmosquitto on Linux).
    func mqttService() -> any MQTTService

    // MARK: - Qibla and Hijri

    /// The service that finds the direction of the Kaaba.
    func qiblaService() -> any QiblaService
    /// The service that gives the Earth's magnetic field (the World Magnetic Model): the declination
    /// that turns the qibla's true bearing into a compass bearing.
    func magneticFieldService() -> any MagneticFieldService
    /// The service that converts between Gregorian and Hijri dates.
    func hijriService() -> any HijriService

    // MARK: - Location

    /// The service that finds the IANA time zone at a point, offline.
    func timeZoneService() -> any TimeZoneService
    /// The service that finds cities by name and near a point, offline.
    func placeService() -> any PlaceService
    /// Where the user is: the saved place on Linux, a device's location in an app.
    func locationService() -> any LocationService
    /// The manager that resolves a place with its zone and method, each with its source; the default
    /// builds it from this container's services.
    func locationManager() -> LocationManager

    // MARK: - Storage

    /// The user's preferences.
    func preferences() -> any PreferencesStore
    /// The prayer log.
    func prayerLog() -> any PrayerLogStore
    /// The mosques' own timetables the user imported.
    func mosqueTimetables() -> any MosqueTimetableStore
    /// The prayers to make up (qada): each prayer's opening count and the prayers made up.
    func qada() -> any QadaStore

    /// The fasts the user recorded (`praykit fast`).
    func fasts() -> any FastStore
    /// Export and import of all user data.
    func backup() -> any BackupService
    /// Sync of the log, the synced settings and the place with a `praykit serve` peer (SYNC.md).
    func syncService() -> any SyncService

    // MARK: - Logging

    /// The destinations log events go to.
    func logServices() -> [any LogService]
    /// The logger services receive.
    func log() -> LogManager

    // MARK: - Reminders

    /// The service that delivers reminders (the configured hook, else the saved one, else desktop
    /// notifications).
    func notificationService() -> any NotificationService
    /// The manager that plans reminder events from prayer times; the default builds it from this
    /// container's services.
    func reminderManager() -> ReminderManager
    /// The player of the adhan and reminder sounds.
    func soundService() -> any SoundService
    /// What the reminder daemon keeps across restarts: the events handled, its process.
    func reminderState() -> any ReminderStateStore
    /// What the MQTT publisher (`praykit mqtt`) keeps across restarts: the events it published, its
    /// process — apart from the reminder daemon's, so that each fires every event once.
    func homeAssistantState() -> any ReminderStateStore

    // MARK: - Printing

    /// The service that turns a self-contained HTML page into a PDF (a printed timetable).
    func pdfService() -> any PDFService

    // MARK: - Server

    /// The HTTP server behind `praykit serve` (libmicrohttpd).
    func serverService() -> any ServerService
    /// The answers of `praykit serve`: the AlAdhan API over this container's calculation, Hijri,
    /// qibla, zone and city services.
    func serverRoutes() -> any ServerRoutes
    /// The screen of `praykit serve --display` (`/display` and its model `/display.json`) for
    /// `screen`, over this container's calculation, Hijri calendar, mosque timetables, preferences
    /// and clock.
    func displayRoutes(_ screen: DisplayAPI.Screen) -> any ServerRoutes
    /// The pages people open (``PagesAPI``): the month of `screen` (`/month`, with `--display`) and the
    /// pages of the mosques `store` publishes (`/m/<slug>/…`, on a sync server), over this container's
    /// calculation, Hijri calendar, mosque timetables, preferences, country lookup and clock.
    func pageRoutes(store: (any SyncStore)?, screen: DisplayAPI.Screen?) -> any ServerRoutes

    // MARK: - Sync server

    /// The store of a sync server at `location`: its users, devices and rows (SYNC.md §5). Nothing is
    /// opened or created until the store is first used.
    /// - Parameters:
    ///   - location: The store: a SQLite file or a PostgreSQL URL.
    ///   - connections: For a PostgreSQL store, the most connections it keeps open at once (a server
    ///     gives one per worker thread); a SQLite store has its own.
    /// - Throws: ``SyncStoreError`` (``SyncStoreErrorKind/unsupported``) for a kind of store this
    ///   build does not have.
    func syncStore(at location: SyncStoreLocation, connections: Int) throws -> any SyncStore
    /// The sync endpoints of `praykit serve` (`/sync/v1/…`) over `store`, on this container's clock
    /// and logger.
    func syncRoutes(store: any SyncStore) -> any ServerRoutes
    /// The operator's steps on sync stores: creating or upgrading a schema, and copying a SQLite
    /// store into PostgreSQL with every cursor kept.
    func syncStoreMigrator() -> any SyncStoreMigrator
}

// MARK: - Managers

extension PrayKitDependency {
    /// A manager over ``prayerService()`` (the calculation, with a chosen mosque's own times over it
    /// in the live container).
    public func prayerManager() -> PrayerManager {
        PrayerManager(service: prayerService(), log: log())
    }

    /// A manager over ``timeZoneService()``, ``placeService()``, ``preferences()``,
    /// ``locationService()`` and ``mosqueTimetables()`` (the chosen mosque's Hijri calendar).
    public func locationManager() -> LocationManager {
        LocationManager(
            timeZoneService: timeZoneService(), placeService: placeService(), preferences: preferences(),
            locationService: locationService(), mosques: mosqueTimetables(), log: log())
    }

    /// A manager over ``prayerService()`` and ``hijriService()``.
    public func reminderManager() -> ReminderManager {
        ReminderManager(prayers: prayerService(), hijri: hijriService(), log: log())
    }
}

// MARK: - Sync server

extension PrayKitDependency {
    /// The store of a sync server at `location`, with up to four connections for a PostgreSQL one
    /// (enough for an administration command); see ``syncStore(at:connections:)``.
    /// - Throws: What ``syncStore(at:connections:)`` throws.
    public func syncStore(at location: SyncStoreLocation) throws -> any SyncStore {
        try syncStore(at: location, connections: 4)
    }

    /// The answers of `praykit serve`: ``serverRoutes()``, and under `/sync/` the sync endpoints over
    /// `syncStore` (``syncRoutes(store:)``), or a 404 that says this server does not sync when it is
    /// `nil` (see ``ServerRoutesCombined``).
    public func serverRoutes(syncStore: (any SyncStore)?) -> any ServerRoutes {
        ServerRoutesCombined(api: serverRoutes(), sync: syncStore.map { syncRoutes(store: $0) })
    }
}
