import Foundation
import PrayCore
import PrayMocks
import PrayServer
import PrayServices
import Testing

@testable import PrayCLI

/// The lookups `praykit serve` gives the API: the offline zone boundaries and the gazetteer.
@Suite struct ServeLookupTests {
    func routes() -> AlAdhanRoutes {
        let prayers = PrayerServiceAstronomical(log: .silent)
        return AlAdhanRoutes(
            calculator: prayers, hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
            qibla: QiblaServiceGeodesic(log: .silent), lookups: .init(CLI.dependency().locationManager()),
            clock: PrayClockFake(now: CLI.now), log: .silent)
    }

    func json(_ target: String) throws -> [String: Any] {
        let response = routes().respond(to: ServerAPI.Request(target: target))
        return try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
    }

    @Test func withoutATimezoneStringTheZoneIsTheOneAtTheCoordinates() throws {
        let body = try json("/v1/timings/29-11-2026?latitude=21.4225&longitude=39.8262&method=4")
        let data = try #require(body["data"] as? [String: Any])
        #expect((data["meta"] as? [String: Any])?["timezone"] as? String == "Asia/Riyadh")
        #expect((data["timings"] as? [String: Any])?["Fajr"] as? String == "05:20")
    }

    @Test func citiesComeFromTheGazetteer() throws {
        let body = try json("/v1/timingsByCity/29-11-2026?city=London&country=Canada&method=2")
        #expect(body["code"] as? Int == 200)
        let meta = try #require((body["data"] as? [String: Any])?["meta"] as? [String: Any])
        #expect(meta["timezone"] as? String == "America/Toronto")
        let unknown = try json("/v1/timingsByCity/29-11-2026?city=Nowhereville&country=Atlantis")
        #expect(unknown["code"] as? Int == 400)
    }

    @Test func withoutAMethodTheCountrysMethodAsPraykitTimesChoosesIt() throws {
        // Given: places where AlAdhan's nearest authority is far from the country's custom (Kemenag for
        // Sydney and the Chatham Islands, Morocco for São Paulo, MWL for London)
        let places: [(String, Double, Double, Int, String)] = [
            ("Sydney", -33.8688, 151.2093, 3, "AU"), ("São Paulo", -23.5505, -46.6333, 3, "BR"),
            ("London", 51.5074, -0.1278, 15, "GB"), ("Chatham Islands", -43.9535, -176.5597, 3, "NZ"),
            ("Jakarta", -6.2088, 106.8456, 20, "ID"),
        ]
        let location = CLI.dependency().locationManager()
        for (name, latitude, longitude, id, country) in places {
            // When
            let body = try json("/v1/timings/29-11-2026?latitude=\(latitude)&longitude=\(longitude)")
            let meta = (body["data"] as? [String: Any])?["meta"] as? [String: Any]
            // Then: the method `praykit times` chooses for the country there, by AlAdhan's number
            #expect((meta?["method"] as? [String: Any])?["id"] as? Int == id, "\(name)")
            let found = try location.countryCode(at: try Coordinates(latitude: latitude, longitude: longitude))
            #expect(found == country, "\(name)")
            #expect(MethodChoice.forCountry(found, latitude: latitude).method.alAdhanID == id, "\(name)")
        }
        // A city's own country chooses it too
        let city = try json("/v1/timingsByCity/29-11-2026?city=Jakarta&country=ID")
        let meta = (city["data"] as? [String: Any])?["meta"] as? [String: Any]
        #expect((meta?["method"] as? [String: Any])?["id"] as? Int == 20)
    }

    @Test func trustedProxiesAreRepeatableAndMustBeAddresses() async throws {
        let (dependency, servers) = ServeCommandTests().dependency()
        let started = await CLI.run(
            ["serve", "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1"], dependency: dependency)
        #expect(started.status == 0, "\(started.stderr)")
        #expect(servers.startCalls.first?.configuration.trustedProxies == ["127.0.0.1", "::1"])
        let refused = await CLI.run(["serve", "--trusted-proxy", "proxy.example"], dependency: dependency)
        #expect(refused.status == 64 && refused.stderr.contains("trusted proxy"), "\(refused.stderr)")
    }
}
