import Foundation
import PrayCore
import PrayKit
import PrayMocks
import PrayPlaces
import PrayServices
import Synchronization
import Testing

// The code samples of the DocC catalogs of PrayCore, PrayServices, PrayPlaces, PrayMocks and PrayKit,
// verbatim, so they keep compiling and giving what their comments say; `DocCSampleCoverageTests`
// fails when a catalog's sample (or one of the README's and docs/'s Swift samples, which
// ReadmeSampleTests.swift holds) is not in this folder's tests as written. PrayServer's are in
// Tests/PrayServerTests/DocCSampleTests.swift.

// MARK: - PrayCore.docc: PrayCore

enum PrayCoreLandingSample {
    struct TimetableModel {
        let dependency: any PrayKitDependency

        func today(_ request: PrayerAPI.Request) async throws -> PrayerDay {
            try await dependency.prayerManager().day(for: request)
        }
    }
}

// MARK: - PrayCore.docc: Getting started

enum PrayCoreGettingStartedSample {
    static func request() throws -> PrayerAPI.Request {
        let london = TimeZone(identifier: "Europe/London")!
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 51.5085, longitude: -0.1257),
            timeZone: london,
            date: try CivilDate(year: 2026, month: 12, day: 1),
            days: 7,
            parameters: CalculationParameters(method: .moonsightingCommittee)
        )
        return request
    }

    static func days(
        _ dependency: any PrayKitDependency, _ request: PrayerAPI.Request
    ) async throws -> (fajr: Date?, next: PrayerTime?, now: PrayerTime?, count: Int) {
        let days = try await dependency.prayerManager().days(for: request)
        let fajr = days[0].today[.fajr]?.date  // 06:04 in London, as `praykit times --city London --date 2026-12-01`
        let afterSunrise = try Date("2026-12-01T08:00:00Z", strategy: .iso8601)  // sunrise was at 07:44
        let next = days[0].nextPrayer(at: afterSunrise)  // dhuhr at 11:55: sunrise is a time, not a prayer
        let now = days[0].current(at: afterSunrise)  // sunrise, the start of the period the instant is in
        return (fajr, next, now, days.count)
    }

    static func qiblaAndHijri(
        _ dependency: any PrayKitDependency, _ request: PrayerAPI.Request
    ) throws -> (qibla: Qibla, field: MagneticField, today: HijriDay) {
        let qibla = dependency.qiblaService().qibla(from: request.coordinates)
        print(qibla.direction, qibla.compass, qibla.distanceKilometers)  // 118.87° ESE, 4794.7 km

        // By compass: the World Magnetic Model's declination (WMM2025, valid 2025.0–2030.0).
        let field = try dependency.magneticFieldService().field(
            at: request.coordinates, heightMeters: request.coordinates.elevation, on: request.date)
        print(field.magneticBearing(fromTrue: qibla.direction), field.declination, field.declinationReliability)

        let today = try dependency.hijriService().days(for: HijriAPI.Request(date: request.date))[0]
        print(today.hijri, today.notableDays)  // 1448-06-21 (21 Jumada al-Akhirah), no notable day
        return (qibla, field, today)
    }

    static func storage(
        _ dependency: any PrayKitDependency, _ request: PrayerAPI.Request
    ) async throws -> (saved: Preferences, found: PlaceAPI.SearchResult) {
        try await dependency.prayerLog().async.record(.prayed, for: .fajr, on: request.date)
        let saved = try await dependency.preferences().async.preferences()
        let found = try await dependency.placeService().async.search("Makkah")
        return (saved, found)
    }

    static func logging(_ myDestination: any LogService) {
        let log = LogManager(services: [myDestination], minLevel: .info)
        log.notice("High-latitude rule applied", metadata: ["prayer.rule": "seventh-of-the-night"])
    }
}

// MARK: - PrayCore.docc: Syncing devices

/// What the sample's `model` is: something that shows a status.
final class SyncStatusShown: Sendable {
    private let shown = LockedList<SyncStatus>()

