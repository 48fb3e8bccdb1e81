import Foundation
import PrayCore
import PrayKit
import PrayMocks
import PrayPlaces
import PrayServer
import PrayServices
import Synchronization

@testable import PrayCLI

/// Runs `praykit` in-process, on `PrayDependencyMock`: the real calculation services (prayer times,
/// Hijri, qibla) and in-memory stores, with standard output and error in memory. Dispatch, parsing,
/// error mapping and rendering are what is tested; nothing is spawned.
enum CLI {
    /// What a run did.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// The configuration the command line asked the container for.
        let configuration: PrayDependency.Configuration?
    }

    /// 2026-11-29 12:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_953_600)

    /// The offline zone boundaries and gazetteer, loaded once for every run.
    static let timeZones = TimeZoneServiceBoundaries(log: .silent)
    static let places = PlaceServiceGazetteer(log: .silent)

    /// A dependency with the real calculation and location services and the given stores.
    static func dependency(
        preferences: Preferences = Preferences(), log: PrayerLogStoreFake = PrayerLogStoreFake(),
        memory: LogServiceMemory = LogServiceMemory()
    ) -> PrayDependencyMock {
        var dependency = PrayDependencyMock()
        let prayers = PrayerServiceAstronomical(log: .silent)
        dependency.prayers = prayers
        dependency.calculator = prayers
        dependency.hijri = HijriServiceUmmAlQura(prayerService: prayers, log: .silent)
        dependency.qibla = QiblaServiceGeodesic(log: .silent)
        dependency.magneticField = MagneticFieldServiceWMM(log: .silent)
        dependency.timeZones = timeZones
        dependency.places = places
        let preferenceStore = PreferencesStoreFake(preferences)
        dependency.preferenceStore = preferenceStore
        dependency.prayerLogStore = log
        dependency.backupService = BackupServiceFake(preferences: preferenceStore, prayerLog: log)
        dependency.logs = [memory]
        dependency.sync = SyncServiceMock.off()
        // `serve` starts a server that has already stopped, so that the command returns.
        let servers = ServerServiceMock()
        servers.onStart { configuration, _ in RunningServerFake(host: configuration.host, port: 8080, isStopped: true) }
        dependency.server = servers
        // A sync server's store that has no users and refuses every name it does not know, so that
        // `serve sync …` and `serve --sync-store` run on any command line without a file.
        dependency.syncStoreAt = { _ in emptySyncStore() }
        dependency.storeMigrator = upToDateMigrator()
        dependency.makeSyncRoutes = { store in SyncRoutes(store: store, clock: PrayClockFake(now: now), log: .silent) }
        // The AlAdhan API over these services, as the container builds it.
        dependency.routes = AlAdhanRoutes(
            calculator: prayers, hijri: dependency.hijri, qibla: dependency.qibla,
            lookups: .init(dependency.locationManager()), clock: PrayClockFake(now: now), log: .silent)
        return dependency
    }

    /// A ``SyncStoreMock`` for administration without users: adding one gives a code, and every other
    /// name or device is unknown.
    static func emptySyncStore() -> SyncStoreMock {
        let store = SyncStoreMock()
        store.onAddUser { name, now in SyncPairingCode(user: name, code: "ABCDE-FGHJK", expiresAt: now + 900) }
        store.onNewPairingCode { name, _ in throw SyncServerError(.notFound, message: "no user named \(name)") }
        store.onUsers { [] }
        store.onDevices { [] }
        store.onSpaces { [] }
        store.onRevokeDevice { id, _ in throw SyncServerError(.notFound, message: "no device \(id)") }
        return store
    }

    /// A ``SyncStoreMigratorMock`` for which every schema is up to date and every copy copies
    /// nothing, so that `serve sync migrate-schema` and `migrate` run on any command line.
    static func upToDateMigrator() -> SyncStoreMigratorMock {
        let migrator = SyncStoreMigratorMock()
        migrator.onMigrateSchema { _ in SyncSchemaChange(before: 1, after: 1) }
        migrator.onCopy { _ in SyncStoreCopyReport() }
        return migrator
    }

    /// Runs one command line.
    static func run(
        _ arguments: [String], dependency: PrayDependencyMock = dependency(),
        environment: [String: String] = ["TZ": "UTC"], now: Date = now, standardInput: Data = Data(),
        clock: (any PrayClock)? = nil
    ) async -> Result {
        let output = OutputSink.memory()
        let diagnostics = OutputSink.memory()
        let configuration = Mutex<PrayDependency.Configuration?>(nil)
        var dependency = dependency
        dependency.clockService = clock ?? PrayClockFake(now: now)
        let status = await PrayCommandLine.run(
            arguments, environment: environment, output: output, diagnostics: diagnostics,
            readStandardInput: { Data(standardInput.prefix($0)) },
            dependency: { given in
                configuration.withLock { $0 = given }
                return dependency
            }
        )
        return Result(
            status: status, stdout: output.text, stderr: diagnostics.text, configuration: configuration.withLock { $0 })
    }

    /// The JSON object printed.
    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    /// Preferences from pairs.
    static func preferences(_ values: [Preferences.Key: String]) throws -> Preferences {
        var preferences = Preferences()
        for (key, value) in values { try preferences.set(value, for: key) }
        return preferences
    }
}
