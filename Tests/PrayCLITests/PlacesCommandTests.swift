import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// Places on the command line: cities by name, the zone of a point, the method of a country.
@Suite struct PlacesCommandTests {
    @Test func coordinatesAnswerInTheirOwnLocalTime() async throws {
        // Given: a machine in UTC asked about Makkah, with no zone and no method.
        let result = await CLI.run([
            "times", "--lat", "21.4225", "--lon", "39.8262", "--date", "2026-11-29", "--format", "json",
        ])
        // Then: Makkah's own zone and the method of Saudi Arabia, each with its source.
        let document = try CLI.json(result.stdout)
        let location = try #require(document["location"] as? [String: Any])
        #expect(location["timeZone"] as? String == "Asia/Riyadh")
        #expect(location["timeZoneSource"] as? String == "coordinates")
        let parameters = try #require(document["parameters"] as? [String: Any])
        #expect(parameters["method"] as? String == "umm-al-qura")
        #expect(parameters["methodSource"] as? String == "country:SA")
        let day = try #require((document["days"] as? [[String: Any]])?.first)
        #expect(day["fajr"] as? String == "2026-11-29T05:20:00+03:00")
    }

    @Test func aCityByNameGivesItsPlaceZoneAndMethod() async throws {
        let result = await CLI.run(["times", "--city", "Karachi", "--date", "2026-11-29"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Place: Karachi, PK — "))
        #expect(result.stdout.contains("Asia/Karachi (UTC+05:00, the city's zone)"))
        #expect(result.stdout.contains("(karachi);"))
        #expect(result.stdout.contains("chosen for PK; hanafi Asr is customary there (--madhab hanafi)"))
        let json = try CLI.json(await CLI.run(["times", "--city", "Karachi", "--format", "json"]).stdout)
        #expect((json["location"] as? [String: Any])?["timeZoneSource"] as? String == "coordinates")
        #expect((json["location"] as? [String: Any])?["name"] as? String == "Karachi, PK")
    }

    @Test func aGivenMethodOrZoneWins() async throws {
        let result = try CLI.json(
            await CLI.run(
                ["times", "--city", "Makkah", "--method", "isna", "--tz", "UTC", "--format", "json"]).stdout)
        #expect((result["parameters"] as? [String: Any])?["methodSource"] as? String == "option")
        #expect((result["location"] as? [String: Any])?["timeZoneSource"] as? String == "option")
    }

    @Test func disputedZonesNameTheOtherClaim() async throws {
        // Ürümqi: Asia/Shanghai by the government, Asia/Urumqi by much of the population.
        let table = await CLI.run(["times", "--lat", "43.8", "--lon", "87.6"])
        #expect(
            table.stdout.contains("also claimed here: Asia/Urumqi — choose with --tz Asia/Urumqi"), "\(table.stdout)")
        let zone = try CLI.json(
            await CLI.run(["places", "zone", "--lat", "43.8", "--lon", "87.6", "--format", "json"]).stdout)
        #expect(zone["timeZone"] as? String == "Asia/Shanghai")
        #expect(zone["alternatives"] as? [String] == ["Asia/Urumqi"])
        #expect(zone["source"] as? String == "boundaries")
    }

    @Test func theOpenSeaHasANauticalZone() async throws {
        let zone = try CLI.json(
            await CLI.run(["places", "zone", "--lat", "0", "--lon", "-150", "--format", "json"]).stdout)
        #expect(zone["timeZone"] as? String == "Etc/GMT+10")
        #expect(zone["source"] as? String == "ocean")
        let pole = await CLI.run(["places", "zone", "--lat", "90", "--lon", "180"])
        #expect(pole.status == 0, "\(pole.stderr)")
    }

    @Test func searchFollowsTheContract() async throws {
        let result = try CLI.json(
            await CLI.run(["places", "search", "Medina", "--limit", "3", "--format", "json"]).stdout)
        #expect(result["query"] as? String == "Medina")
        let places = try #require(result["places"] as? [[String: Any]])
        let first = try #require(places.first)
        #expect(first["name"] as? String == "Madinah")
        #expect(first["country"] as? String == "SA")
        for key in [
            "name", "country", "countryName", "region", "latitude", "longitude", "timeZone", "population", "geonameId",
        ] {
            #expect(first[key] != nil, "\(key)")
        }
        for (query, name, country) in [
            ("Mecca", "Makkah", "SA"), ("مكة", "Makkah", "SA"), ("London, Canada", "London", "CA"),
            ("Cologne", "Köln", "DE"),
        ] {
            let places =
                try CLI.json(await CLI.run(["places", "search", query, "--format", "json"]).stdout)["places"]
                as? [[String: Any]]
            #expect(places?.first?["name"] as? String == name, "\(query)")
            #expect(places?.first?["country"] as? String == country, "\(query)")
        }
    }

    @Test func nearListsTheClosestCities() async throws {
        let result = try CLI.json(
            await CLI.run(["places", "near", "--lat", "21.4225", "--lon", "39.8262", "--format", "json"]).stdout)
        let places = try #require(result["places"] as? [[String: Any]])
        #expect(places.first?["name"] as? String == "Makkah")
        #expect(((places.first?["distanceKilometers"] as? Double) ?? 99) < 5)
    }

    @Test func configSetCitySavesThePlaceZoneAndName() async throws {
        let dependency = CLI.dependency()
        let saved = await CLI.run(["config", "set", "city", "Springfield, Illinois"], dependency: dependency)
        #expect(saved.status == 0, "\(saved.stderr)")
        let preferences = try dependency.preferenceStore.preferences()
        #expect(preferences[.timeZone] == "America/Chicago")
        #expect(preferences[.placeName] == "Springfield, US")
        let times = await CLI.run(["times"], dependency: dependency)
        #expect(times.stdout.contains("America/Chicago (UTC-06:00, saved with the place)"))
        let ambiguous = await CLI.run(["config", "set", "city", "Springfield"], dependency: CLI.dependency())
        #expect(ambiguous.status == 64)
        #expect(ambiguous.stderr.contains("matches several places"))
    }

    @Test func cityAndCoordinatesTogetherAreAUsageError() async {
        let result = await CLI.run(["times", "--city", "Makkah", "--lat", "1", "--lon", "2"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--city and --lat/--lon both name a place"))
    }

    @Test func theDataNoticesAreShipped() async {
        let result = await CLI.run(["--version", "--verbose"])
        #expect(result.stdout.contains("Open Database License"))
        #expect(result.stdout.contains("GeoNames"))
        #expect(result.stdout.contains("Creative Commons Attribution 4.0"))
    }
}
