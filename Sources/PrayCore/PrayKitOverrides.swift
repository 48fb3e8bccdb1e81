#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A container that starts from another and replaces some of its services, keeping the rest: the
/// one
/// shape of overriding. An app starts from the live `PrayDependency`; tests start from loud mocks
/// (`PrayDependencyMock` in PrayMocks is this type over a base whose every service is a mock that
/// fails the test when used without being set up).
///
/// ```swift
/// let dependency = PrayDependency().overriding {
///     $0.notifications = WatchNotifications()      // the app's own channel
///     $0.location = CoreLocationService()          // where the device is
/// }
/// let model = TodayModel(dependency: dependency)          // everything else is the live
/// container's
/// ```
///
/// Each property reads as the service in effect — the one set, else the base's — and setting it
/// replaces that service. The managers (``prayerManager()``, ``locationManager()``,
/// ``reminderManager()``) are the protocol's own, built from the services this value gives, so a
/// replaced service is the one they use. The logger is the base's, unless ``logs`` or
/// ``minLogLevel`` is set (then a logger over ``logs`` at ``minLogLevel``) or ``logger`` is.
public struct PrayKitOverrides: PrayKitDependency {
    /// The services set, each `nil` until it is.
    private struct Replacements: Sendable {
        var prayers: (any PrayerService)?
        var calculator: (any PrayerCalculator)?
        var remotePrayers: (any PrayerService)?
        var clockService: (any PrayClock)?
        var network: (any NetworkService)?
        var mqtt: (any MQTTService)?
        var qibla: (any QiblaService)?
        var magneticField: (any MagneticFieldService)?
        var hijri: (any HijriService)?
        var timeZones: (any TimeZoneService)?
        var places: (any PlaceService)?
        var location: (any LocationService)?
        var preferenceStore: (any PreferencesStore)?
        var prayerLogStore: (any PrayerLogStore)?
        var mosqueTimetableStore: (any MosqueTimetableStore)?
        var qadaStore: (any QadaStore)?
        var fastStore: (any FastStore)?
        var backupService: (any BackupService)?
        var sync: (any SyncService)?
        var logs: [any LogService]?
        var notifications: (any NotificationService)?
        var sounds: (any SoundService)?
        var reminderStateStore: (any ReminderStateStore)?
        var homeAssistantStateStore: (any ReminderStateStore)?
        var pdf: (any PDFService)?
        var server: (any ServerService)?
        var routes: (any ServerRoutes)?
        var minLogLevel: LogLevel?
        var logger: LogManager?
        var syncStoreAt: (@Sendable (SyncStoreLocation) throws -> any SyncStore)?
        var makeSyncRoutes: (@Sendable (any SyncStore) -> any ServerRoutes)?
        var makeDisplayRoutes: (@Sendable (DisplayAPI.Screen) -> any ServerRoutes)?
        var makePageRoutes: (@Sendable ((any SyncStore)?, DisplayAPI.Screen?) -> any ServerRoutes)?
        var storeMigrator: (any SyncStoreMigrator)?
    }

    /// The container whose services are used where none is set here.
    public var base: any PrayKitDependency
    private var replaced = Replacements()

    /// A container that is `base` until services are set.
    public init(_ base: any PrayKitDependency) {
        self.base = base
    }

    // MARK: - Prayer

    /// What ``prayerService()`` returns: the one set, else the base's. Setting it replaces the
    /// service ``prayerManager()`` and ``reminderManager()`` use too.
    public var prayers: any PrayerService {
        get { replaced.prayers ?? base.prayerService() }
        set { replaced.prayers = newValue }
    }
    /// Returns ``prayers``.
    public func prayerService() -> any PrayerService { prayers }
    /// What ``prayerCalculator()`` returns: the one set, else the base's.
    public var calculator: any PrayerCalculator {
        get { replaced.calculator ?? base.prayerCalculator() }
        set { replaced.calculator = newValue }
    }
    /// Returns ``calculator``.
    public func prayerCalculator() -> any PrayerCalculator { calculator }
    /// What ``remotePrayerService()`` returns: the one set, else the base's.
    public var remotePrayers: any PrayerService {
        get { replaced.remotePrayers ?? base.remotePrayerService() }
        set { replaced.remotePrayers = newValue }
    }
    /// Returns ``remotePrayers``.
    public func remotePrayerService() -> any PrayerService { remotePrayers }

