import Foundation
import PrayCore
import PrayMocks
import Synchronization
import Testing

@testable import PrayCLI

/// `serve --display` following the saved place: routes made again only for another place, and the old
/// routes' event streams ended so that open pages reconnect to the new ones.
@Suite struct FollowedScreenTests {
    static func screen(_ name: String, latitude: Double, zone: String, date: String) throws -> DisplayAPI.Screen {
        let coordinates = try Coordinates(latitude: latitude, longitude: 39.8262)
        let zone = try #require(TimeZoneName(zone))
        let method = MethodChoice(method: .muslimWorldLeague, source: .saved)
        let request = PrayerAPI.Request(
            coordinates: coordinates, timeZone: zone.timeZone, date: try CivilDate(parsing: date),
            parameters: CalculationParameters(method: .muslimWorldLeague))
        let location = LocationAPI.Location(
            coordinates: coordinates, name: name, place: nil, nearest: nil, zone: zone, timeZoneSource: .saved,
            timeZoneLookup: nil, countryCode: nil, method: method, countryMethod: method, isSavedPlace: true)
        let prepared = LocationAPI.PrayerRequest(
            request: request, location: location,
            settings: CalculationSettings.Resolution(parameters: request.parameters, method: method, ignored: []),
            iqama: nil)
        return DisplayAPI.Screen(prepared: prepared, name: name)
    }

    @Test func anotherPlaceMakesNewRoutesAndEndsTheOldStreams() throws {
        // Given: a screen whose routes answer with its name
        let made = MadeRoutes()
        let followed = FollowedScreen(
            try Self.screen("Makkah", latitude: 21.4225, zone: "Asia/Riyadh", date: "2027-01-01")
        ) {
            screen in
            let display = ServerRoutesMock()
            made.add(screen.name ?? "", display)
            display.onRespond { _ in ServerAPI.Response(status: 200, body: Data((screen.name ?? "").utf8)) }
            return (display, ServerRoutesMock())
        }
        let first = followed.display
        // When: the same place resolved on another day, then another place
        let sameDay = followed.update(
            try Self.screen("Makkah", latitude: 21.4225, zone: "Asia/Riyadh", date: "2027-03-09"))
        let oldRoutes = followed.display.respond(to: ServerAPI.Request(target: "/display.json"))
        let moved = followed.update(
            try Self.screen("Madinah", latitude: 24.4672, zone: "Asia/Riyadh", date: "2027-03-09"))
        // Then: routes were made twice; the facade taken before the move answers for the new place
        #expect(!sameDay && moved && made.names == ["Makkah", "Madinah"])
        #expect(String(decoding: oldRoutes.body, as: UTF8.self) == "Makkah")
        #expect(
            String(decoding: first.respond(to: ServerAPI.Request(target: "/display.json")).body, as: UTF8.self)
                == "Madinah")
        #expect(followed.screen.name == "Madinah")
        // The old routes' streams were ended (their pages reconnect to the new ones); not the new ones'
        #expect(made.routes.map(\.endStreamsCalls) == [1, 0])
    }
}

/// The screens routes were made for, in order, with the screen's routes made for each.
final class MadeRoutes: Sendable {
    private let state = Mutex<[(name: String, routes: ServerRoutesMock)]>([])
    func add(_ name: String, _ routes: ServerRoutesMock) { state.withLock { $0.append((name, routes)) } }
    var names: [String] { state.withLock { $0.map(\.name) } }
    var routes: [ServerRoutesMock] { state.withLock { $0.map(\.routes) } }
}
