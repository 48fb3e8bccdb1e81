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
        #expect(preferences[.placeName] == "Springfield, Illinois, US")
        let times = await CLI.run(["times"], dependency: dependency)
        #expect(times.stdout.contains("America/Chicago (UTC-06:00, saved with the place)"))
        let ambiguous = await CLI.run(["config", "set", "city", "Springfield"], dependency: CLI.dependency())
        #expect(ambiguous.status == 64)
        #expect(ambiguous.stderr.contains("matches several places"))
    }

    @Test func aCountryForACityIsRefusedWithItsCities() async throws {
        // Given: countries GeoNames gives as alternate names of towns elsewhere (Goodyear, Arizona is
        // "Egypt"; Inđija, Serbia is "India")
        for country in ["Malaysia", "Egypt", "India", "Oman", "Georgia"] {
            let dependency = CLI.dependency()
            // When
            let times = await CLI.run(["times", "--city", country], dependency: dependency)
            let saved = await CLI.run(["config", "set", "city", country], dependency: dependency)
            // Then: nothing is guessed or saved; the capital is suggested
            #expect(times.status == 64, "\(country): \(times.stdout)")
            #expect(times.stderr.contains("'\(country)' names a country"), "\(times.stderr)")
            #expect(times.stderr.contains("(capital)"), "\(times.stderr)")
            #expect(saved.status == 64)
            #expect(try dependency.preferenceStore.preferences()[.latitude] == nil)
        }
        let georgia = await CLI.run(["times", "--city", "Georgia"])
        #expect(georgia.stderr.contains("'Georgia' names a country and a region, not a city: Tbilisi"))
        #expect(georgia.stderr.contains("Atlanta, Georgia, United States"))
    }

    @Test func aSmallCountryGivesItsCapitalAndSaysSo() async throws {
        let times = await CLI.run(["times", "--city", "Qatar", "--date", "2026-11-29"])
        #expect(times.status == 0, "\(times.stderr)")
        #expect(times.stdout.hasPrefix("Place: Doha, QA (capital of Qatar, for 'Qatar') — "), "\(times.stdout)")
        let json = try CLI.json(await CLI.run(["times", "--city", "قطر", "--format", "json"]).stdout)
        let location = try #require(json["location"] as? [String: Any])
        #expect(location["name"] as? String == "Doha, QA")
        #expect(location["match"] as? String == "country")
        #expect(location["matchNote"] as? String == "capital of Qatar, for 'قطر'")
    }

    @Test func searchJSONSaysHowEachPlaceMatched() async throws {
        for (query, match, ambiguous, first) in [
            ("Makkah", "exact", false, "Makkah"), ("Mecca", "alternate-name", false, "Makkah"),
            ("Sao Pa", "prefix", false, "São Paulo"), ("Makah", "spelling-correction", false, "Makkah"),
            ("Egypt", "country", true, "Cairo"), ("Texas", "region", true, "Houston"),
        ] {
            let result = try CLI.json(await CLI.run(["places", "search", query, "--format", "json"]).stdout)
            #expect(result["match"] as? String == match, "\(query)")
            #expect(result["ambiguous"] as? Bool == ambiguous, "\(query)")
            let place = try #require((result["places"] as? [[String: Any]])?.first)
            #expect(place["name"] as? String == first, "\(query)")
            #expect(place["match"] as? String == match, "\(query)")
            for key in ["matchedName", "edits", "area", "capital", "displayName"] {
                #expect(place[key] != nil, "\(query): \(key)")
            }
        }
        let egypt = try CLI.json(await CLI.run(["places", "search", "Egypt", "--format", "json"]).stdout)
        let cairo = try #require((egypt["places"] as? [[String: Any]])?.first)
        #expect(cairo["capital"] as? Bool == true)
        #expect(cairo["area"] as? String == "Egypt")
        let places = try #require(egypt["places"] as? [[String: Any]])
        #expect(places.allSatisfy { $0["country"] as? String == "EG" })
        let table = await CLI.run(["places", "search", "Egypt"])
        #expect(table.stdout.hasPrefix("'Egypt' names a country, not a city"))
        #expect(table.stdout.contains("capital of Egypt"))
        let corrected = await CLI.run(["places", "search", "Makah"])
        #expect(corrected.stdout.contains("spelling correction"))
    }

    @Test func theHeaderSaysHowTheCityMatchedAndNamesTheOtherOne() async throws {
        let makah = await CLI.run(["times", "--city", "Makah", "--date", "2026-11-29"])
        #expect(makah.stdout.hasPrefix("Place: Makkah, SA (spelling correction of 'Makah') — "), "\(makah.stdout)")
        let cologne = await CLI.run(["times", "--city", "Cologne", "--date", "2026-11-29"])
        #expect(cologne.stdout.hasPrefix("Place: Köln, DE (alternate name 'Cologne') — "), "\(cologne.stdout)")
        let hyderabad = await CLI.run(["times", "--city", "Hyderabad", "--date", "2026-11-29"])
        #expect(hyderabad.stdout.hasPrefix("Place: Hyderabad, IN — "))
        #expect(
            hyderabad.stdout.contains("\nAlso named 'Hyderabad': Hyderabad, Sindh, Pakistan (--city 'Hyderabad, PK')\n")
        )
        let tripoli = try CLI.json(await CLI.run(["times", "--city", "Tripoli", "--format", "json"]).stdout)
        let location = try #require(tripoli["location"] as? [String: Any])
        #expect(location["alsoNamed"] as? [String] == ["Tripoli, Ash Shimāl, Lebanon"])
        let springfield = await CLI.run(["times", "--city", "Springfield, Illinois", "--date", "2026-11-29"])
        #expect(springfield.stdout.hasPrefix("Place: Springfield, Illinois, US — "), "\(springfield.stdout)")
    }

    @Test func qiblaNamesTheCityAndTheSavedPlace() async throws {
        let city = await CLI.run(["qibla", "--city", "Karachi"])
        #expect(city.stdout.hasPrefix("Qibla from Karachi, PK — 24.8608, 67.0104\n"), "\(city.stdout)")
        let dependency = CLI.dependency()
        _ = await CLI.run(["config", "set", "city", "Springfield, Illinois"], dependency: dependency)
        let saved = await CLI.run(["qibla"], dependency: dependency)
        #expect(saved.stdout.hasPrefix("Qibla from Springfield, Illinois, US — 39.8017, -89.6437\n"), "\(saved.stdout)")
        let json = try CLI.json(await CLI.run(["qibla", "--format", "json"], dependency: dependency).stdout)
        #expect(json["name"] as? String == "Springfield, Illinois, US")
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

    @Test func coordinatesPrintWithoutFloatNoise() async throws {
        let json = try CLI.json(await CLI.run(["places", "search", "Beirut", "--format", "json"]).stdout)
        let place = try #require((json["places"] as? [[String: Any]])?.first)
        #expect(place["latitude"] as? Double == 33.8933)
        let header = await CLI.run(["times", "--city", "Beirut"]).stdout
        #expect(header.contains("33.8933, 35.5016"), "\(header)")
    }
}
