import Foundation

/// A container that starts from another — the live `PrayDependency`, usually — and replaces some of
/// its services, keeping the rest. The managers (``prayerManager()``, ``locationManager()``,
/// ``reminderManager()``) are built from the services this value holds, so a replaced service is the
/// one they use.
///
/// ```swift
/// let dependency = PrayDependency().overriding {
///     $0.notifications = WatchNotifications()      // the app's own channel
///     $0.location = CoreLocationService()          // where the device is
/// }
/// let model = TodayModel(dependency: dependency)          // everything else is the live container's
/// ```
///
/// A service left `nil` is the base's. The properties have the names of `PrayDependencyMock`'s. The
/// logger is the base's, unless ``logs`` is set (then a logger over those destinations, at the base
/// logger's level) or ``logger`` is.
public struct PrayKitOverrides: PrayKitDependency {
    /// The container whose services are used where none is set here.
    public var base: any PrayKitDependency

    /// Replaces ``prayerService()``, and with it the service ``prayerManager()`` and
    /// ``reminderManager()`` use.
    public var prayers: (any PrayerService)?
    /// Replaces ``prayerCalculator()``.
    public var calculator: (any PrayerCalculator)?
    /// Replaces ``remotePrayerService()``.
    public var remotePrayers: (any PrayerService)?
    /// Replaces ``clock()``.
    public var clockService: (any PrayClock)?
    /// Replaces ``networkService()``.
    public var network: (any NetworkService)?
    /// Replaces ``qiblaService()``.
    public var qibla: (any QiblaService)?
    /// Replaces ``magneticFieldService()``.
    public var magneticField: (any MagneticFieldService)?
    /// Replaces ``hijriService()``, and the one ``reminderManager()`` uses.
    public var hijri: (any HijriService)?
    /// Replaces ``timeZoneService()``, and the one ``locationManager()`` uses.
    public var timeZones: (any TimeZoneService)?
    /// Replaces ``placeService()``, and the one ``locationManager()`` uses.
    public var places: (any PlaceService)?
    /// Replaces ``locationService()``, and the one ``locationManager()`` uses.
    public var location: (any LocationService)?
    /// Replaces ``preferences()``, and the store ``locationManager()`` reads.
    public var preferenceStore: (any PreferencesStore)?
    /// Replaces ``prayerLog()``.
    public var prayerLogStore: (any PrayerLogStore)?
    /// Replaces ``mosqueTimetables()``.
    public var mosqueTimetableStore: (any MosqueTimetableStore)?
    /// Replaces ``qada()``.
    public var qadaStore: (any QadaStore)?
    /// Replaces ``fasts()``.
    public var fastStore: (any FastStore)?
    /// Replaces ``backup()``.
    public var backupService: (any BackupService)?
    /// Replaces ``syncService()``.
    public var sync: (any SyncService)?
    /// Replaces ``logServices()``; ``log()`` then writes to these.
    public var logs: [any LogService]?
    /// Replaces ``log()``.
    public var logger: LogManager?
    /// Replaces ``notificationService()``.
    public var notifications: (any NotificationService)?
    /// Replaces ``pdfService()``.
    public var pdf: (any PDFService)?
    /// Replaces ``soundService()``.
    public var sounds: (any SoundService)?
    /// Replaces ``reminderState()``.
    public var reminderStateStore: (any ReminderStateStore)?
    /// Replaces ``serverService()``.
    public var server: (any ServerService)?
    /// Replaces ``serverRoutes()``. The base's routes answer from the base's services.
    public var routes: (any ServerRoutes)?
    /// Replaces ``syncStore(at:connections:)``: the store for a location.
    public var syncStoreAt: (@Sendable (SyncStoreLocation) throws -> any SyncStore)?
    /// Replaces ``syncRoutes(store:)``: the sync endpoints over a store.
    public var makeSyncRoutes: (@Sendable (any SyncStore) -> any ServerRoutes)?
    /// Replaces ``syncStoreMigrator()``.
    public var storeMigrator: (any SyncStoreMigrator)?

    /// A container that is `base` until services are set.
    public init(_ base: any PrayKitDependency) {
        self.base = base
    }

    // MARK: - Prayer

    /// The set prayer service, else the base's.
    public func prayerService() -> any PrayerService { prayers ?? base.prayerService() }
    /// The set calculator, else the base's.
    public func prayerCalculator() -> any PrayerCalculator { calculator ?? base.prayerCalculator() }
    /// A manager over ``prayerService()``.
    public func prayerManager() -> PrayerManager { PrayerManager(service: prayerService(), log: log()) }
    /// The set remote service, else the base's.
    public func remotePrayerService() -> any PrayerService { remotePrayers ?? base.remotePrayerService() }

