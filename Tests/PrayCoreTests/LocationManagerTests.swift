import Foundation
import PrayCore
import PrayMocks
import Testing

@Suite struct LocationManagerTests {
    let system = TimeZone(identifier: "America/Chicago")!

    /// A manager over mocks: zones answer Asia/Riyadh (or what `zone` says), the nearest city is
    /// Makkah 3 km away, zone.tab says SA.
    func manager(
        saved: Preferences = Preferences(),
        zone: TimeZoneLookup = .init(identifier: "Asia/Riyadh", source: .boundaries),
        search: PlaceAPI.SearchResult? = nil
    ) throws -> (LocationManager, TimeZoneServiceMock, PlaceServiceMock) {
        let zones = TimeZoneServiceMock()
        zones.onTimeZone { _ in zone }
        let places = PlaceServiceMock()
        let makkah = try Place.mock()
        places.onNearest { _, _ in [PlaceAPI.Nearby(place: makkah, distanceKilometers: 3)] }
        places.onCountryCodes { $0 == "Asia/Riyadh" ? ["SA"] : [] }
        if let search { places.onSearch { _ in search } }
        let location = LocationServiceMock()
        location.onCurrentLocation { nil }
        let manager = LocationManager(
            timeZoneService: zones, placeService: places, preferences: PreferencesStoreFake(saved),
            locationService: location, log: .silent)
        return (manager, zones, places)
    }

    func savedMakkah(zone: String? = "Asia/Aden", method: String? = nil) throws -> Preferences {
        var saved = Preferences()
        try saved.set("21.4225", for: .latitude)
        try saved.set("39.8262", for: .longitude)
        try saved.set("Home", for: .placeName)
        if let zone { try saved.set(zone, for: .timeZone) }
        if let method { try saved.set(method, for: .method) }
        return saved
    }

    @Test func coordinatesTakeTheZoneThereAndTheCountrysMethod() async throws {
        // Given
        let (manager, zones, _) = try manager()
        let point = try Coordinates(latitude: 21.5, longitude: 39.9)
        // When
        let location = try await manager.resolve(.init(.coordinates(point)))
        // Then
        #expect(location.timeZone.identifier == "Asia/Riyadh")
        #expect(location.timeZoneSource == .coordinates)
        #expect(location.countryCode == "SA")
        #expect(location.method.method == .ummAlQura)
        #expect(location.method.source.description == "country:SA")
        #expect(location.nearest?.place.shortName == "Makkah, SA")
        #expect(!location.isSavedPlace)
        #expect(zones.timeZoneCalls == [point])
    }

    @Test func anExplicitZoneWinsAndLocalIsTheSystems() async throws {
        // Given
        let (manager, _, _) = try manager(saved: savedMakkah())
        let point = try Coordinates(latitude: 21.4225, longitude: 39.8262)
        // When
        let parser = TimeZoneParser(environment: [:], systemTimeZone: system)
        let option = try await manager.resolve(.init(.coordinates(point), timeZone: parser.parse("europe/london")))
        let local = try await manager.resolve(.init(.saved, timeZone: parser.parse("local")))
        // Then
        #expect(option.timeZone.identifier == "Europe/London")
        #expect(option.zone.identifier == "Europe/London")
        #expect(option.timeZoneSource == .option)
        #expect(local.timeZone == system)
        #expect(local.timeZoneSource == .system)
        #expect(throws: ValidationError.self) { try parser.parse("Mars/Olympus") }
    }

    @Test func theSavedZoneAppliesOnlyToTheSavedPlace() async throws {
        // Given: a saved place with a (deliberately different) saved zone
        let (manager, _, _) = try manager(saved: savedMakkah(zone: "Asia/Aden"))
        // When
        let saved = try await manager.resolve(.init(.saved))
        let same = try await manager.resolve(.init(.coordinates(Coordinates(latitude: 21.4225, longitude: 39.8262))))
        let elsewhere = try await manager.resolve(.init(.coordinates(Coordinates(latitude: 21.5, longitude: 39.2))))
        // Then
        #expect(saved.timeZone.identifier == "Asia/Aden")
        #expect(saved.timeZoneSource == .saved)
        #expect(saved.name == "Home")
        #expect(saved.isSavedPlace)
        #expect(same.timeZoneSource == .saved)
        #expect(elsewhere.timeZoneSource == .coordinates)
        #expect(elsewhere.timeZone.identifier == "Asia/Riyadh")
    }

