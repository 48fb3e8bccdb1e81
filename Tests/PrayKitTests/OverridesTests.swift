import Foundation
import PrayCore
import PrayKit
import PrayMocks
import PrayServices
import Testing

#if os(Linux) && canImport(PrayServer)
    import PrayServer
#endif

/// An app starts from the live container, replaces one service, and keeps the rest — and the
/// managers follow the replacement.
@Suite struct OverridesTests {
    @Test func aReplacedLocationServiceIsTheOneTheLocationManagerAsks() async throws {
        // Given: the live container with the device's location replaced
        TestContainer.configured
        let location = LocationServiceMock()
        location.onCurrentLocation {
            LocationAPI.Fix(coordinates: try Coordinates(latitude: 24.4672, longitude: 39.6024), isSavedPlace: false)
        }
        let dependency = PrayDependency().overriding { $0.location = location }
        // When
        let resolved = try await dependency.locationManager().resolve(.init(.current))
        // Then: the replacement's place, with the live zone boundaries and country table (the method
        // itself may be one another test saved in the shared test database)
        #expect(resolved.coordinates.latitude == 24.4672)
        #expect(resolved.timeZone.identifier == "Asia/Riyadh")
        #expect(resolved.countryMethod.method == .ummAlQura && resolved.countryCode == "SA")
        #expect(location.currentLocationCalls.count == 1)
    }

    @Test func aReplacedPrayerServiceIsTheOneTheManagersUse() async throws {
        // Given
        TestContainer.configured
        let prayers = PrayerServiceMock()
        prayers.onPrayerTimes { request in
            PrayerAPI.Response(schedules: request.dates.map { PrayerSchedule.mock(date: $0) }, source: .calculated)
        }
        let dependency = PrayDependency().overriding { $0.prayers = prayers }
        let request = PrayerAPI.Request(
            coordinates: .mockMakkah, timeZone: .gmt, date: .mockDate,
            parameters: CalculationParameters(method: .ummAlQura))
        // When
        _ = try await dependency.prayerManager().day(for: request)
        let events = try await dependency.reminderManager().events(
            for: request, from: Date(timeIntervalSince1970: Double(CivilDate.mockDate.daysSince1970) * 86_400),
            until: Date(timeIntervalSince1970: Double(CivilDate.mockDate.daysSince1970 + 1) * 86_400),
            settings: ReminderSettings(), iqama: nil)
        // Then: both managers asked the replacement
        #expect(prayers.prayerTimesCalls.count >= 2)
        #expect(!events.isEmpty)
    }

    @Test func everythingNotReplacedIsTheBases() throws {
        TestContainer.configured
        let notifications = NotificationServiceMock()
        let dependency = PrayDependency().overriding { $0.notifications = notifications }
        #expect(dependency.notificationService() as? NotificationServiceMock === notifications)
        // The live geodesic qibla: New York's is about 58.4°
        let qibla = dependency.qiblaService().qibla(from: try Coordinates(latitude: 40.7128, longitude: -74.006))
        #expect(abs(qibla.direction - 58.4) < 0.1)
        // The live World Magnetic Model, or the one set
        #expect(dependency.magneticFieldService() is MagneticFieldServiceWMM)
        #expect(dependency.magneticFieldService().model.name == "WMM2025")
        let magnetic = MagneticFieldServiceMock()
        #expect(
            PrayDependency().overriding { $0.magneticField = magnetic }.magneticFieldService()
                as? MagneticFieldServiceMock === magnetic)
        #expect(dependency.logServices().first as? LogServiceMemory === TestContainer.log)
        // A logger over replaced destinations, at the base's level
        let memory = LogServiceMemory()
        let logged = PrayDependency().overriding { $0.logs = [memory] }
        logged.log().warning("Override probe")
        #expect(memory.events.map(\.message) == ["Override probe"])
        #expect(logged.log().minLevel == PrayDependency().log().minLevel)
        // The sync store migrator: the live one (PrayServer's, where PrayKit links it), or the one set
        #if os(Linux) && canImport(PrayServer)
            #expect(dependency.syncStoreMigrator() is SyncStoreMigratorSQL)
        #else
            #expect(throws: SyncStoreError.self) {
                try dependency.syncStoreMigrator().migrateSchema(at: .sqlite(path: ""))
            }
        #endif
        let migrator = SyncStoreMigratorMock()
        let overridden = PrayDependency().overriding { $0.storeMigrator = migrator }
        #expect(overridden.syncStoreMigrator() as? SyncStoreMigratorMock === migrator)
    }

    @Test func theReminderRunnerDeliversThroughAReplacedNotificationService() async throws {
        // Given: the live container with the app's own notifications, the device's location, a fake
        // clock at 12:30 UTC on the mock date and the mock schedule (asr at 15:30 UTC) — and an
        // in-memory record and no sync, so that nothing of the shared test database is touched.
        TestContainer.configured
        let notifications = NotificationServiceMock()
        notifications.onDeliver { _, _ in }
        let location = LocationServiceMock()
        location.onCurrentLocation {
            LocationAPI.Fix(
                coordinates: try Coordinates(latitude: 24.4672, longitude: 39.6024), name: "Medina", isSavedPlace: false
            )
        }
        let prayers = PrayerServiceMock()
        prayers.onPrayerTimes { request in
            PrayerAPI.Response(schedules: request.dates.map { PrayerSchedule.mock(date: $0) }, source: .calculated)
        }
        let dependency = PrayDependency().overriding {
            $0.notifications = notifications
            $0.location = location
            $0.prayers = prayers
            $0.clockService = PrayClockFake(now: Date(timeIntervalSince1970: 1_795_953_600 + 1_800))
            $0.reminderStateStore = ReminderStateStoreFake()
            $0.sync = SyncServiceMock()
        }
        // When: the runner at its defaults (the current place, the saved settings) fires once
        let fired = try await dependency.reminderRunner().run(limit: 1)
        // Then: asr's adhan, delivered by the replacement with the place and the live zone at it
        #expect(fired.map(\.prayer) == [.asr])
        let delivered = try #require(notifications.deliverCalls.first)
        #expect(delivered.event == fired.first)
        #expect(delivered.context.place == "Medina")
        #expect(delivered.context.timeZone.identifier == "Asia/Riyadh")
    }
}
