import PrayCore

/// The base of ``PrayDependencyMock``: one loud mock, fake or in-memory log per service, created with
/// the container, so that every copy of a ``PrayDependencyMock`` made from it shares them.
struct MockContainer: PrayKitDependency {
    private let prayers = PrayerServiceMock()
    private let calculator = PrayerCalculatorMock()
    private let remotePrayers = PrayerServiceMock()
    private let clockService = PrayClockFake()
    private let network = NetworkServiceMock()
    private let mqtt = MQTTServiceMock()
    private let qibla = QiblaServiceMock()
    private let magneticField = MagneticFieldServiceMock()
    private let hijri = HijriServiceMock()
    private let timeZones = TimeZoneServiceMock()
    private let places = PlaceServiceMock()
    private let location = LocationServiceMock()
    private let backupService = BackupServiceFake()
    private let mosqueTimetableStore = MosqueTimetableStoreFake()
    private let qadaStore = QadaStoreFake()
    private let fastStore = FastStoreFake()
    private let sync = SyncServiceMock()
    private let logs: [any LogService] = [LogServiceMemory()]
    private let notifications = NotificationServiceMock()
    private let pdf = PDFServiceMock()
    private let sounds = SoundServiceMock.withoutPlayer()
    private let reminderStateStore = ReminderStateStoreFake()
    private let homeAssistantStateStore = ReminderStateStoreFake()
    private let server = ServerServiceMock()
    private let routes = ServerRoutesMock()
    private let storeMigrator = SyncStoreMigratorMock()

    func prayerService() -> any PrayerService { prayers }
    func prayerCalculator() -> any PrayerCalculator { calculator }
    func remotePrayerService() -> any PrayerService { remotePrayers }
    func clock() -> any PrayClock { clockService }
    func networkService() -> any NetworkService { network }
    func mqttService() -> any MQTTService { mqtt }
    func qiblaService() -> any QiblaService { qibla }
    func magneticFieldService() -> any MagneticFieldService { magneticField }
    func hijriService() -> any HijriService { hijri }
    func timeZoneService() -> any TimeZoneService { timeZones }
    func placeService() -> any PlaceService { places }
    func locationService() -> any LocationService { location }
    func preferences() -> any PreferencesStore { backupService.preferences }
    func prayerLog() -> any PrayerLogStore { backupService.prayerLog }
    func mosqueTimetables() -> any MosqueTimetableStore { mosqueTimetableStore }
    func qada() -> any QadaStore { qadaStore }
    func fasts() -> any FastStore { fastStore }
    func backup() -> any BackupService { backupService }
    func syncService() -> any SyncService { sync }
    func logServices() -> [any LogService] { logs }
    func log() -> LogManager { LogManager(services: logs, minLevel: .trace) }
    func notificationService() -> any NotificationService { notifications }
    func soundService() -> any SoundService { sounds }
    func reminderState() -> any ReminderStateStore { reminderStateStore }
    func homeAssistantState() -> any ReminderStateStore { homeAssistantStateStore }
    func pdfService() -> any PDFService { pdf }
    func serverService() -> any ServerService { server }
    func serverRoutes() -> any ServerRoutes { routes }
    /// A ``ServerRoutesMock`` with nothing set, which fails the test when used (the real screen is in
    /// PrayServer, which PrayMocks does not link).
    func displayRoutes(_ screen: DisplayAPI.Screen) -> any ServerRoutes { ServerRoutesMock() }
    /// A ``ServerRoutesMock`` with nothing set, which fails the test when used (the real pages are in
    /// PrayServer, which PrayMocks does not link).
    func pageRoutes(store: (any SyncStore)?, screen: DisplayAPI.Screen?) -> any ServerRoutes { ServerRoutesMock() }
    /// A ``SyncStoreMock`` with nothing set for every location, which fails the test when used.
    func syncStore(at location: SyncStoreLocation, connections: Int) throws -> any SyncStore { SyncStoreMock() }
    /// A ``ServerRoutesMock`` with nothing set, which fails the test when used (the real sync endpoints
    /// are in PrayServer, which PrayMocks does not link).
    func syncRoutes(store: any SyncStore) -> any ServerRoutes { ServerRoutesMock() }
    func syncStoreMigrator() -> any SyncStoreMigrator { storeMigrator }
}
