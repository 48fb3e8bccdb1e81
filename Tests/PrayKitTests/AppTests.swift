import Foundation
import PrayCore
import PrayKit
import PrayMocks
import Testing

/// The same small app, once on the real container with a temporary database, once on mocks.
@Suite(.tags(.concurrency)) struct AppTests {
    /// 2026-11-29 13:00 in London (UTC+0).
    let now = Date(timeIntervalSince1970: Double(CivilDate.mockDate.daysSince1970) * 86_400 + 13 * 3_600)

    @Test func onTheRealContainer() async throws {
        // Given the container configured with a throwaway database
        TestContainer.configured
        let app = PrayerCompanion(dependency: PrayDependency())
        await #expect(throws: PrayerCompanion.CompanionError.noPlace) { try await app.today(at: now) }
        // When the person chooses London and prays yesterday's five prayers
        try app.choosePlace(latitude: 51.5074, longitude: -0.1278, timeZone: "Europe/London", method: "mwl")
        try app.prayedAll(on: CivilDate.mockDate.adding(days: -1))
        let today = try await app.today(at: now)
        // Then the real services answer: Asr is next (about 13:50 in London), 19 Jumada al-Akhirah
        // 1448 (Umm al-Qura), qibla 118.868° (GeographicLib), and yesterday makes a one-day streak
        #expect(today.date == .mockDate)
        #expect(today.next?.prayer == .asr)
        #expect(today.next.map { (0...3_600).contains($0.date.timeIntervalSince(now)) } == true)
        #expect(today.hijri == (try HijriDate(year: 1448, month: 6, day: 19)))
        #expect(abs(today.qiblaDirection - 118.868_4) < 1e-4)
        #expect(today.streak == 1)
        // And everything reached the database file and the configured log
        #expect(FileManager.default.fileExists(atPath: TestContainer.databasePath))
        let backup = try PrayDependency().backup().exportData()
        #expect(backup.preferences[.method] == "muslim-world-league")
        #expect(backup.prayerLog.count == 5)
        #expect(TestContainer.log.events.contains { $0.message == "Today shown" })
        #expect(TestContainer.log.events.contains { $0.message == "Database created" })
    }

    @Test func onMocks() async throws {
        // Given mocks for every service the app uses, and stores in memory
        var dependency = PrayDependencyMock()
        var stored = Preferences()
        try stored.set("51.5074", for: .latitude)
        try stored.set("-0.1278", for: .longitude)
        try stored.set("Europe/London", for: .timeZone)
        let preferences = PreferencesStoreFake(stored)
        dependency.preferenceStore = preferences
        let prayers = PrayerServiceMock()
        prayers.onPrayerTimes { request in
            PrayerAPI.Response(schedules: request.dates.map { PrayerSchedule.mock(date: $0) }, source: .calculated)
        }
        dependency.prayers = prayers
        let qibla = QiblaServiceMock()
        qibla.onQibla { coordinates in
            Qibla(coordinates: coordinates, direction: 118.99, sphericalDirection: 119.0, distanceKilometers: 4_790)
        }
        dependency.qibla = qibla
        let hijri = HijriServiceMock()
        hijri.onDays { request in [HijriDay.mock(gregorian: request.date)] }
        dependency.hijri = hijri
        let log = PrayerLogStoreFake()
        dependency.prayerLogStore = log
        let app = PrayerCompanion(dependency: dependency)
        // When
        try app.prayedAll(on: CivilDate.mockDate.adding(days: -1))
        let today = try await app.today(at: now)
        // Then the app shows what the mocks said, asked them what an app should, and kept the log
        #expect(
            today
                == PrayerCompanion.Today(
                    date: .mockDate, next: PrayerSchedule.mock()[.asr], hijri: .mock(), qiblaDirection: 118.99,
                    streak: 1))
        #expect(prayers.prayerTimesCalls.map(\.parameters) == [CalculationParameters(method: .muslimWorldLeague)])
        #expect(qibla.qiblaCalls.map(\.latitude) == [51.5074])
        #expect(hijri.daysCalls.map(\.date) == [.mockDate])
        #expect(preferences.preferences() == stored)
        #expect(log.allEntries.map(\.prayer) == Prayer.obligatory)
        let memory = try #require(dependency.logs.first as? LogServiceMemory)
        #expect(memory.events.map(\.message) == ["Today shown"])
    }

    @Test func aFailingStoreReachesTheApp() async throws {
        var dependency = PrayDependencyMock()
        let preferences = PreferencesStoreMock()
        let corrupt = StorageError(kind: .corrupt, message: "database disk image is malformed")
        preferences.onPreferences { throw corrupt }
        preferences.onUpdate { throw corrupt }
        dependency.preferenceStore = preferences
        let app = PrayerCompanion(dependency: dependency)
        await #expect(throws: StorageError.self) { try await app.today(at: now) }
        #expect(throws: StorageError.self) {
            try app.choosePlace(latitude: 0, longitude: 0, timeZone: "UTC", method: "mwl")
        }
        #expect(preferences.preferencesCalls.count == 1)
        #expect(preferences.updateCalls.count == 1)
    }
}
