import Foundation
import PrayCore
import PrayMocks
import Testing

/// The mocks record what they are asked and fail the test when asked something not set up.
@Suite struct MockTests {
    let request = PrayerAPI.Request(coordinates: .mockMakkah, timeZone: .gmt, date: .mockDate, parameters: .custom())

    @Test func unsetCallsFailTheTest() async {
        await withKnownIssue("each unset call records an issue", isIntermittent: false) {
            await #expect(throws: MockError.self) { try await PrayerServiceMock().prayerTimes(for: request) }
            await #expect(throws: MockError.self) {
                try await NetworkServiceMock().send(HTTPRequest(url: URL(string: "https://example.org")!))
            }
            #expect(throws: MockError.self) { try HijriServiceMock().days(for: HijriAPI.Request(date: .mockDate)) }
            let qibla = QiblaServiceMock().qibla(from: .mockMakkah)
            #expect(qibla.direction.isNaN)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("was called but the test did not set a result") }
        }
    }

    @Test func servicesReturnWhatIsSetAndRecordTheCalls() async throws {
        let prayers = PrayerServiceMock()
        prayers.result = .success(PrayerAPI.Response(schedules: [.mock()], source: .calculated))
        #expect(try await prayers.prayerTimes(for: request).source == .calculated)
        #expect(prayers.requests == [request])

        let network = NetworkServiceMock()
        network.enqueue(body: Data("ok".utf8))
        let response = try await network.send(HTTPRequest(url: URL(string: "https://example.org/a")!))
        #expect(response.body == Data("ok".utf8))
        #expect(network.requests.map(\.url.path) == ["/a"])

        let qibla = QiblaServiceMock()
        qibla.result = Qibla(coordinates: .mockMakkah, direction: 1, sphericalDirection: 1, distanceKilometers: 1)
        #expect(qibla.qibla(from: .mockMakkah).direction == 1)
        #expect(qibla.places == [.mockMakkah])

        let hijri = HijriServiceMock()
        hijri.onDay { _, calendar, _ in .mock(calendar: calendar) }
        #expect(try hijri.day(of: .mock(), calendar: .civil, offset: 0).calendar == .civil)
        #expect(hijri.calls == ["day(of:calendar:offset:)"])
    }

    @Test func storesKeepWhatIsWrittenAndRecordTheCalls() throws {
        let preferences = PreferencesStoreMock()
        try preferences.update { try $0.set("isna", for: .method) }
        #expect(try preferences.preferences()[.method] == "north-america")
        #expect(preferences.calls == ["update(_:)", "preferences()"])
        #expect(preferences.updates == 1)

        let log = PrayerLogStoreMock()
        try log.record(.missed, for: .fajr, on: .mockDate)
        #expect(try log.statistics(today: .mockDate).qadaOwed == 1)
        #expect(log.calls == ["record(_:for:on:)", "statistics(today:)"])

        let backup = BackupServiceMock(preferences: preferences, prayerLog: log)
        let exported = try backup.exportData()
        try log.record(.prayed, for: .isha, on: .mockDate)
        try backup.importData(exported)
        #expect(log.allEntries.map(\.prayer) == [.fajr])
        #expect(backup.calls == ["exportData()", "importData(_:)"])
    }

    @Test func aStoreErrorIsThrownAndChangesNothing() throws {
        let log = PrayerLogStoreMock()
        log.error = StorageError(kind: .full, message: "database or disk is full")
        #expect(throws: StorageError.self) { try log.record(.prayed, for: .fajr, on: .mockDate) }
        let backup = BackupServiceMock(prayerLog: log)
        #expect(throws: StorageError.self) {
            try backup.importData(UserData(preferences: Preferences(), prayerLog: []))
        }
        #expect(backup.preferences.updates == 0)
        log.error = nil
        #expect(log.allEntries.isEmpty)
    }

    @Test func factoriesMakeConsistentModels() throws {
        let day = PrayerDay.mock()
        #expect(day.date == .mockDate)
        #expect(day.yesterday.date == CivilDate.mockDate.adding(days: -1))
        #expect(HijriDate.mock() == (try HijriDate(year: 1448, month: 6, day: 19)))
        #expect(HijriDay.mock().gregorian == .mockDate)
    }
}