    // MARK: - Time and network

    /// What ``clock()`` returns: the one set, else the base's.
    public var clockService: any PrayClock {
        get { replaced.clockService ?? base.clock() }
        set { replaced.clockService = newValue }
    }
    /// Returns ``clockService``.
    public func clock() -> any PrayClock { clockService }
    /// What ``networkService()`` returns: the one set, else the base's.
    public var network: any NetworkService {
        get { replaced.network ?? base.networkService() }
        set { replaced.network = newValue }
    }
    /// Returns ``network``.
    public func networkService() -> any NetworkService { network }
    /// What ``mqttService()`` returns: the one set, else the base's.
    public var mqtt: any MQTTService {
        get { replaced.mqtt ?? base.mqttService() }
        set { replaced.mqtt = newValue }
    }
    /// Returns ``mqtt``.
    public func mqttService() -> any MQTTService { mqtt }

    // MARK: - Qibla and Hijri

    /// What ``qiblaService()`` returns: the one set, else the base's.
    public var qibla: any QiblaService {
        get { replaced.qibla ?? base.qiblaService() }
        set { replaced.qibla = newValue }
    }
    /// Returns ``qibla``.
    public func qiblaService() -> any QiblaService { qibla }
    /// What ``magneticFieldService()`` returns: the one set, else the base's.
    public var magneticField: any MagneticFieldService {
        get { replaced.magneticField ?? base.magneticFieldService() }
        set { replaced.magneticField = newValue }
    }
    /// Returns ``magneticField``.
    public func magneticFieldService() -> any MagneticFieldService { magneticField }
    /// What ``hijriService()`` returns: the one set, else the base's. Setting it replaces the one
    /// ``reminderManager()`` uses too.
    public var hijri: any HijriService {
        get { replaced.hijri ?? base.hijriService() }
        set { replaced.hijri = newValue }
    }
    /// Returns ``hijri``.
    public func hijriService() -> any HijriService { hijri }

    // MARK: - Location

    /// What ``timeZoneService()`` returns: the one set, else the base's. Setting it replaces the
    /// one ``locationManager()`` uses too.
    public var timeZones: any TimeZoneService {
        get { replaced.timeZones ?? base.timeZoneService() }
        set { replaced.timeZones = newValue }
    }
    /// Returns ``timeZones``.
    public func timeZoneService() -> any TimeZoneService { timeZones }
    /// What ``placeService()`` returns: the one set, else the base's. Setting it replaces the one
    /// ``locationManager()`` uses too.
    public var places: any PlaceService {
        get { replaced.places ?? base.placeService() }
        set { replaced.places = newValue }
    }
    /// Returns ``places``.
    public func placeService() -> any PlaceService { places }
    /// What ``locationService()`` returns: the one set, else the base's. Setting it replaces the
    /// one ``locationManager()`` asks too.
    public var location: any LocationService {
        get { replaced.location ?? base.locationService() }
        set { replaced.location = newValue }
    }
    /// Returns ``location``.
    public func locationService() -> any LocationService { location }

    // MARK: - Storage