    // MARK: - Time and network

    /// The set clock, else the base's.
    public func clock() -> any PrayClock { clockService ?? base.clock() }
    /// The set network service, else the base's.
    public func networkService() -> any NetworkService { network ?? base.networkService() }

    // MARK: - Qibla and Hijri

    /// The set qibla service, else the base's.
    public func qiblaService() -> any QiblaService { qibla ?? base.qiblaService() }
    /// The set magnetic field service, else the base's.
    public func magneticFieldService() -> any MagneticFieldService {
        magneticField ?? base.magneticFieldService()
    }
    /// The set Hijri service, else the base's.
    public func hijriService() -> any HijriService { hijri ?? base.hijriService() }

    // MARK: - Location

    /// The set zone service, else the base's.
    public func timeZoneService() -> any TimeZoneService { timeZones ?? base.timeZoneService() }
    /// The set place service, else the base's.
    public func placeService() -> any PlaceService { places ?? base.placeService() }
    /// The set location service, else the base's.
    public func locationService() -> any LocationService { location ?? base.locationService() }
    /// A manager over the zone, place and location services and the preferences above.
    public func locationManager() -> LocationManager {
        LocationManager(
            timeZoneService: timeZoneService(), placeService: placeService(), preferences: preferences(),
            locationService: locationService(), log: log())
    }

    // MARK: - Storage

    /// The set preferences store, else the base's.
    public func preferences() -> any PreferencesStore { preferenceStore ?? base.preferences() }
    /// The set prayer log, else the base's.
    public func prayerLog() -> any PrayerLogStore { prayerLogStore ?? base.prayerLog() }
    /// The set mosque timetable store, else the base's.
    public func mosqueTimetables() -> any MosqueTimetableStore { mosqueTimetableStore ?? base.mosqueTimetables() }
    /// The set qada store, else the base's.
    public func qada() -> any QadaStore { qadaStore ?? base.qada() }
    /// The set fast store, else the base's.
    public func fasts() -> any FastStore { fastStore ?? base.fasts() }
    /// The set backup service, else the base's.
    public func backup() -> any BackupService { backupService ?? base.backup() }
    /// The set sync service, else the base's.
    public func syncService() -> any SyncService { sync ?? base.syncService() }

    // MARK: - Logging

    /// The set destinations, else the base's.
    public func logServices() -> [any LogService] { logs ?? base.logServices() }
    /// The set logger; else one over the set destinations at the base's level; else the base's.
    public func log() -> LogManager {
        if let logger { return logger }
        guard let logs else { return base.log() }
        return LogManager(services: logs, minLevel: base.log().minLevel)
    }

    // MARK: - Reminders

    /// The set notification service, else the base's.
    public func notificationService() -> any NotificationService {
        notifications ?? base.notificationService()
    }
    /// A manager over ``prayerService()`` and ``hijriService()``.
    public func reminderManager() -> ReminderManager {
        ReminderManager(prayers: prayerService(), hijri: hijriService(), log: log())
    }
    /// The set sound service, else the base's.
    public func soundService() -> any SoundService { sounds ?? base.soundService() }
    /// The set reminder state store, else the base's.
    public func reminderState() -> any ReminderStateStore { reminderStateStore ?? base.reminderState() }

    // MARK: - Printing

    /// The set PDF service, else the base's.
    public func pdfService() -> any PDFService { pdf ?? base.pdfService() }

    // MARK: - Server

    /// The set server service, else the base's.
    public func serverService() -> any ServerService { server ?? base.serverService() }
    /// The set routes, else the base's.
    public func serverRoutes() -> any ServerRoutes { routes ?? base.serverRoutes() }

    // MARK: - Sync server

    /// The set store for `location`, else the base's.
    public func syncStore(at location: SyncStoreLocation, connections: Int) throws -> any SyncStore {
        try syncStoreAt?(location) ?? base.syncStore(at: location, connections: connections)
    }
    /// The set sync endpoints over `store`, else the base's.
    public func syncRoutes(store: any SyncStore) -> any ServerRoutes {
        makeSyncRoutes?(store) ?? base.syncRoutes(store: store)
    }
    /// The set migrator, else the base's.
    public func syncStoreMigrator() -> any SyncStoreMigrator { storeMigrator ?? base.syncStoreMigrator() }
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
