import Foundation
import PrayCore
import PrayMocks
import Testing

/// The mocks have one shape — `on<Requirement>` sets an answer, `<requirement>Calls` reads the
/// arguments of each call, an unset call fails the test — and the fakes keep what is written.
@Suite(.tags(.concurrency)) struct MockTests {
    let request = PrayerAPI.Request(coordinates: .mockMakkah, timeZone: .gmt, date: .mockDate, parameters: .custom())

    /// Whether `issue` is the one an unset mock records.
    static func isUnsetCall(_ issue: Issue) -> Bool {
        issue.comments.contains { $0.rawValue.contains("was called but the test did not set a result") }
    }

    // MARK: - The recorder

    @Test func aMockFunctionRecordsEveryCallInOrderAndAnswersWhatIsSet() throws {
        let greet = MockFunction<(name: String, times: Int), String, any Error>("Example.greet(_:times:)")
        // An unset call fails the test and throws.
        withKnownIssue("an unset call records an issue", isIntermittent: false) {
            #expect(throws: MockError(notConfigured: "Example.greet(_:times:)")) { try greet(("a", 1)) }
        } matching: {
            Self.isUnsetCall($0)
        }
        // `on` sets the answer, and a later `on` replaces it.
        greet.on { "\($0.name) ×\($0.times)" }
        #expect(try greet(("b", 2)) == "b ×2")
        greet.on { _ in throw CancellationError() }
        #expect(throws: CancellationError.self) { try greet(("c", 3)) }
        // Every call is recorded with its arguments, oldest first — the unset one too.
        #expect(greet.calls.map(\.name) == ["a", "b", "c"])
        #expect(greet.calls.map(\.times) == [1, 2, 3])
    }

    @Test func aMockFunctionThatCannotThrowReturnsItsFallbackWhenUnset() {
        let double = MockFunction<Int, Int, Never>("Example.double(_:)") { _ in 0 }
        withKnownIssue("an unset call records an issue", isIntermittent: false) {
            #expect(double(2) == 0)
        } matching: {
            Self.isUnsetCall($0)
        }
        double.on { $0 * 2 }
        #expect(double(3) == 6)
        #expect(double.calls == [2, 3])
    }

    // MARK: - The mocks

    @Test func unsetMocksFailTheTest() async {
        await withKnownIssue("each unset call records an issue", isIntermittent: false) {
            await #expect(throws: MockError.self) { try await PrayerServiceMock().prayerTimes(for: request) }
            await #expect(throws: MockError.self) {
                try await NetworkServiceMock().send(HTTPRequest(url: URL(string: "https://example.org")!))
            }
            #expect(throws: MockError.self) { try HijriServiceMock().days(for: HijriAPI.Request(date: .mockDate)) }
            #expect(throws: MockError.self) { try PreferencesStoreMock().preferences() }
            #expect(throws: MockError.self) { try BackupServiceMock().exportData() }
            #expect(throws: MockError.self) {
                try MagneticFieldServiceMock().field(at: .mockMakkah, heightMeters: 0, year: DecimalYear(2026))
            }
            #expect(throws: MockError.self) { try SyncStoreMigratorMock().migrateSchema(at: .sqlite(path: "/s")) }
            #expect(throws: MockError.self) { try ReminderStateStoreMock().handled(since: Date()) }
        } matching: {
            Self.isUnsetCall($0)
        }
    }

    @Test func unsetMocksThatCannotThrowAnswerTheirDocumentedFallback() async {
        await withKnownIssue("each unset call records an issue", isIntermittent: false) {
            let qibla = QiblaServiceMock().qibla(from: .mockMakkah)
            #expect(
                qibla == Qibla(coordinates: .mockMakkah, direction: 0, sphericalDirection: 0, distanceKilometers: 0))
            #expect(ServerRoutesMock().respond(to: ServerAPI.Request(target: "/")).status == 500)
            for await _ in PreferencesStoreMock().preferencesSequence() { Issue.record("the stream has ended") }
            #expect(ReminderStateStoreMock().runningDaemon() == nil)
        } matching: {
            Self.isUnsetCall($0)
        }
    }

    @Test func mocksAnswerWhatIsSetAndRecordTheArguments() async throws {
        let prayers = PrayerServiceMock()
        prayers.onPrayerTimes { _ in PrayerAPI.Response(schedules: [.mock()], source: .calculated) }
        #expect(try await prayers.prayerTimes(for: request).source == .calculated)
        #expect(prayers.prayerTimesCalls == [request])

        let qibla = QiblaServiceMock()
        qibla.onQibla { Qibla(coordinates: $0, direction: 1, sphericalDirection: 1, distanceKilometers: 1) }
        #expect(qibla.qibla(from: .mockMakkah).direction == 1)
        #expect(qibla.qiblaCalls == [.mockMakkah])

        let state = ReminderStateStoreMock()
        state.onRunningDaemon { _ in 4242 }
        state.onRegisterDaemon { _ in }
        try state.registerDaemon(pid: 7)
        #expect(state.runningDaemon() == 4242)
        #expect(state.registerDaemonCalls == [7])

        let magnetic = MagneticFieldServiceMock()
        magnetic.onField { coordinates, _, year in .mock(declination: -12.5, at: coordinates, year: year) }
        let field = try magnetic.field(at: .mockMakkah, heightMeters: 30, year: DecimalYear(2027.5))
        #expect(abs(field.declination - -12.5) < 1e-12)
        #expect(abs(field.magneticBearing(fromTrue: 58.4) - 70.9) < 1e-9)
        #expect(magnetic.model == .mockWMM2025)
        #expect(magnetic.fieldCalls.map(\.heightMeters) == [30])
        #expect(magnetic.fieldCalls.map(\.year) == [DecimalYear(2027.5)])
        magnetic.onField { _, _, _ in throw MagneticFieldError(.outsideValidity, message: "after 2030.0") }
        #expect(throws: MagneticFieldError.self) {
            try magnetic.field(at: .mockMakkah, heightMeters: 0, year: DecimalYear(2031))
        }

        let hijri = HijriServiceMock()
        hijri.onDay { _, calendar, _ in .mock(calendar: calendar) }
        #expect(try hijri.day(of: .mock(), calendar: .civil, offset: 0).calendar == .civil)
        #expect(try hijri.day(of: .mock(day: 20), calendar: .ummAlQura, offset: 1).calendar == .ummAlQura)
        #expect(hijri.dayCalls.map(\.date) == [.mock(), .mock(day: 20)])
        #expect(hijri.dayCalls.map(\.calendar) == [.civil, .ummAlQura])
        #expect(hijri.dayCalls.map(\.offset) == [0, 1])
        #expect(hijri.daysCalls.isEmpty)

        let log = PrayerLogStoreMock()
        log.onRecord { status, prayer, date in
            try PrayerLogEntry(date: date, prayer: prayer, status: status, recordedAt: Date(timeIntervalSince1970: 0))
        }
        try log.record(.missed, for: .fajr, on: .mockDate)
        #expect(log.recordCalls.map(\.prayer) == [.fajr])
        #expect(log.recordCalls.map(\.status) == [.missed])
        #expect(log.recordEntriesCalls.isEmpty)
    }

    @Test func theNetworkScriptAnswersInOrderThenFailsTheTest() async throws {
        let network = NetworkServiceMock()
        let url = try #require(URL(string: "https://example.org/a"))
        network.enqueue(body: Data("ok".utf8))
        network.enqueue(.failure(NetworkError(kind: .connection, url: url, message: "refused")))
        let response = try await network.send(HTTPRequest(url: url))
        #expect(response.body == Data("ok".utf8))
        await #expect(throws: NetworkError.self) { try await network.send(HTTPRequest(url: url)) }
        await withKnownIssue("the script is used up", isIntermittent: false) {
            await #expect(throws: MockError.self) { try await network.send(HTTPRequest(url: url)) }
        } matching: {
            Self.isUnsetCall($0)
        }
        #expect(network.sendCalls.map(\.url.path) == ["/a", "/a", "/a"])
    }

    @Test func aFailingStoreIsAMockThatThrows() throws {
        let log = PrayerLogStoreMock()
        let full = StorageError(kind: .full, message: "database or disk is full")
        log.onRecord { _, _, _ in throw full }
        #expect(throws: full) { try log.record(.prayed, for: .fajr, on: .mockDate) }
        let backup = BackupServiceMock()
        backup.onImportData { _, _ in throw full }
        let data = UserData(preferences: Preferences(), prayerLog: [])
        #expect(throws: full) { try backup.importData(data) }
        #expect(backup.importDataCalls.map(\.data) == [data])
        #expect(backup.exportDataCalls.isEmpty)
    }

    // MARK: - The fakes

    @Test func fakesKeepWhatIsWritten() throws {
        let preferences = PreferencesStoreFake()
        try preferences.update { try $0.set("isna", for: .method) }
        #expect(preferences.preferences()[.method] == "north-america")
        #expect(throws: ValidationError.self) { try preferences.update { try $0.set("nowhere", for: .method) } }
        #expect(preferences.preferences()[.method] == "north-america")

        let log = PrayerLogStoreFake()
        try log.record(.missed, for: .fajr, on: .mockDate)
        try log.record(.prayed, for: .fajr, on: .mockDate)
        try log.record(.missed, for: .isha, on: .mockDate.adding(days: -1))
        #expect(log.allEntries.map(\.prayer) == [.isha, .fajr])
        #expect(log.entries(from: .mockDate, through: .mockDate).map(\.status) == [.prayed])
        #expect(log.statistics(today: .mockDate).qadaOwed == 1)
        #expect(log.delete([.isha], on: .mockDate.adding(days: -1)).map(\.prayer) == [.isha])

        let backup = BackupServiceFake(preferences: preferences, prayerLog: log)
        let exported = backup.exportData()
        try log.record(.prayed, for: .dhuhr, on: .mockDate)
        preferences.update { $0 = Preferences() }
        backup.importData(exported)
        #expect(log.allEntries.map(\.prayer) == [.fajr])
        #expect(preferences.preferences()[.method] == "north-america")
    }

    @Test func fakeStoresYieldNowAndAfterEachChange() async throws {
        let preferences = PreferencesStoreFake()
        var preferenceValues = preferences.preferencesSequence().makeAsyncIterator()
        #expect(await preferenceValues.next() == Preferences())
        try preferences.update { try $0.set("isna", for: .method) }
        #expect(await preferenceValues.next()?[.method] == "north-america")

        let log = PrayerLogStoreFake()
        var entries = log.entriesSequence(from: .mockDate, through: .mockDate).makeAsyncIterator()
        #expect(await entries.next() == [])
        try log.record(.prayed, for: .asr, on: .mockDate)
        #expect(await entries.next()?.map(\.prayer) == [.asr])
    }

    @Test func theDependencyMocksBackupCoversItsStores() throws {
        let dependency = PrayDependencyMock()
        try dependency.prayerLog().record(.prayed, for: .maghrib, on: .mockDate)
        #expect(try dependency.backup().exportData().prayerLog.map(\.prayer) == [.maghrib])
    }

    @Test func factoriesMakeConsistentModels() throws {
        let day = PrayerDay.mock()
        #expect(day.date == .mockDate)
        #expect(day.yesterday.date == CivilDate.mockDate.adding(days: -1))
        #expect(HijriDate.mock() == (try HijriDate(year: 1448, month: 6, day: 19)))
        #expect(HijriDay.mock().gregorian == .mockDate)
    }
}