    var statuses: [SyncStatus] { shown.values }

    func show(_ status: SyncStatus) { shown.append(status) }
}

enum PrayCoreSyncingDevicesSample {
    static func inAnApp(
        _ dependency: any PrayKitDependency, serverURL: URL, code: String, model: SyncStatusShown
    ) async throws {
        let sync = dependency.syncService()
        _ = try await sync.login(SyncLogin(server: serverURL, code: code, deviceName: "Phone"))
        for await status in sync.status() {
            // phase, lastSynced, unsyncedCount ("3 changes not yet synced"), failedCount, lastError
            model.show(status)
        }
    }
}

// MARK: - PrayServices.docc: Using the services directly

enum PrayServicesSample {
    static func prayerTimes() async throws -> (day: PrayerDay, log: LogManager, prayers: PrayerServiceAstronomical) {
        let log = LogManager(services: [LogServiceConsole()], minLevel: .notice)
        let prayers = PrayerServiceAstronomical(log: log)
        let makkah = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
            timeZone: TimeZone(identifier: "Asia/Riyadh")!,
            date: try CivilDate(year: 2026, month: 11, day: 29),
            parameters: CalculationParameters(method: .ummAlQura)
        )
        let day = try await PrayerManager(service: prayers, log: log).day(for: makkah)
        // fajr 05:20, dhuhr 12:09, isha 19:07: `praykit times --lat 21.4225 --lon 39.8262 --date 2026-11-29`
        return (day, log, prayers)
    }

    static func qiblaAndHijri(
        _ log: LogManager, _ prayers: PrayerServiceAstronomical
    ) throws -> (qibla: Qibla, first: HijriDay) {
        let qibla = QiblaServiceGeodesic(log: log).qibla(from: try Coordinates(latitude: 40.7128, longitude: -74.0060))
        // 58.40° (ENE) along the geodesic; 58.48° on a sphere
        let hijri = HijriServiceUmmAlQura(prayerService: prayers, log: log)
        let first = try hijri.days(for: HijriAPI.Request(date: try CivilDate(year: 2027, month: 2, day: 8)))[0]
        // 1448-09-01, the first of Ramadan
        return (qibla, first)
    }

    static func storage(_ folder: String, _ log: LogManager) throws -> [PrayerLogEntry] {
        let database = SQLiteDatabase(path: folder + "/praykit.sqlite", log: log)
        let prayerLog = PrayerLogStoreSQLite(database: database, log: log)
        let day = try CivilDate(year: 2026, month: 11, day: 29)
        try prayerLog.record(.prayed, for: .fajr, on: day, note: "at the mosque")
        let entries = try prayerLog.entries(from: day, through: day)  // one entry, fajr prayed
        return entries
    }
}

// MARK: - PrayPlaces.docc: Finding places

enum PrayPlacesSample {
    static func zones() throws -> (urumqi: TimeZoneLookup, atSea: TimeZoneLookup) {
        let zones = TimeZoneServiceBoundaries(log: .silent)
        let urumqi = try zones.timeZone(latitude: 43.8, longitude: 87.6)
        // Asia/Shanghai, also claimed: ["Asia/Urumqi"], from the boundaries
        let atSea = try zones.timeZone(latitude: 0, longitude: -150)
        // Etc/GMT+10, the nautical zone, from the ocean
        return (urumqi, atSea)
    }

    static func search() throws -> (
        places: PlaceServiceGazetteer, medina: PlaceAPI.SearchResult, typed: PlaceAPI.SearchResult,
        springfield: PlaceAPI.SearchResult
    ) {
        let places = PlaceServiceGazetteer(log: .silent)
        let medina = try places.search("Medina")
        // best: Madinah, SA (an alternate name of the larger city), then Medina, Ohio (its own name)
        let typed = try places.search("Makah")
        // Makkah, SA, by a spelling correction (matches.first?.kind == .spellingCorrection)
        let springfield = try places.search("Springfield")
        // isAmbiguous: several places of that name are about as large; best is nil
        return (places, medina, typed, springfield)
    }

