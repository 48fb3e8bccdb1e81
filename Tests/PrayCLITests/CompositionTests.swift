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
}