    /// What ``preferences()`` returns: the one set, else the base's. Setting it replaces the store
    /// ``locationManager()`` reads too.
    public var preferenceStore: any PreferencesStore {
        get { replaced.preferenceStore ?? base.preferences() }
        set { replaced.preferenceStore = newValue }
    }
    /// Returns ``preferenceStore``.
    public func preferences() -> any PreferencesStore { preferenceStore }
    /// What ``prayerLog()`` returns: the one set, else the base's.
    public var prayerLogStore: any PrayerLogStore {
        get { replaced.prayerLogStore ?? base.prayerLog() }
        set { replaced.prayerLogStore = newValue }
    }
    /// Returns ``prayerLogStore``.
    public func prayerLog() -> any PrayerLogStore { prayerLogStore }
    /// What ``mosqueTimetables()`` returns: the one set, else the base's.
    public var mosqueTimetableStore: any MosqueTimetableStore {
        get { replaced.mosqueTimetableStore ?? base.mosqueTimetables() }
        set { replaced.mosqueTimetableStore = newValue }
    }
    /// Returns ``mosqueTimetableStore``.
    public func mosqueTimetables() -> any MosqueTimetableStore { mosqueTimetableStore }
    /// What ``qada()`` returns: the one set, else the base's.
    public var qadaStore: any QadaStore {
        get { replaced.qadaStore ?? base.qada() }
        set { replaced.qadaStore = newValue }
    }
    /// Returns ``qadaStore``.
    public func qada() -> any QadaStore { qadaStore }
    /// What ``fasts()`` returns: the one set, else the base's.
    public var fastStore: any FastStore {
        get { replaced.fastStore ?? base.fasts() }
        set { replaced.fastStore = newValue }
    }
    /// Returns ``fastStore``.
    public func fasts() -> any FastStore { fastStore }
    /// What ``backup()`` returns: the one set, else the base's.
    public var backupService: any BackupService {
        get { replaced.backupService ?? base.backup() }
        set { replaced.backupService = newValue }
    }
    /// Returns ``backupService``.
    public func backup() -> any BackupService { backupService }
    /// What ``syncService()`` returns: the one set, else the base's.
    public var sync: any SyncService {
        get { replaced.sync ?? base.syncService() }
        set { replaced.sync = newValue }
    }
    /// Returns ``sync``.
    public func syncService() -> any SyncService { sync }

    // MARK: - Logging

    /// What ``logServices()`` returns: the one set, else the base's. Setting it makes ``log()``
    /// write to these.
    public var logs: [any LogService] {
        get { replaced.logs ?? base.logServices() }
        set { replaced.logs = newValue }
    }
    /// Returns ``logs``.
    public func logServices() -> [any LogService] { logs }
    /// The least important level ``log()`` records: the one set, else the base logger's.
    public var minLogLevel: LogLevel {
        get { replaced.minLogLevel ?? base.log().minLevel }
        set { replaced.minLogLevel = newValue }
    }
    /// What ``log()`` returns: the logger set; else, when ``logs`` or ``minLogLevel`` is set, a
    /// logger
    /// over ``logs`` at ``minLogLevel``; else the base's.
    public var logger: LogManager {
        get {
            if let logger = replaced.logger { return logger }
            guard replaced.logs != nil || replaced.minLogLevel != nil else { return base.log() }
            return LogManager(services: logs, minLevel: minLogLevel)
        }
        set { replaced.logger = newValue }
    }
    /// Returns ``logger``.
    public func log() -> LogManager { logger }

    // MARK: - Reminders

    /// What ``notificationService()`` returns: the one set, else the base's.
    public var notifications: any NotificationService {
        get { replaced.notifications ?? base.notificationService() }
        set { replaced.notifications = newValue }
    }
    /// Returns ``notifications``.
    public func notificationService() -> any NotificationService { notifications }
    /// What ``soundService()`` returns: the one set, else the base's.
    public var sounds: any SoundService {
        get { replaced.sounds ?? base.soundService() }
        set { replaced.sounds = newValue }
    }
    /// Returns ``sounds``.
    public func soundService() -> any SoundService { sounds }
    /// What ``reminderState()`` returns: the one set, else the base's.
    public var reminderStateStore: any ReminderStateStore {
        get { replaced.reminderStateStore ?? base.reminderState() }
        set { replaced.reminderStateStore = newValue }
    }
    /// Returns ``reminderStateStore``.
    public func reminderState() -> any ReminderStateStore { reminderStateStore }
    /// What ``homeAssistantState()`` returns: the one set, else the base's.
    public var homeAssistantStateStore: any ReminderStateStore {
        get { replaced.homeAssistantStateStore ?? base.homeAssistantState() }
        set { replaced.homeAssistantStateStore = newValue }
    }
    /// Returns ``homeAssistantStateStore``.
    public func homeAssistantState() -> any ReminderStateStore { homeAssistantStateStore }

    // MARK: - Printing