    static func nearest(_ places: PlaceServiceGazetteer) throws -> PlaceAPI.Nearby? {
        let near = try places.nearest(to: try Coordinates(latitude: 21.42, longitude: 39.83))
        // Makkah, SA, about a kilometre away
        return near
    }
}

// MARK: - PrayMocks.docc: Testing with mocks

enum PrayMocksSample {
    static func setOnlyWhatTheCodeUses(_ request: PrayerAPI.Request) async throws -> PrayerDay {
        var dependency = PrayDependencyMock()
        let prayers = PrayerServiceMock()
        prayers.onPrayerTimes { request in
            PrayerAPI.Response(schedules: request.dates.map { PrayerSchedule.mock(date: $0) }, source: .calculated)
        }
        dependency.prayers = prayers
        let day = try await dependency.prayerManager().day(for: request)
        #expect(prayers.prayerTimesCalls.map(\.days) == [3])  // the day, with the day before and after
        return day
    }

    static func realServices() -> PrayDependencyMock {
        var dependency = PrayDependencyMock()
        dependency.prayers = PrayerServiceAstronomical(log: .silent)
        dependency.places = PlaceServiceGazetteer(log: .silent)
        return dependency
    }

    static func realDatabase() throws -> [PrayerLogEntry] {
        let test = try TestDatabase()
        try test.prayerLog.record(.prayed, for: .fajr, on: .mockDate)
        let entries = try test.prayerLog.entries(from: .mockDate, through: .mockDate)
        try test.reset()  // an empty database again
        return entries
    }

    static func yourOwnMock() throws -> TimeZoneLookup {
        let zone = MockFunction<Coordinates, TimeZoneLookup, any Error>("TimeZoneServiceMock.timeZone(at:)")
        zone.on { _ in TimeZoneLookup(identifier: "Asia/Riyadh", source: .boundaries) }
        let lookup = try zone(.mockMakkah)
        #expect(zone.calls == [.mockMakkah])
        return lookup
    }
}

// MARK: - PrayKit.docc: PrayKit and Getting started

enum PrayKitSample {
    static func landing(databasePath: String) throws -> TodayModel {
        try PrayDependency.configure(
            PrayDependency.Configuration(minLogLevel: .info, logDestinations: [.console], databasePath: databasePath)
        )

        let model = TodayModel(dependency: PrayDependency())
        return model
    }

    static func configureOnce(folder: String) throws {
        let environment = ProcessInfo.processInfo.environment
        try PrayDependency.configure(
            PrayDependency.Configuration(
                minLogLevel: PrayDependency.Configuration.logLevel(fromEnvironment: environment) ?? .info,
                logDestinations: [.console, .file(path: folder + "/prayers.log")],
                databasePath: folder + "/prayers.sqlite"
            )
        )
    }

    struct TodayModel {
        let dependency: any PrayKitDependency

        /// The next of the five prayers at the saved place, or `nil` when no place is saved: in the
        /// place's zone, by the person's settings, else their country's method — as `praykit` does.
        func nextPrayer(at now: Date) async throws -> PrayerTime? {
            guard try dependency.preferences().preferences().coordinates() != nil else { return nil }
            let prepared = try await dependency.locationManager().prayerRequest(for: .init(.saved), at: now)
            return try await dependency.prayerManager().day(for: prepared.request).nextPrayer(at: now)
        }
    }

    @MainActor final class PrayerLogModel {
        let dependency: any PrayKitDependency
        private(set) var today: [PrayerLogEntry] = []

        init(dependency: any PrayKitDependency) {
            self.dependency = dependency
        }

        func markPrayed(_ prayer: Prayer, on day: CivilDate) async throws {
            let log = dependency.prayerLog().async
            try await log.record(.prayed, for: prayer, on: day)
            today = try await log.entries(from: day, through: day)
        }
    }

