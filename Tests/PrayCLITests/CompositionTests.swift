import Foundation
import PrayCore
import PrayKit
import PrayMocks
import Testing

@testable import PrayCLI

/// The container is the only composition root: `serve` and `notify` take everything from it, and a
/// mock container controls them.
@Suite struct CompositionTests {
    @Test func serveAnswersWithTheContainersRoutes() async throws {
        // Given: routes that the test controls
        var dependency = CLI.dependency()
        let routes = ServerRoutesMock()
        routes.onRespond { _ in ServerAPI.Response(status: 418) }
        dependency.routes = routes
        let servers = ServerServiceMock()
        servers.onStart { _, _ in RunningServerFake(port: 8080, isStopped: true) }
        dependency.server = servers
        // When
        let result = await CLI.run(["serve"], dependency: dependency)
        let handler = try #require(servers.startCalls.first?.handler)
        let response = handler(ServerAPI.Request(target: "/v1/qibla/21.4/39.8"))
        // Then: the server answers with the container's routes, not ones built by the command
        #expect(result.status == 0, "\(result.stderr)")
        #expect(response.status == 418)
        #expect(routes.respondCalls.map(\.path) == ["/v1/qibla/21.4/39.8"])
    }

    @Test func notifyHandsItsHookToTheContainerAndDeliversThroughIt() async throws {
        // Given: 05:15 in Makkah, fajr at 05:20; the container's notifier is a mock
        let clock = PrayClockFake(now: try #require(ISO8601DateFormatter().date(from: "2026-11-29T02:15:00Z")))
        var dependency = CLI.dependency()
        let notifications = NotificationServiceMock()
        notifications.onDeliver { _, _ in }
        dependency.notifications = notifications
        // When
        let result = await CLI.run(
            ["notify", "--lat", "21.4225", "--lon", "39.8262", "--hook", "paplay adhan.ogg", "--limit", "1"],
            dependency: dependency, clock: clock)
        // Then: the hook went into the configuration, and the event through the container's service
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.configuration?.notificationHook == "paplay adhan.ogg")
        #expect(notifications.deliverCalls.map(\.event.kind) == [.adhan])
    }

    @Test func aTimetableServesOnlyItsOwnPlace() async {
        let london = await CLI.run(
            ["times", "--lat", "21.4225", "--lon", "39.8262", "--source", "london"],
            environment: ["TZ": "UTC", "PRAYKIT_API_KEY": "k"])
        #expect(london.status == 64)
        #expect(london.stderr.contains("km from London; use --source calculated or aladhan here"), "\(london.stderr)")
        #expect(london.configuration?.remoteTimetable?.baseURL == RemoteTimetable.Provider.london.defaultBaseURL)
    }

    @Test func jsonNeverWritesNaN() {
        #expect(JSON.number(Double.nan).rendered() == "null")
        #expect(JSON.number(-Double.infinity).rendered() == "null")
        #expect(JSON.object([("x", .finite(.nan))]).rendered().contains("\"x\": null"))
        #expect(JSON.number(1.5).rendered() == "1.5")
    }

    @Test func tzAliasesWorkWhereverAZoneIsAsked() async throws {
        // times, hijri and log all read --tz by the one parser
        let times = await CLI.run(["times", "--lat", "22.57", "--lon", "88.36", "--tz", "asia/calcutta"])
        #expect(times.stdout.contains("Time zone: Asia/Calcutta (UTC+05:30, from --tz)"), "\(times.stderr)")
        let hijri = await CLI.run(["hijri", "--tz", "US/Eastern"])
        #expect(hijri.status == 0, "\(hijri.stderr)")
        let saved = await CLI.run(["config", "set", "tz", "etc/gmt-3"])
        #expect(saved.stdout == "tz = Etc/GMT-3\n", "\(saved.stderr)")
        let unknown = await CLI.run(["times", "--lat", "1", "--lon", "2", "--tz", "Asia/Kolkatta"])
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean 'Asia/Kolkata'"), "\(unknown.stderr)")
    }
}
