import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayPlaces

@Suite struct PlaceSearchTests {
    let service = PlaceServiceGazetteer(log: .silent)

    /// `place-search.json`: queries and the GeoNames city each must find.
    struct Fixture: Decodable {
        struct Query: Decodable {
            let query: String
            let geonameId: Int?
            let ambiguous: Bool?
            let candidates: [Int]?
            let none: Bool?
        }

        let queries: [Query]
    }

    @Test func searchFixture() throws {
        // Given
        let fixture = try JSONDecoder().decode(Fixture.self, from: Fixtures.data("place-search.json"))
        #expect(fixture.queries.count >= 100)
        // When / Then
        var failures: [String] = []
        for query in fixture.queries {
            let result = try service.search(query.query, limit: 6)
            let found = result.matches.map { "\($0.place.geonameID) \($0.place.fullName)" }
            if let id = query.geonameId, result.best?.geonameID != id || result.isAmbiguous {
                failures.append("\(query.query): expected \(id), got \(result.isAmbiguous ? "ambiguous " : "")\(found)")
            }
            if let ids = query.candidates {
                let leading = Set(result.matches.prefix(ids.count).map(\.place.geonameID))
                if !result.isAmbiguous || result.best != nil || leading != Set(ids) {
                    failures.append("\(query.query): expected ambiguous \(ids), got \(found)")
                }
            }
            if query.none == true, !result.matches.isEmpty {
                failures.append("\(query.query): expected nothing, got \(found)")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func mainNameBeatsOddAlternateNames() throws {
        // Given: Chattogram (3.9 million) lists its Mughal name Islamabad among its alternate names,
        // and Medina, Ohio lists Mecca
        // When
        let islamabad = try service.search("Islamabad")
        let mecca = try service.search("Mecca")
        // Then
        #expect(islamabad.best?.countryCode == "PK")
        #expect(islamabad.matches.first?.kind == .exact)
        #expect(mecca.best?.geonameID == 104_515)
        #expect(mecca.matches.first?.kind == .alternateName)
    }

    @Test func alternateNameOfAFarLargerPlaceWins() throws {
        // When: Madinah (1.3 million) has Medina as an alternate name; Medina, Ohio (26,000) as its own
        let result = try service.search("Medina")
        // Then
        #expect(result.best?.geonameID == 109_223)
        #expect(result.matches.map(\.place.geonameID).contains(5_162_512))
        #expect(!result.isAmbiguous)
    }

    @Test func exactBeforePrefixBeforeTypo() throws {
        // When
        let prefix = try service.search("Kuala Lump")
        let typo = try service.search("Karachee")
        let exact = try service.search("Köln")
        // Then
        #expect(prefix.matches.first?.kind == .prefix)
        #expect(typo.matches.first?.kind == .spellingCorrection)
        #expect(typo.matches.first?.edits == 2)  // "ee" for "i"
        #expect(exact.matches.first?.kind == .exact)
        #expect(exact.matches.dropFirst().allSatisfy { $0.kind != .exact && $0.kind != .alternateName })
    }

    @Test func nearTiesAreAmbiguous() throws {
        // When
        let result = try service.search("Springfield", limit: 5)
        // Then
        #expect(result.isAmbiguous)
        #expect(result.best == nil)
        #expect(result.matches.count == 5)
        #expect(result.matches.allSatisfy { $0.place.name == "Springfield" })
    }

    @Test func twoLetterQualifierMayBeRegionOrCountry() throws {
        // When: AL is Albania and Alabama; CA is Canada and California
        let birmingham = try service.search("Birmingham, AL")
        let london = try service.search("London, CA")
        // Then
        #expect(birmingham.best?.region == "Alabama")
        #expect(birmingham.best?.regionCode == "AL")
        #expect(london.best?.countryCode == "CA")
    }

    @Test func placeCarriesCountryRegionZoneAndPopulation() throws {
        // When
        let makkah = try #require(try service.place(geonameID: 104_515))
        // Then
        #expect(makkah.name == "Makkah")
        #expect(makkah.countryCode == "SA")
        #expect(makkah.countryName == "Saudi Arabia")
        #expect(makkah.region == "Makkah al Mukarramah")
        #expect(makkah.timeZoneIdentifier == "Asia/Riyadh")
        #expect(makkah.population > 1_000_000)
        #expect(abs(makkah.coordinates.latitude - 21.4266) < 0.001)
        #expect(makkah.shortName == "Makkah, SA")
        #expect(try service.place(geonameID: 1) == nil)
    }

    @Test func badQueriesThrow() {
        #expect(throws: ValidationError.self) { try service.search(" , ") }
        #expect(throws: ValidationError.self) { try service.search("Makkah", limit: 0) }
        #expect(throws: ValidationError.self) {
            try service.nearest(to: Coordinates(latitude: 0, longitude: 0), limit: 0)
        }
    }

    @Test func nearestCity() throws {
        // When: beside the Kaaba; in the Pacific far from land; across the date line
        let kaaba = try #require(try service.nearest(to: Coordinates(latitude: 21.4225, longitude: 39.8262)))
        let several = try service.nearest(to: Coordinates(latitude: 51.5, longitude: -0.12), limit: 3)
        let pacific = try #require(try service.nearest(to: Coordinates(latitude: -30, longitude: -140)))
        let dateLine = try #require(try service.nearest(to: Coordinates(latitude: -18.1, longitude: 179.99)))
        // Then
        #expect(kaaba.place.geonameID == 104_515)
        #expect(kaaba.distanceKilometers < 2)
        #expect(several.count == 3)
        #expect(several.map(\.distanceKilometers) == several.map(\.distanceKilometers).sorted())
        #expect(pacific.distanceKilometers > 500)
        #expect(dateLine.place.countryCode == "FJ")
    }

    /// The nearest-city index is read in place (its grid, the city's line, the one region line);
    /// what it returns must be what the fully parsed gazetteer says of the same city and what a scan
    /// of every city finds nearest.
    @Test func nearestFromTheIndexIsTheFullGazetteers() throws {
        // Given: seeded random points over the whole globe
        let data = try PlaceGazetteerData(text: PlaceGazetteerData.text)
        var random = SeededGenerator(seed: 23)
        for _ in 0..<50 {
            let point = try Coordinates(
                latitude: Double(random.next() % 1_800_000) / 10_000 - 90,
                longitude: Double(random.next() % 3_600_000) / 10_000 - 180)
            // When
            let found = try service.nearest(to: point, limit: 2)
            // Then
            let byScan = data.cities.lazy.map { point.kilometers(to: $0.coordinates) }.sorted().prefix(2)
            #expect(found.map(\.distanceKilometers) == Array(byScan), "\(point)")
            for nearby in found {
                let full = try #require(try service.place(geonameID: nearby.place.geonameID))
                #expect(nearby.place == full, "\(point)")
            }
        }
    }

    @Test func countriesOfAZone() throws {
        // Given: the system's zone.tab, a missing one, and none
        let withoutTab = PlaceServiceGazetteer(log: .silent, zoneTabPath: "/nonexistent/zone.tab")
        // When
        let riyadh = try withoutTab.countryCodes(inTimeZone: "Asia/Riyadh")
        let ocean = try withoutTab.countryCodes(inTimeZone: "Etc/GMT-3")
        let parsed = ZoneTab.parse("# comment\nSA\t+2438+04643\tAsia/Riyadh\nKW\t+2920+04759\tAsia/Kuwait\n")
        // Then
        #expect(riyadh.first == "SA")
        #expect(ocean.isEmpty)
        #expect(parsed == ["Asia/Riyadh": ["SA"], "Asia/Kuwait": ["KW"]])
        #expect(try service.country(code: "sa") == PlaceAPI.Country(code: "SA", name: "Saudi Arabia"))
        #expect(try service.country(code: "ZZ") == nil)
    }

    @Test(arguments: [
        ("São Paulo", "sao paulo"), ("KÖLN", "koln"), ("Saint-Étienne", "saint etienne"),
        ("  Ra's  al-Khaymah ", "ras al khaymah"),
        ("Straße", "strasse"), ("İstanbul", "istanbul"), ("مَكَّة", "مكه"), ("أبو ظبي", "ابو ظبي"), ("آمنة", "امنه"),
        ("إسلام آباد", "اسلام اباد"), ("مستشفى", "مستشفي"), ("ـمكـة", "مكه"),
    ])
    func folding(text: String, folded: String) {
        #expect(PlaceSearchIndex.fold(text) == folded)
    }

    /// The Swift folding agrees with the generator's Python folding on every stored city name.
    @Test func foldingAgreesWithTheGenerator() throws {
        let data = try PlaceGazetteerData(text: PlaceGazetteerData.text)
        let disagreements = data.cities.filter { PlaceSearchIndex.fold($0.name) != $0.key }.map {
            "\($0.name) → \($0.key)"
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        #expect(data.cities.count == 34_006)
    }
}