    static func testWithMocks(saved: Preferences, now: Date) async throws -> (PrayerTime?, PrayerServiceMock) {
        var dependency = PrayDependencyMock()
        dependency.preferenceStore = PreferencesStoreFake(saved)
        let places = PlaceServiceMock()
        places.onNearest { _, _ in [] }
        places.onCountryCodes { _ in ["GB"] }
        dependency.places = places
        let zones = TimeZoneServiceMock()
        zones.onTimeZone { _ in TimeZoneLookup(identifier: "Europe/London", source: .boundaries) }
        dependency.timeZones = zones
        let prayers = PrayerServiceMock()
        prayers.onPrayerTimes { request in
            PrayerAPI.Response(schedules: request.dates.map { PrayerSchedule.mock(date: $0) }, source: .calculated)
        }
        dependency.prayers = prayers
        let next = try await TodayModel(dependency: dependency).nextPrayer(at: now)
        return (next, prayers)
    }
}

// MARK: - PrayKit.docc: Extending PrayKit

/// The moments an app rings at: each day's sunset, a reminder to be ready for maghrib.
protocol SunsetAlarmService: Sendable {
    func alarms(for request: PrayerAPI.Request) async throws -> [Date]
}

/// Sunset of each day of the request, from a prayer service.
struct SunsetAlarmServiceAstronomical: SunsetAlarmService {
    let prayers: any PrayerService

    func alarms(for request: PrayerAPI.Request) async throws -> [Date] {
        try await prayers.prayerTimes(for: request).schedules.compactMap { $0[.sunset]?.date }
    }
}

extension PrayDependency {
    private static let sunsetAlarms = SunsetAlarmServiceAstronomical(prayers: PrayDependency().prayerService())

    /// Sunset alarms over the container's prayer service.
    func sunsetAlarmService() -> any SunsetAlarmService { Self.sunsetAlarms }
}

final class SunsetAlarmServiceMock: SunsetAlarmService {
    private let alarmsFunction = MockFunction<PrayerAPI.Request, [Date], any Error>(
        "SunsetAlarmServiceMock.alarms(for:)")

    func onAlarms(_ answer: @escaping @Sendable (PrayerAPI.Request) throws -> [Date]) { alarmsFunction.on(answer) }
    var alarmsCalls: [PrayerAPI.Request] { alarmsFunction.calls }
    func alarms(for request: PrayerAPI.Request) async throws -> [Date] { try alarmsFunction(request) }
}

// MARK: - The tests

