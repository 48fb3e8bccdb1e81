import Foundation
import PrayCore
import PrayKit
import PrayMocks
import Testing

@Suite struct LocationContainerTests {
    /// A manager over the real container's services and empty preferences: the container's own
    /// database is shared by other tests, which save methods and places in it.
    func manager(_ dependency: PrayDependency) -> LocationManager {
        LocationManager(
            timeZoneService: dependency.timeZoneService(), placeService: dependency.placeService(),
            preferences: PreferencesStoreFake(), locationService: dependency.locationService(), log: .silent)
    }

    @Test func theRealContainerResolvesACity() async throws {
        // Given
        TestContainer.configured
        let dependency = PrayDependency()
        // When
        let location = try await manager(dependency).resolve(.init(.city("Makkah")))
        let wired = try await dependency.locationManager().resolve(.init(.city("Cologne"), method: .egyptian))
        let zone = try dependency.timeZoneService().timeZone(latitude: 43.8, longitude: 87.6)
        // Then
        #expect(location.timeZone.identifier == "Asia/Riyadh")
        #expect(location.timeZoneSource == .city)
        #expect(location.method.method == .ummAlQura)
        #expect(location.method.source.description == "country:SA")
        #expect(wired.timeZone.identifier == "Europe/Berlin")
        #expect(wired.method == MethodChoice(method: .egyptian, source: .option))
        #expect(zone.identifier == "Asia/Shanghai")
        #expect(zone.alternatives == ["Asia/Urumqi"])
        #expect(try dependency.placeService().search("Cologne").best?.name == "Köln")
    }

    @Test func theRealContainerResolvesCoordinatesByTheirZone() async throws {
        // Given: Jakarta's coordinates, no zone given, nothing saved there
        TestContainer.configured
        let jakarta = try Coordinates(latitude: -6.2146, longitude: 106.8451)
        // When
        let location = try await manager(PrayDependency()).resolve(.init(.coordinates(jakarta)))
        // Then
        #expect(location.timeZone.identifier == "Asia/Jakarta")
        #expect(location.timeZoneSource == .coordinates)
        #expect(location.countryCode == "ID")
        #expect(location.method.method == .kemenag)
        #expect(location.nearest?.place.countryCode == "ID")
    }

    @Test func aMockContainerSwapsTheLocationServices() async throws {
        // Given
        var dependency = PrayDependencyMock()
        let zones = TimeZoneServiceMock()
        zones.onTimeZone { _ in TimeZoneLookup(identifier: "Europe/Istanbul", source: .boundaries) }
        let places = PlaceServiceMock()
        places.onNearest { _, _ in [] }
        places.onCountryCodes { _ in ["TR"] }
        dependency.timeZones = zones
        dependency.places = places
        let point = try Coordinates(latitude: 41.0, longitude: 29.0)
        // When
        let location = try await dependency.locationManager().resolve(.init(.coordinates(point)))
        // Then
        #expect(location.timeZone.identifier == "Europe/Istanbul")
        #expect(location.method.method == .turkey)
        #expect(zones.timeZoneCalls == [point])
        #expect(places.nearestCalls.map(\.coordinates) == [point])
        #expect(places.nearestCalls.map(\.limit) == [1])
        #expect(places.countryCodesCalls == ["Europe/Istanbul"])
        #expect(places.searchCalls.isEmpty)
    }

    @Test func unsetLocationMocksFailLoudly() async throws {
        let dependency = PrayDependencyMock()
        let point = try Coordinates(latitude: 0, longitude: 0)
        withKnownIssue {
            _ = try dependency.timeZoneService().timeZone(at: point)
        }
        withKnownIssue {
            _ = try dependency.placeService().search("Makkah")
        }
        await withKnownIssue {
            _ = try await dependency.locationService().currentLocation()
        }
    }
}
