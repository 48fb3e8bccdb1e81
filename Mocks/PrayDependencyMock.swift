import PrayCore

/// A ``PrayKitDependency`` for tests: every service is a stored property the test replaces one by
/// one. The defaults are mocks that fail the test (and throw ``MockError``) when used without being
/// set up, except the clock (``PrayClockFake``), the log (``LogServiceMemory``) and the stores: empty
/// ``PreferencesStoreFake`` and ``PrayerLogStoreFake``, and a ``BackupServiceFake`` over those two.
///
/// ```swift
/// var dependency = PrayDependencyMock()
/// let prayers = PrayerServiceMock()
/// prayers.onPrayerTimes { request in   // a schedule for every day asked (PrayerManager asks three)
///     PrayerAPI.Response(schedules: request.dates.map { .mock(date: $0) }, source: .calculated)
/// }
/// dependency.prayers = prayers
/// let app = MyApp(dependency: dependency)
/// ```
public struct PrayDependencyMock: PrayKitDependency {
    /// What ``prayerService()`` returns.
    public var prayers: any PrayerService = PrayerServiceMock()
    /// What ``prayerCalculator()`` returns.
    public var calculator: any PrayerCalculator = PrayerCalculatorMock()
    /// What ``clock()`` returns: a fake clock at 2026-11-29 12:00 UTC that never waits.
    public var clockService: any PrayClock = PrayClockFake()
    /// What ``remotePrayerService()`` returns.
    public var remotePrayers: any PrayerService = PrayerServiceMock()
    /// What ``networkService()`` returns.
    public var network: any NetworkService = NetworkServiceMock()
    /// What ``qiblaService()`` returns.
    public var qibla: any QiblaService = QiblaServiceMock()
    /// What ``magneticFieldService()`` returns.
    public var magneticField: any MagneticFieldService = MagneticFieldServiceMock()
    /// What ``hijriService()`` returns.
    public var hijri: any HijriService = HijriServiceMock()
    /// What ``timeZoneService()`` returns.
    public var timeZones: any TimeZoneService = TimeZoneServiceMock()
    /// What ``placeService()`` returns.
    public var places: any PlaceService = PlaceServiceMock()
    /// What ``locationService()`` returns.
    public var location: any LocationService = LocationServiceMock()
    /// What ``preferences()`` returns.
    public var preferenceStore: any PreferencesStore
    /// What ``prayerLog()`` returns.
    public var prayerLogStore: any PrayerLogStore
    /// What ``mosqueTimetables()`` returns; an empty ``MosqueTimetableStoreFake`` by default.
    public var mosqueTimetableStore: any MosqueTimetableStore = MosqueTimetableStoreFake()
    /// What ``qada()`` returns; an empty ``QadaStoreFake`` by default.
    public var qadaStore: any QadaStore = QadaStoreFake()
    /// What ``fasts()`` returns; an empty ``FastStoreFake`` by default.
    public var fastStore: any FastStore = FastStoreFake()
    /// What ``backup()`` returns.
    public var backupService: any BackupService
    /// What ``syncService()`` returns.
    public var sync: any SyncService = SyncServiceMock()
    /// What ``logServices()`` returns; a ``LogServiceMemory`` by default.
    public var logs: [any LogService] = [LogServiceMemory()]
    /// The least important level ``log()`` records.
    public var minLogLevel: LogLevel = .trace
    /// What ``notificationService()`` returns.
    public var notifications: any NotificationService = NotificationServiceMock()
    /// What ``pdfService()`` returns.
    public var pdf: any PDFService = PDFServiceMock()
    /// What ``soundService()`` returns: by default one with no player (``SoundServiceMock/withoutPlayer()``).
    public var sounds: any SoundService = SoundServiceMock.withoutPlayer()
    /// What ``reminderState()`` returns: an empty in-memory record by default.
    public var reminderStateStore: any ReminderStateStore = ReminderStateStoreFake()

    /// Creates a dependency whose services are unconfigured mocks and whose stores are empty fakes.
    public init() {
        let backup = BackupServiceFake()
        preferenceStore = backup.preferences
        prayerLogStore = backup.prayerLog
        backupService = backup
    }