@Suite struct DocCSampleTests {
    /// Hours and minutes of an instant in a zone: `06:04`.
    static func clock(_ date: Date?, _ zone: String) -> String? {
        guard let date, let timeZone = TimeZone(identifier: zone) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// A container whose prayer, qibla, magnetic, Hijri, zone and place services are the real ones,
    /// and whose stores are empty and in memory: the answers of `praykit` with nothing saved.
    static func realServices() -> PrayDependencyMock {
        var dependency = PrayDependencyMock()
        let prayers = PrayerServiceAstronomical(log: .silent)
        dependency.prayers = prayers
        dependency.qibla = QiblaServiceGeodesic(log: .silent)
        dependency.magneticField = MagneticFieldServiceWMM(log: .silent)
        dependency.hijri = HijriServiceUmmAlQura(prayerService: prayers, log: .silent)
        dependency.timeZones = TimeZoneServiceBoundaries(log: .silent)
        dependency.places = PlaceServiceGazetteer(log: .silent)
        return dependency
    }

    @Test func prayCoreLandingModelGivesTheDay() async throws {
        let request = try PrayCoreGettingStartedSample.request()
        let day = try await PrayCoreLandingSample.TimetableModel(dependency: Self.realServices()).today(request)
        #expect(day.date == request.date)
    }

    @Test func prayCoreGettingStartedGivesLondonsTimesAsTheCommandLineDoes() async throws {
        // Given
        let dependency = Self.realServices()
        let request = try PrayCoreGettingStartedSample.request()
        // When
        let sample = try await PrayCoreGettingStartedSample.days(dependency, request)
        // Then: `praykit times --city London --date 2026-12-01` gives fajr 06:04, sunrise 07:44, dhuhr 11:55
        #expect(sample.count == 7)
        #expect(Self.clock(sample.fajr, "Europe/London") == "06:04")
        #expect(sample.next?.prayer == .dhuhr)
        #expect(Self.clock(sample.next?.date, "Europe/London") == "11:55")
        #expect(sample.now?.prayer == .sunrise)
        // and the command line's own way to the request (`--city London`: the city, its zone, the
        // country's method and high-latitude rule) gives the same fajr
        let noon = try Date("2026-12-01T12:00:00Z", strategy: .iso8601)
        let prepared = try await dependency.locationManager().prayerRequest(for: .init(.city("London")), at: noon)
        let day = try await dependency.prayerManager().day(for: prepared.request)
        #expect(prepared.request.parameters.method == .moonsightingCommittee)
        #expect(day.today[.fajr]?.date == sample.fajr)
        #expect(day.today[.dhuhr]?.date == sample.next?.date)
    }

    @Test func prayCoreGettingStartedQiblaAndHijri() throws {
        let request = try PrayCoreGettingStartedSample.request()
        let sample = try PrayCoreGettingStartedSample.qiblaAndHijri(Self.realServices(), request)
        // `praykit qibla --city London --date 2026-12-01`: 118.87° (ESE), 4794.7 km; `praykit hijri`: 1448-06-21
        #expect(abs(sample.qibla.direction - 118.87) < 0.005)
        #expect(sample.qibla.compass == .eastSoutheast)
        #expect(abs(sample.qibla.distanceKilometers - 4794.7) < 0.05)
        #expect(sample.today.hijri.description == "1448-06-21")
        #expect(sample.today.notableDays.isEmpty)
        #expect(sample.field.declinationReliability == .reliable)
    }

    @Test func prayCoreGettingStartedStorage() async throws {
        let dependency = Self.realServices()
        let request = try PrayCoreGettingStartedSample.request()
        let sample = try await PrayCoreGettingStartedSample.storage(dependency, request)
        #expect(try dependency.prayerLog().entries(from: request.date, through: request.date).map(\.prayer) == [.fajr])
        #expect(sample.saved == Preferences())
        #expect(sample.found.best?.name == "Makkah")
    }

    @Test func prayCoreGettingStartedLogging() {
        let memory = LogServiceMemory()
        PrayCoreGettingStartedSample.logging(memory)
        #expect(memory.events.map(\.level) == [.notice])
        #expect(memory.events.first?.metadata["prayer.rule"] == "seventh-of-the-night")
    }

    @Test func prayCoreSyncingDevicesShowsEveryStatus() async throws {
        var dependency = PrayDependencyMock()
        let sync = SyncServiceMock()
        sync.onLogin { _ in .off }
        sync.onStatus {
            AsyncStream { continuation in
                continuation.yield(.off)
                continuation.finish()
            }
        }
        dependency.sync = sync
        let model = SyncStatusShown()
        let server = try #require(URL(string: "https://pray.example.org"))
        try await PrayCoreSyncingDevicesSample.inAnApp(dependency, serverURL: server, code: "ABCD-EFGH", model: model)
        #expect(sync.loginCalls.map(\.deviceName) == ["Phone"])
        #expect(model.statuses == [.off])
    }

    @Test func prayServicesSamplesGiveWhatTheirCommentsSay() async throws {
        let times = try await PrayServicesSample.prayerTimes()
        #expect(Self.clock(times.day.today[.fajr]?.date, "Asia/Riyadh") == "05:20")
        #expect(Self.clock(times.day.today[.dhuhr]?.date, "Asia/Riyadh") == "12:09")
        #expect(Self.clock(times.day.today[.isha]?.date, "Asia/Riyadh") == "19:07")
        let other = try PrayServicesSample.qiblaAndHijri(times.log, times.prayers)
        #expect(abs(other.qibla.direction - 58.40) < 0.005)
        #expect(abs(other.qibla.sphericalDirection - 58.48) < 0.005)
        #expect(other.first.hijri.description == "1448-09-01")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docc-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let entries = try PrayServicesSample.storage(folder.path, times.log)
        #expect(entries.map(\.prayer) == [.fajr])
        #expect(entries.map(\.status) == [.prayed])
        #expect(entries.first?.note == "at the mosque")
    }

    @Test func prayPlacesSamplesGiveWhatTheirCommentsSay() throws {
        let zones = try PrayPlacesSample.zones()
        #expect(zones.urumqi.identifier == "Asia/Shanghai")
        #expect(zones.urumqi.alternatives == ["Asia/Urumqi"])
        #expect(zones.urumqi.source == .boundaries)
        #expect(zones.atSea.identifier == "Etc/GMT+10")
        #expect(zones.atSea.source == .ocean)
        let search = try PrayPlacesSample.search()
        #expect(search.medina.best?.name == "Madinah")
        #expect(search.medina.matches.map(\.place.name).prefix(2) == ["Madinah", "Medina"])
        #expect(search.typed.best?.shortName == "Makkah, SA")
        #expect(search.typed.matches.first?.kind == .spellingCorrection)
        #expect(search.springfield.isAmbiguous)
        #expect(search.springfield.best == nil)
        let near = try PrayPlacesSample.nearest(search.places)
        #expect(near?.place.shortName == "Makkah, SA")
        #expect((near?.distanceKilometers ?? 99) < 2)
    }

    @Test func prayMocksSamplesWork() async throws {
        let day = try await PrayMocksSample.setOnlyWhatTheCodeUses(try PrayCoreGettingStartedSample.request())
        #expect(day.date == (try CivilDate(year: 2026, month: 12, day: 1)))
        let dependency = PrayMocksSample.realServices()
        #expect(dependency.prayerService() is PrayerServiceAstronomical)
        #expect(dependency.placeService() is PlaceServiceGazetteer)
        #expect(try PrayMocksSample.realDatabase().map(\.prayer) == [.fajr])
        #expect(try PrayMocksSample.yourOwnMock().identifier == "Asia/Riyadh")
    }

    @Test func prayKitConfigurationIsSetOnce() throws {
        // The test container is configured first: a second, different configuration is refused.
        TestContainer.configured
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docc-sample-\(UUID().uuidString)")
        #expect(throws: PrayDependency.ConfigurationError.self) {
            _ = try PrayKitSample.landing(databasePath: folder.appendingPathComponent("other.sqlite").path)
        }
        #expect(throws: PrayDependency.ConfigurationError.self) { try PrayKitSample.configureOnce(folder: folder.path) }
    }