    /// What ``pdfService()`` returns: the one set, else the base's.
    public var pdf: any PDFService {
        get { replaced.pdf ?? base.pdfService() }
        set { replaced.pdf = newValue }
    }
    /// Returns ``pdf``.
    public func pdfService() -> any PDFService { pdf }

    // MARK: - Server

    /// What ``serverService()`` returns: the one set, else the base's.
    public var server: any ServerService {
        get { replaced.server ?? base.serverService() }
        set { replaced.server = newValue }
    }
    /// Returns ``server``.
    public func serverService() -> any ServerService { server }
    /// What ``serverRoutes()`` returns: the one set, else the base's. The base's routes answer from
    /// the base's services.
    public var routes: any ServerRoutes {
        get { replaced.routes ?? base.serverRoutes() }
        set { replaced.routes = newValue }
    }
    /// Returns ``routes``.
    public func serverRoutes() -> any ServerRoutes { routes }
    /// What ``displayRoutes(_:)`` returns for a screen: the answer set, else the base's routes.
    public var makeDisplayRoutes: @Sendable (DisplayAPI.Screen) -> any ServerRoutes {
        get { replaced.makeDisplayRoutes ?? { [base] in base.displayRoutes($0) } }
        set { replaced.makeDisplayRoutes = newValue }
    }
    /// Returns ``makeDisplayRoutes``'s routes for `screen`.
    public func displayRoutes(_ screen: DisplayAPI.Screen) -> any ServerRoutes { makeDisplayRoutes(screen) }
    /// What ``pageRoutes(store:screen:)`` returns: the answer set, else the base's routes.
    public var makePageRoutes: @Sendable ((any SyncStore)?, DisplayAPI.Screen?) -> any ServerRoutes {
        get { replaced.makePageRoutes ?? { [base] in base.pageRoutes(store: $0, screen: $1) } }
        set { replaced.makePageRoutes = newValue }
    }
    /// Returns ``makePageRoutes``'s routes for `store` and `screen`.
    public func pageRoutes(store: (any SyncStore)?, screen: DisplayAPI.Screen?) -> any ServerRoutes {
        makePageRoutes(store, screen)
    }

    // MARK: - Sync server

    /// What ``syncStore(at:connections:)`` returns for a location: the answer set, else the base's
    /// store (with up to four connections when read here; the requirement passes its own).
    public var syncStoreAt: @Sendable (SyncStoreLocation) throws -> any SyncStore {
        get { replaced.syncStoreAt ?? { [base] in try base.syncStore(at: $0) } }
        set { replaced.syncStoreAt = newValue }
    }
    /// The store ``syncStoreAt`` set gives for `location`, else the base's.
    public func syncStore(at location: SyncStoreLocation, connections: Int) throws -> any SyncStore {
        if let answer = replaced.syncStoreAt { return try answer(location) }
        return try base.syncStore(at: location, connections: connections)
    }
    /// What ``syncRoutes(store:)`` returns for a store: the answer set, else the base's routes.
    public var makeSyncRoutes: @Sendable (any SyncStore) -> any ServerRoutes {
        get { replaced.makeSyncRoutes ?? { [base] in base.syncRoutes(store: $0) } }
        set { replaced.makeSyncRoutes = newValue }
    }
    /// Returns ``makeSyncRoutes``'s routes over `store`.
    public func syncRoutes(store: any SyncStore) -> any ServerRoutes { makeSyncRoutes(store) }
    /// What ``syncStoreMigrator()`` returns: the one set, else the base's.
    public var storeMigrator: any SyncStoreMigrator {
        get { replaced.storeMigrator ?? base.syncStoreMigrator() }
        set { replaced.storeMigrator = newValue }
    }
    /// Returns ``storeMigrator``.
    public func syncStoreMigrator() -> any SyncStoreMigrator { storeMigrator }
}

extension PrayKitDependency {
    /// This container with some services replaced (see ``PrayKitOverrides``): the managers use the
    /// replacements.
    ///
    /// ```swift
    /// let dependency = PrayDependency().overriding { $0.notifications = MyNotifications() }
    /// ```
    public func overriding(_ change: (inout PrayKitOverrides) -> Void) -> PrayKitOverrides {
        var overrides = PrayKitOverrides(self)
        change(&overrides)
        return overrides
    }
}
