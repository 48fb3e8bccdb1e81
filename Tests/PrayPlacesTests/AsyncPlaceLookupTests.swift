import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayPlaces

/// The place and zone look-ups' `async` views on the real services, called from the main actor: the
/// same answers as the synchronous methods. (Where they run is checked on instrumented mocks in
/// PrayCoreTests.)
@Suite(.tags(.concurrency)) struct AsyncPlaceLookupTests {
    @MainActor @Test func placesAnswerAsTheSynchronousSearchDoes() async throws {
        // Given
        let places = PlaceServiceGazetteer(log: .silent)
        // When
        let found = try await places.async.search("Springfield, Illinois")
        let near = try await places.async.nearest(to: .mockMakkah, limit: 3)
        let country = try await places.async.country(code: "sa")
        let codes = try await places.async.countryCodes(inTimeZone: "Asia/Riyadh")
        // Then
        #expect(found == (try places.search("Springfield, Illinois")))
        #expect(found.best?.region == "Illinois")
        #expect(near == (try places.nearest(to: .mockMakkah, limit: 3)))
        #expect(try await places.async.nearest(to: .mockMakkah) == near.first)
        #expect(try await places.async.place(geonameID: 104_515) == (try places.place(geonameID: 104_515)))
        #expect(country == (try places.country(code: "sa")))
        #expect(codes == (try places.countryCodes(inTimeZone: "Asia/Riyadh")))
        await #expect(throws: ValidationError.self) { try await places.async.search(" ") }
    }

    @MainActor @Test func zonesAnswerAsTheSynchronousLookupDoes() async throws {
        // Given
        let zones = TimeZoneServiceBoundaries(log: .silent)
        // When
        let xinjiang = try await zones.async.timeZone(latitude: 43.8, longitude: 87.6)
        // Then
        #expect(xinjiang == (try zones.timeZone(latitude: 43.8, longitude: 87.6)))
        #expect(xinjiang.alternatives == ["Asia/Urumqi"])
        #expect(try await zones.async.timeZone(at: .mockMakkah).identifier == "Asia/Riyadh")
        await #expect(throws: ValidationError.self) { try await zones.async.timeZone(latitude: 91, longitude: 0) }
    }
}
