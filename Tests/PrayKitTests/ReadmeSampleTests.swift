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

    /// The next prayer at the saved place, or `nil` when no place is saved.
    func nextPrayer(at now: Date) async throws -> PrayerTime? {
        let preferences = try dependency.preferences().preferences()
        guard let place = try preferences.coordinates(), let zone = preferences.timeZone else { return nil }
        let request = PrayerAPI.Request(
            coordinates: place, timeZone: zone, date: try CivilDate(containing: now, in: zone),
            parameters: try preferences.calculationParameters()
        )
        return try await dependency.prayerManager().day(for: request).next(at: now)
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

// MARK: - README: Swapping in mocks

@Test func todayModelFindsTheNextPrayer() async throws {
    var dependency = PrayDependencyMock()
    var saved = Preferences()
    try saved.set("51.5074", for: .latitude)
    try saved.set("-0.1278", for: .longitude)
    try saved.set("Europe/London", for: .timeZone)
    dependency.preferenceStore = PreferencesStoreFake(saved)
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

@Suite struct ReadmeSampleTests {
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
        print(days[0].today[.fajr]?.date as Any, days[0].next(at: Date())?.prayer as Any)

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

@Test func theServeSampleStartsAndStopsAServer() async throws {
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