    /// Returns ``prayers``.
    public func prayerService() -> any PrayerService { prayers }
    /// Returns ``calculator``.
    public func prayerCalculator() -> any PrayerCalculator { calculator }
    /// Returns ``clockService``.
    public func clock() -> any PrayClock { clockService }
    /// Returns a manager over ``prayers``.
    public func prayerManager() -> PrayerManager { PrayerManager(service: prayers, log: log()) }
    /// Returns ``remotePrayers``.
    public func remotePrayerService() -> any PrayerService { remotePrayers }
    /// Returns ``network``.
    public func networkService() -> any NetworkService { network }
    /// Returns ``qibla``.
    public func qiblaService() -> any QiblaService { qibla }
    /// Returns ``magneticField``.
    public func magneticFieldService() -> any MagneticFieldService { magneticField }
    /// Returns ``hijri``.
    public func hijriService() -> any HijriService { hijri }
    /// Returns ``preferenceStore``.
    public func preferences() -> any PreferencesStore { preferenceStore }
    /// Returns ``prayerLogStore``.
    public func prayerLog() -> any PrayerLogStore { prayerLogStore }
    /// Returns ``mosqueTimetableStore``.
    public func mosqueTimetables() -> any MosqueTimetableStore { mosqueTimetableStore }
    /// Returns ``qadaStore``.
    public func qada() -> any QadaStore { qadaStore }
    /// Returns ``fastStore``.
    public func fasts() -> any FastStore { fastStore }
    /// Returns ``backupService``.
    public func backup() -> any BackupService { backupService }
    /// Returns ``sync``.
    public func syncService() -> any SyncService { sync }
    /// Returns ``logs``.
    public func logServices() -> [any LogService] { logs }
    /// Returns a logger over ``logs`` at ``minLogLevel``.
    public func log() -> LogManager { LogManager(services: logs, minLevel: minLogLevel) }
    /// Returns ``notifications``.
    public func notificationService() -> any NotificationService { notifications }
    /// Returns a manager over ``prayers`` and ``hijri``.
    public func reminderManager() -> ReminderManager { ReminderManager(prayers: prayers, hijri: hijri, log: log()) }
    /// Returns ``sounds``.
    public func soundService() -> any SoundService { sounds }
    /// Returns ``reminderStateStore``.
    public func reminderState() -> any ReminderStateStore { reminderStateStore }

    // MARK: - Printing

    /// Returns ``pdf``.
    public func pdfService() -> any PDFService { pdf }

    // MARK: - Server

    /// What ``serverService()`` returns.
    public var server: any ServerService = ServerServiceMock()
    /// Returns ``server``.
    public func serverService() -> any ServerService { server }
    /// What ``serverRoutes()`` returns.
    public var routes: any ServerRoutes = ServerRoutesMock()
    /// Returns ``routes``.
    public func serverRoutes() -> any ServerRoutes { routes }

    // MARK: - Sync server

    /// What ``syncStore(at:connections:)`` returns for a location: by default a ``SyncStoreMock`` with nothing
    /// set, which fails the test when used.
    public var syncStoreAt: @Sendable (SyncStoreLocation) throws -> any SyncStore = { _ in SyncStoreMock() }
    /// Returns ``syncStoreAt``'s store for `location`.
    public func syncStore(at location: SyncStoreLocation, connections: Int) throws -> any SyncStore {
        try syncStoreAt(location)
    }
    /// What ``syncRoutes(store:)`` returns for a store: by default a ``ServerRoutesMock`` with nothing
    /// set, which fails the test when used (the real sync endpoints are in PrayServer, which PrayMocks
    /// does not link).
    public var makeSyncRoutes: @Sendable (any SyncStore) -> any ServerRoutes = { _ in ServerRoutesMock() }
    /// Returns ``makeSyncRoutes``'s routes over `store`.
    public func syncRoutes(store: any SyncStore) -> any ServerRoutes { makeSyncRoutes(store) }
    /// What ``syncStoreMigrator()`` returns: by default a ``SyncStoreMigratorMock`` with nothing set.
    public var storeMigrator: any SyncStoreMigrator = SyncStoreMigratorMock()
    /// Returns ``storeMigrator``.
    public func syncStoreMigrator() -> any SyncStoreMigrator { storeMigrator }
}

// MARK: - Location

extension PrayDependencyMock {
    /// Returns ``timeZones``.
    public func timeZoneService() -> any TimeZoneService { timeZones }
    /// Returns ``places``.
    public func placeService() -> any PlaceService { places }
    /// Returns ``location``.
    public func locationService() -> any LocationService { location }
    /// Returns a manager over ``timeZones``, ``places``, ``preferenceStore`` and ``location``.
    public func locationManager() -> LocationManager {
        LocationManager(
            timeZoneService: timeZones, placeService: places, preferences: preferenceStore, locationService: location,
            log: log()
        )
    }
}
