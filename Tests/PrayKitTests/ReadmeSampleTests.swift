import Foundation
import PrayCore
import PrayKit
import PrayMocks
import PrayServices
import Synchronization
import Testing

// The README's code samples, verbatim, so they keep compiling and working. `configurePrayKit` is
// called by `TestContainer` (configuration happens once per process).

// MARK: - README: Adopting the container

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

/// Call once at launch, before anything uses `PrayDependency`.
func configurePrayKit(
    databasePath: String, logDestinations: [PrayDependency.LogDestination], minLevel: LogLevel = .info
) throws {
    try PrayDependency.configure(
        PrayDependency.Configuration(
            minLogLevel: minLevel, logDestinations: logDestinations, databasePath: databasePath)
    )
}

// MARK: - README: Async and sync

/// The prayer log screen, on the main actor: it never waits there for the database.
@MainActor final class PrayerLogModel {
    let dependency: any PrayKitDependency
    private(set) var today: [PrayerLogEntry] = []
    private(set) var cities: [Place] = []

    init(dependency: any PrayKitDependency) {
        self.dependency = dependency
    }

    /// Marks `prayer` prayed on `day`, then shows the day.
    func markPrayed(_ prayer: Prayer, on day: CivilDate) async throws {
        let log = dependency.prayerLog().async
        try await log.record(.prayed, for: prayer, on: day)
        today = try await log.entries(from: day, through: day)
    }

    /// The cities that a search field's text names, best first.
    func search(_ text: String) async throws {
        cities = try await dependency.placeService().async.search(text).matches.map(\.place)
    }
}

@MainActor @Test(.tags(.concurrency)) func prayerLogModelRecordsAndSearchesThroughTheAsyncViews() async throws {
    var dependency = PrayDependencyMock()  // an empty PrayerLogStoreFake
    let places = PlaceServiceMock()
    places.onSearch { query in
        let makkah = PlaceAPI.Match(place: try .mock(), kind: .exact, matchedName: "makkah", score: 1)
        return PlaceAPI.SearchResult(query: query.text, matches: [makkah], isAmbiguous: false)
    }
    dependency.places = places
    let model = PrayerLogModel(dependency: dependency)

    try await model.markPrayed(.fajr, on: .mockDate)
    try await model.search("Makkah")

    #expect(model.today.map(\.prayer) == [.fajr])
    #expect(model.cities.map(\.name) == ["Makkah"])
    #expect(places.searchCalls.map(\.text) == ["Makkah"])
}

// MARK: - README: Swapping in mocks

@Test func todayModelFindsTheNextPrayer() async throws {
    var dependency = PrayDependencyMock()
    var saved = Preferences()
    try saved.set("51.5074", for: .latitude)
    try saved.set("-0.1278", for: .longitude)
    try saved.set("Europe/London", for: .timeZone)
    dependency.preferenceStore = PreferencesStoreFake(saved)
    let places = PlaceServiceMock()  // the country of the place, for its method
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

    // 13:00 UTC on the mock date; the mock schedule's Asr is at 15:30.
    let now = Date(timeIntervalSince1970: Double(CivilDate.mockDate.daysSince1970) * 86_400 + 13 * 3_600)
    let next = try await TodayModel(dependency: dependency).nextPrayer(at: now)

    #expect(next?.prayer == .asr)
    #expect(prayers.prayerTimesCalls.count == 1)
    #expect(prayers.prayerTimesCalls.first?.parameters.method == .moonsightingCommittee)  // Britain's
}

// MARK: - README: Logging

/// Keeps the last 100 warnings and errors for the app's diagnostics screen.
final class DiagnosticsLog: LogService {
    private let events = Mutex<[LogEvent]>([])

    var recent: [LogEvent] { events.withLock { $0 } }

    func write(_ event: LogEvent) {
        guard event.level >= .warning else { return }
        events.withLock { events in
            events.append(event)
            if events.count > 100 { events.removeFirst() }
        }
    }
}

@Suite(.tags(.concurrency)) struct ReadmeSampleTests {
    @Test func quickStartSample() async throws {
        TestContainer.configured
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
            timeZone: TimeZone(identifier: "Asia/Riyadh")!,
            date: try CivilDate(parsing: "2026-11-29"),
            days: 30,
            parameters: CalculationParameters(method: .ummAlQura)
        )
        let days = try await PrayDependency().prayerManager().days(for: request)
        print(days[0].today[.fajr]?.date as Any, days[0].nextPrayer(at: Date())?.prayer as Any)

        #expect(days.count == 30)
        #expect(days[0].today[.fajr] != nil)
    }

    @Test func todayModelWithoutAPlaceFindsNothing() async throws {
        let dependency = PrayDependencyMock()  // an empty PreferencesStoreFake
        #expect(try await TodayModel(dependency: dependency).nextPrayer(at: Date()) == nil)
    }

    @Test func diagnosticsLogKeepsTheLastHundredWarnings() {
        let diagnostics = DiagnosticsLog()
        let log = LogManager(services: [diagnostics], minLevel: .trace)
        log.info("not kept")
        for index in 0..<150 { log.warning("Warning", metadata: ["test.index": "\(index)"]) }
        #expect(diagnostics.recent.count == 100)
        #expect(diagnostics.recent.first?.metadata["test.index"] == "50")
        #expect(diagnostics.recent.allSatisfy { $0.level == .warning })
    }
}

// MARK: - README: praykit serve, from Swift

/// Serves the AlAdhan API on a free loopback port, then stops.
func serveAlAdhan(_ dependency: any PrayKitDependency) async throws -> URL {
    let routes = dependency.serverRoutes()  // the AlAdhan API over the container's services
    let server = try dependency.serverService().start(ServerAPI.Configuration(port: 0), handler: routes.handler)
    let url = server.url  // http://127.0.0.1:40123
    await server.shutdown()  // drains, then stops
    return url
}

@Test(.tags(.server, .concurrency), .needsMicroHTTPD) func theServeSampleStartsAndStopsAServer() async throws {
    TestContainer.configured
    #if os(Linux) && canImport(PrayServer)
        let url = try await serveAlAdhan(PrayDependency())
        #expect(url.host == "127.0.0.1")
        #expect((url.port ?? 0) > 0)
    #else
        // Where PrayServer is not linked (Scripts/portable-build.sh), the sample fails with the reason.
        await #expect(throws: ServerError.self) { try await serveAlAdhan(PrayDependency()) }
    #endif
}

// MARK: - README: Replacing one service, keeping the rest

/// Reminders shown by the app itself; every other service is the live container's.
struct BannerNotifications: NotificationService {
    func deliver(_ event: ReminderEvent, context: NotificationContext) async throws {
        print(context.message(for: event))  // the app shows a banner here
    }
}

func appDependency() -> any PrayKitDependency {
    PrayDependency().overriding { $0.notifications = BannerNotifications() }
}

@Test(.tags(.concurrency)) func theAppDependencyKeepsTheLiveServicesButItsNotifier() throws {
    TestContainer.configured
    let dependency = appDependency()
    #expect(dependency.notificationService() is BannerNotifications)
    #expect(dependency.qiblaService() is QiblaServiceGeodesic)
}