    @Test func givenAndSavedMethodsWinOverTheCountry() async throws {
        // Given
        let (manager, _, _) = try manager(saved: savedMakkah(method: "isna"))
        let point = try Coordinates(latitude: 21.5, longitude: 39.9)
        // When
        let option = try await manager.resolve(.init(.coordinates(point), method: .egyptian))
        let saved = try await manager.resolve(.init(.coordinates(point)))
        // Then
        #expect(option.method == MethodChoice(method: .egyptian, source: .option))
        #expect(saved.method == MethodChoice(method: .northAmerica, source: .saved))
    }

    @Test func aCityBringsItsOwnZoneAndCountry() async throws {
        // Given
        let london = try Place.mock(
            geonameID: 6_058_560, name: "London", countryCode: "CA", countryName: "Canada", region: "Ontario",
            regionCode: "ON", latitude: 42.98, longitude: -81.23, population: 422_324,
            timeZoneIdentifier: "America/Toronto")
        let match = PlaceAPI.Match(place: london, kind: .exact, matchedName: "london", score: 306)
        let (manager, zones, _) = try manager(
            search: PlaceAPI.SearchResult(query: "London, Canada", matches: [match], isAmbiguous: false))
        // When
        let location = try await manager.resolve(.init(.city("London, Canada")))
        // Then
        #expect(location.timeZone.identifier == "America/Toronto")
        #expect(location.timeZoneSource == .city)
        #expect(location.method == .forCountry("CA", latitude: 42.98))
        #expect(location.method.method == .northAmerica)
        #expect(location.place == london)
        #expect(location.name == "London, CA")
        #expect(zones.timeZoneCalls.isEmpty)
    }