    @Test func prayKitTodayModelFindsDhuhrAfterSunrise() async throws {
        var saved = Preferences()
        try saved.set("51.5074", for: .latitude)
        try saved.set("-0.1278", for: .longitude)
        try saved.set("Europe/London", for: .timeZone)
        // 13:00 UTC on the mock date; the mock schedule's Asr is at 15:30.
        let now = Date(timeIntervalSince1970: Double(CivilDate.mockDate.daysSince1970) * 86_400 + 13 * 3_600)
        let (next, prayers) = try await PrayKitSample.testWithMocks(saved: saved, now: now)
        #expect(next?.prayer == .asr)
        #expect(prayers.prayerTimesCalls.first?.parameters.method == .moonsightingCommittee)  // Britain's
        // On the real services, just after London's sunrise, the next prayer is dhuhr, not sunrise.
        var real = Self.realServices()
        real.preferenceStore = PreferencesStoreFake(saved)
        let afterSunrise = try Date("2026-12-01T07:50:00Z", strategy: .iso8601)
        #expect(try await PrayKitSample.TodayModel(dependency: real).nextPrayer(at: afterSunrise)?.prayer == .dhuhr)
        #expect(try await PrayKitSample.TodayModel(dependency: PrayDependencyMock()).nextPrayer(at: now) == nil)
    }

