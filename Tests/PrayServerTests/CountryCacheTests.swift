import PrayCore
import PrayMocks
import Testing

@testable import PrayServer

/// The countries of method-less requests, remembered by exact coordinates.
@Suite(.tags(.concurrency)) struct CountryCacheTests {
    @Test func aPlaceIsLookedUpOnceAndTheCacheStartsAgainWhenFull() throws {
        // Given: a cache of two places and a lookup that counts its calls
        let cache = CountryCache(capacity: 2)
        var calls: [Double] = []
        let find = { (coordinates: Coordinates) -> String? in
            calls.append(coordinates.latitude)
            return coordinates.latitude > 0 ? "GB" : nil
        }
        let london = try Coordinates(latitude: 51.5, longitude: -0.12)
        let sea = try Coordinates(latitude: -40, longitude: -140)
        let nearby = try Coordinates(latitude: 51.500001, longitude: -0.12)
        // When
        let answers = [
            cache.country(at: london, find: find), cache.country(at: london, find: find),
            cache.country(at: sea, find: find), cache.country(at: sea, find: find),
            cache.country(at: nearby, find: find), cache.country(at: london, find: find),
        ]
        // Then: each place found once (no country is remembered too), another place however near is its
        // own, and a full cache starts again
        #expect(answers == ["GB", "GB", nil, nil, "GB", "GB"])
        #expect(calls == [51.5, -40, 51.500001, 51.5])
    }
}