    @Test func anAmbiguousCityListsTheCandidates() async throws {
        // Given
        let springfields = try [("Missouri", 170_188), ("Massachusetts", 154_341)].map { region, people in
            PlaceAPI.Match(
                place: try Place.mock(
                    name: "Springfield", countryCode: "US", countryName: "United States", region: region,
                    population: people, timeZoneIdentifier: "America/Chicago"),
                kind: .exact, matchedName: "springfield", score: 306)
        }
        let (manager, _, _) = try manager(
            search: PlaceAPI.SearchResult(query: "Springfield", matches: springfields, isAmbiguous: true))
        // When / Then
        let error = await #expect(throws: ValidationError.self) {
            try await manager.resolve(.init(.city("Springfield")))
        }
        #expect(error?.message.contains("Springfield, Missouri, United States; Springfield, Massachusetts") == true)
    }

    @Test func aCountryNamedAsACityListsItsCities() async throws {
        // Given: the search finds Egypt's capital and largest city, too far apart to choose between
        let cities = try [("Cairo", "Al Qāhirah", true), ("Alexandria", "Al Iskandarīyah", false)].map {
            name, region, capital in
            PlaceAPI.Match(
                place: try Place.mock(
                    name: name, countryCode: "EG", countryName: "Egypt", region: region,
                    timeZoneIdentifier: "Africa/Cairo"),
                kind: .country, matchedName: "egypt", score: 410, area: "Egypt", isCapital: capital)
        }
        let (manager, _, _) = try manager(
            search: PlaceAPI.SearchResult(query: "Egypt", matches: cities, isAmbiguous: true))
        // When / Then
        let error = #expect(throws: ValidationError.self) { try manager.city(named: "Egypt") }
        #expect(error?.field == "city")
        #expect(
            error?.message
                == "'Egypt' names a country, not a city: Cairo, Al Qāhirah, Egypt (capital); Alexandria, "
                + "Al Iskandarīyah, Egypt; name one of these places, such as 'Cairo, Egypt'")
    }

    @Test func aCityChoiceSaysHowItMatchedAndNamesTheOthers() async throws {
        // Given
        let (india, pakistan) = (
            try Place.mock(name: "Hyderabad", countryCode: "IN", countryName: "India", region: "Telangāna"),
            try Place.mock(name: "Hyderabad", countryCode: "PK", countryName: "Pakistan", region: "Sindh")
        )
        let matches = [india, pakistan].map {
            PlaceAPI.Match(place: $0, kind: .exact, matchedName: "hyderabad", score: 307)
        }
        let (manager, _, places) = try manager(
            search: PlaceAPI.SearchResult(
                query: "Hyderabad", matches: matches, isAmbiguous: false, others: [matches[1]]))
        // When
        let choice = try #require(try manager.cityChoice(named: "Hyderabad"))
        let location = try await manager.resolve(.init(.city("Hyderabad")))
        // Then
        #expect(choice.place == india)
        #expect(choice.match.kind == .exact)
        #expect(choice.others.map(\.place) == [pakistan])
        #expect(location.cityChoice == choice)
        #expect(location.name == "Hyderabad, IN")
        #expect(places.searchCalls.map(\.text) == ["Hyderabad", "Hyderabad"])
    }

    @Test func withoutASavedPlaceTheCurrentLocationIsUnknown() async throws {
        let (manager, _, _) = try manager()
        await #expect(throws: ValidationError.self) { try await manager.resolve(.init(.current)) }
        await #expect(throws: ValidationError.self) { try await manager.resolve(.init(.saved)) }
    }

    @Test func theOpenSeaHasNoCountry() async throws {
        // Given: a nautical zone and the nearest city 900 km away
        let (manager, _, places) = try manager(zone: .nautical(longitude: -30))
        places.onNearest { _, _ in [PlaceAPI.Nearby(place: try Place.mock(), distanceKilometers: 900)] }
        // When
        let location = try await manager.resolve(.init(.coordinates(Coordinates(latitude: 0, longitude: -30))))
        // Then
        #expect(location.countryCode == nil)
        #expect(location.method == MethodChoice(method: .muslimWorldLeague, source: .default))
        #expect(location.nearest == nil)
        #expect(location.timeZone.identifier == "Etc/GMT+2")
    }

    @Test func methodChoicesByCountryAndLatitude() {
        let oslo = MethodChoice.forCountry("NO", latitude: 59.9)
        let karachi = MethodChoice.forCountry("pk", latitude: 24.9)
        let riyadh = MethodChoice.forCountry("SA", latitude: 24.7)
        #expect(oslo.method == .muslimWorldLeague)
        #expect(oslo.highLatitudeRule == .recommended)
        #expect(oslo.parameters.highLatitudeRule == .recommended)
        #expect(karachi.method == .karachi)
        #expect(karachi.madhabHint == .hanafi)
        #expect(karachi.parameters.madhab == .shafi)  // a hint, never forced
        #expect(riyadh.source.description == "country:SA")
        #expect(riyadh.highLatitudeRule == nil)
        #expect(CountryMethod.table.allSatisfy { !$0.source.isEmpty && $0.countryCode.count == 2 })
        #expect(Set(CountryMethod.table.map(\.countryCode)).count == CountryMethod.table.count)
    }
}

@Test func savingACityKeepsItsPlaceNameAndZone() throws {
    // Given
    var preferences = Preferences()
    try preferences.set("1200", for: .elevation)
    // When
    try preferences.setPlace(Place.mock())
    // Then
    #expect(preferences[.latitude] == "21.4266")
    #expect(preferences[.longitude] == "39.8256")
    #expect(preferences[.elevation] == nil)
    #expect(preferences[.placeName] == "Makkah, SA")
    #expect(preferences.timeZone?.identifier == "Asia/Riyadh")
    #expect(throws: ValidationError.self) { try preferences.setPlace(Place.mock(timeZoneIdentifier: "Mars/Olympus")) }
    #expect(preferences[.placeName] == "Makkah, SA")
}