    @MainActor @Test func prayKitPrayerLogModelRecords() async throws {
        let model = PrayKitSample.PrayerLogModel(dependency: PrayDependencyMock())
        try await model.markPrayed(.isha, on: .mockDate)
        #expect(model.today.map(\.prayer) == [.isha])
    }

    @Test func extendingPrayKitSamplesWork() async throws {
        TestContainer.configured
        let request = try PrayCoreGettingStartedSample.request()
        let sunsets = try await PrayDependency().sunsetAlarmService().alarms(for: request)
        #expect(sunsets.count == 7)
        #expect(Self.clock(sunsets.first, "Europe/London") == "15:55")  // `praykit times --city London`
        let mock = SunsetAlarmServiceMock()
        mock.onAlarms { _ in [] }
        #expect(try await mock.alarms(for: request).isEmpty)
        #expect(mock.alarmsCalls == [request])
    }
}

// MARK: - Every sample is here, as written

@Suite struct DocCSampleCoverageTests {
    /// The repository, found from this file (through the links of Scripts/portable-build.sh's package).
    static let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The catalogs whose samples this file holds.
    static let catalogs = [
        "Sources/PrayCore/PrayCore.docc", "Sources/PrayServices/PrayServices.docc",
        "Sources/PrayPlaces/PrayPlaces.docc", "Mocks/PrayMocks.docc", "Sources/PrayKit/PrayKit.docc",
    ]

    @Test func everyCatalogSampleIsInATest() throws {
        let missing = try SampleCoverage.missingSamples(
            in: Self.catalogs.map { Self.repository.appendingPathComponent($0) },
            tests: URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent())
        #expect(missing.isEmpty, "samples not in Tests/PrayKitTests as written:\n\(missing.joined(separator: "\n"))")
    }

    @Test func everyReadmeAndGuideSampleIsInATest() throws {
        let guides = Self.repository.appendingPathComponent("docs")
        let missing = try SampleCoverage.missingSamples(
            in: [Self.repository.appendingPathComponent("README.md"), guides],
            tests: URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent())
        #expect(missing.isEmpty, "samples not in Tests/PrayKitTests as written:\n\(missing.joined(separator: "\n"))")
    }
}

/// Finds the ```swift blocks of Markdown files that no test holds as written: each block's lines,
/// leading and trailing spaces and blank lines aside (a sample sits indented in a function), must
/// follow one another in one test file. `import` lines are left out (a test file has its own), and so
/// is a `// Package.swift` fragment, which is a manifest's.
enum SampleCoverage {
    static func missingSamples(in places: [URL], tests: URL) throws -> [String] {
        let files = FileManager.default
        let testFiles = try files.contentsOfDirectory(at: tests, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .map { lines(String(decoding: try Data(contentsOf: $0), as: UTF8.self)) }
        var markdown: [URL] = []
        for place in places {
            if place.pathExtension == "md" {
                markdown.append(place)
            } else if let walk = files.enumerator(at: place, includingPropertiesForKeys: nil) {
                markdown += walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "md" }
            }
        }
        #expect(!markdown.isEmpty, "no Markdown found under \(places.map(\.path))")
        var missing: [String] = []
        for file in markdown.sorted(by: { $0.path < $1.path }) {
            for block in blocks(String(decoding: try Data(contentsOf: file), as: UTF8.self)) {
                let sample = lines(block).filter { !$0.hasPrefix("import ") }
                guard let first = sample.first, first != "// Package.swift" else { continue }
                if !testFiles.contains(where: { contains($0, sample) }) {
                    missing.append("\(file.lastPathComponent): \(first)")
                }
            }
        }
        return missing
    }

    /// The bodies of the ```swift blocks.
    static func blocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if let body = current, trimmed == "```" {
                blocks.append(body.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        // A block that is never closed is reported as missing rather than left out.
        if current != nil { blocks.append("unterminated ```swift block") }
        return blocks
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}

/// A list that several threads append to.
final class LockedList<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    var values: [Element] { storage.withLock { $0 } }

    func append(_ value: Element) { storage.withLock { $0.append(value) } }
}
