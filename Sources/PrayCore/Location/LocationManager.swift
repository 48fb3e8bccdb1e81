#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Answers "where is the user, in which zone, and by which method": the saved place, a city, given
/// coordinates or the ``LocationService``'s fix, with the zone and the method chosen by one rule and
/// the reason for each.
///
/// The zone: the one given with the request (parsed by ``TimeZoneParser``, which resolves `local`);
/// else the saved zone when the place is the saved place; else a city's own zone; else the zone at the
/// coordinates (offline boundaries, ``timeZone(at:)``). Never the machine's zone for a place elsewhere.
///
/// The method: the one given; else the saved one; else the one of the place's country
/// (``MethodChoice/forCountry(_:latitude:)``), the country being the city's, or the one found from
/// the coordinates by ``countryCode(at:)`` — the rule of
/// ``CalculationSettings/methodChoice(given:saved:country:)``.
///
/// A city is found by one rule too, ``city(named:)``: the best match, unless several places match
/// equally well.
///
/// ```swift
/// let manager = dependency.locationManager()
/// let location = try await manager.resolve(.init(.city("Makkah")))
/// print(location.timeZone.identifier, location.timeZoneSource, location.method)
/// // Asia/Riyadh city umm-al-qura (country:SA)
/// ```
public struct LocationManager: Sendable {
    private let timeZoneService: any TimeZoneService
    private let placeService: any PlaceService
    private let preferences: any PreferencesStore
    private let locationService: any LocationService
    private let mosques: (any MosqueTimetableStore)?
    private let log: LogManager

    /// How far the nearest city may be for a header to say "near" it, kilometres.
    public static let nearbyKilometers = 50.0

    /// Creates a manager.
    /// - Parameters:
    ///   - timeZoneService: Finds the zone at coordinates.
    ///   - placeService: Finds cities and countries.
    ///   - preferences: The saved place, zone and method.
    ///   - locationService: Where the user is for ``LocationAPI/PlaceSource/current``.
    ///   - mosques: The mosques kept, whose chosen one's Hijri calendar a request follows
    ///     (``HijriCalendarChoice``); `nil` follows the saved calendar alone.
    ///   - log: The logger.
    public init(
        timeZoneService: any TimeZoneService, placeService: any PlaceService, preferences: any PreferencesStore,
        locationService: any LocationService, mosques: (any MosqueTimetableStore)? = nil, log: LogManager
    ) {
        self.timeZoneService = timeZoneService
        self.placeService = placeService
        self.preferences = preferences
        self.locationService = locationService
        self.mosques = mosques
        self.log = log
    }
}

extension LocationManager {
    /// Resolves a request into coordinates, zone and method, each with its source.
    /// - Throws: ``ValidationError`` for a city that matches nothing or several places equally well
    ///   (the message lists them), or no known place; what the services and the preferences store
    ///   throw.
    public func resolve(_ request: LocationAPI.Request) async throws -> LocationAPI.Location {
        let saved = try await preferences.async.preferences()
        let (fix, choice) = try await locate(request.place, saved: saved)
        let place = choice?.place
        var lookup: TimeZoneLookup?
        func zoneAtCoordinates() throws -> TimeZoneLookup {
            if let lookup { return lookup }
            let found = try timeZoneService.timeZone(at: fix.coordinates)
            lookup = found
            return found
        }
        let (zone, timeZoneSource) = try self.zone(
            request: request, fix: fix, place: place, saved: saved, lookup: zoneAtCoordinates)
        let countryCode: String?
        let nearest: PlaceAPI.Nearby?
        if let place {
            countryCode = place.countryCode
            nearest = nil
        } else {
            let closest = try placeService.nearest(to: fix.coordinates)
            countryCode = try self.countryCode(lookup: zoneAtCoordinates(), nearest: closest)
            nearest = closest.flatMap { $0.distanceKilometers <= Self.nearbyKilometers ? $0 : nil }
        }
        let countryMethod = MethodChoice.forCountry(countryCode, latitude: fix.coordinates.latitude)
        let method = CalculationSettings.methodChoice(given: request.method, saved: saved, country: countryMethod)
        log.debug(
            "Location resolved",
            metadata: [
                "location.zone": zone.identifier, "location.zoneSource": timeZoneSource.rawValue,
                "location.method": method.description,
            ])
        return LocationAPI.Location(
            coordinates: fix.coordinates, name: fix.name, place: place, nearest: nearest,
            zone: zone, timeZoneSource: timeZoneSource, timeZoneLookup: lookup, countryCode: countryCode,
            method: method, countryMethod: countryMethod, isSavedPlace: fix.isSavedPlace, cityChoice: choice
        )
    }

    /// The request for a place at an instant, by every rule of PrayKit at once: the place and its
    /// zone (``resolve(_:)``), the civil day of `instant` there, the calculation settings given,
    /// saved and of the place's country (``CalculationSettings/resolve(given:saved:country:latitude:)``), and
    /// the saved Hijri calendar, offset and iqama times. This is what an app calls to show a
    /// person's times — the same answer as `praykit times` for the same place and settings.
    ///
    /// ```swift
    /// let prepared = try await dependency.locationManager().prayerRequest(at: now)
    /// let day = try await dependency.prayerManager().day(for: prepared.request)
    /// print(prepared.location.zone, prepared.settings.method)   // Europe/London moonsighting-committee (country:GB)
    /// ```
    /// - Parameters:
    ///   - place: The place, and a zone and method the person gave; the current place by default.
    ///   - instant: Now, from the app's clock: its civil day in the place's zone is the first day.
    ///   - days: How many days from that one.
    ///   - given: Calculation settings given for this request (an app's settings screen); the method
    ///     in `place`, when set, wins over the one here.
    /// - Throws: What ``resolve(_:)`` throws; ``ValidationError`` for settings that conflict or are
    ///   out of range.
    public func prayerRequest(
        for place: LocationAPI.Request = LocationAPI.Request(.current), at instant: Date, days: Int = 1,
        given: CalculationSettings = CalculationSettings()
    ) async throws -> LocationAPI.PrayerRequest {
        var settings = given
        settings.method = place.method ?? given.method
        var placeRequest = place
        placeRequest.method = settings.method
        let location = try await resolve(placeRequest)
        let saved = try await preferences.async.preferences()
        let resolution = try CalculationSettings.resolve(
            given: settings, saved: saved, country: location.countryMethod, latitude: location.coordinates.latitude)
        var request = PrayerAPI.Request(
            coordinates: location.coordinates, zone: location.zone,
            date: try CivilDate(containing: instant, in: location.zone), days: days,
            parameters: resolution.parameters)
        try await hijriChoice(saved).apply(to: &request)
        for ignored in resolution.ignored {
            log.info(
                "Saved setting ignored",
                metadata: ["config.setting": ignored.description, "config.method": resolution.method.method.rawValue])
        }
        return LocationAPI.PrayerRequest(
            request: request, location: location, settings: resolution, iqama: saved.iqamaSettings)
    }

    /// The Hijri calendar `saved` follows: the chosen mosque's when one is kept for it.
    /// - Throws: ``StorageError`` when the mosques cannot be read.
    public func hijriChoice(_ saved: Preferences) async throws -> HijriCalendarChoice {
        guard saved[.mosque] != nil, let mosques else { return HijriCalendarChoice(saved: saved) }
        return try await mosques.workQueue.run { try HijriCalendarChoice(saved: saved, mosques: mosques) }
    }

    /// The one city a query names: the best match (``PlaceAPI/SearchResult/best``), or `nil` when none
    /// matches. The rule of ``cityChoice(named:)``, without how the city matched.
    /// - Throws: ``ValidationError`` (field `city`) when several places match equally well, or the
    ///   query names a country or region that has no one city standing for it — the message lists
    ///   them and says how to choose; what the place service throws.
    public func city(named text: String) throws -> Place? {
        try cityChoice(named: text)?.place
    }

    /// The one city a query names, with how it matched and the other places it also names: the best
    /// match (``PlaceAPI/SearchResult/best``), or `nil` when none matches. `praykit --city`, `config
    /// set city` and the server's `…ByCity` routes all choose by this rule.
    ///
    /// ```swift
    /// let choice = try manager.cityChoice(named: "Hyderabad")
    /// print(choice?.match.shortName ?? "", choice?.others.map(\.shortName) ?? [])   // Hyderabad, IN ["Hyderabad, PK"]
    /// ```
    /// - Throws: ``ValidationError`` (field `city`) when several places match equally well (`Springfield`),
    ///   or the query names a country or region that no one city stands for (`Egypt`) — the message
    ///   lists them and says how to choose; what the place service throws.
    public func cityChoice(named text: String) throws -> PlaceAPI.CityChoice? {
        let result = try placeService.search(PlaceAPI.Query(text, limit: 5))
        if let first = result.matches.first, !result.isAmbiguous {
            return PlaceAPI.CityChoice(query: text, match: first, others: result.others)
        }
        guard let first = result.matches.first else { return nil }
        let suggested = result.matches.filter { $0.kind == .country || $0.kind == .region }
        guard first.kind == .country || first.kind == .region else {
            let names = result.matches.map(\.place.fullName).joined(separator: "; ")
            throw ValidationError(
                field: "city",
                message: "'\(text)' matches several places: \(names); add the region or country, such as '"
                    + "\(first.place.name), \(first.place.region ?? first.place.countryName)'"
            )
        }
        let kinds = Set(suggested.map(\.kind))
        let areas = Set(suggested.compactMap(\.area)).count
        let what =
            kinds.count > 1
            ? "a country and a region"
            : first.kind == .country
                ? (areas > 1 ? "countries" : "a country")
                : (areas > 1 ? "regions" : "a region")
        let names = result.matches.map { match in
            match.place.fullName + (match.isCapital && match.kind == .country ? " (capital)" : "")
        }
        throw ValidationError(
            field: "city",
            message: "'\(text)' names \(what), not a city: \(names.joined(separator: "; ")); name one of these "
                + "places, such as '\(first.place.name), "
                + "\(first.kind == .region ? first.place.region ?? first.place.countryName : first.place.countryName)'"
        )
    }

    /// The zone at `coordinates` (the offline boundaries), with the lookup (its other claims in
    /// disputed territory). A zone the system does not know (newer than its tz data) gives way to the
    /// next one claimed there, else to the nautical zone of the longitude.
    /// - Throws: What the time-zone service throws.
    public func timeZone(at coordinates: Coordinates) throws -> (zone: TimeZoneName, lookup: TimeZoneLookup) {
        let found = try timeZoneService.timeZone(at: coordinates)
        return (zone(of: found, longitude: coordinates.longitude), found)
    }

    /// Returns the country at `coordinates`: the nearest city's when it lies within 100 km and in
    /// a country of the zone there; else the first country of that zone (the system's `zone.tab`,
    /// then the gazetteer); else the nearest city's within 300 km; else `nil` (open sea).
    /// - Throws: What the services throw.
    public func countryCode(at coordinates: Coordinates) throws -> String? {
        try countryCode(
            lookup: timeZoneService.timeZone(at: coordinates), nearest: placeService.nearest(to: coordinates))
    }
}

// MARK: - Helpers

extension LocationManager {
    /// The fix and, for a city, the place.
    private func locate(_ source: LocationAPI.PlaceSource, saved: Preferences) async throws -> (
        LocationAPI.Fix, PlaceAPI.CityChoice?
    ) {
        switch source {
        case .current:
            guard let fix = try await locationService.currentLocation() else { throw Self.noPlace }
            return (fix, nil)
        case .saved:
            guard let fix = try Self.savedFix(saved) else { throw Self.noPlace }
            return (fix, nil)
        case .city(let text):
            guard let choice = try cityChoice(named: text) else {
                throw ValidationError(field: "city", message: "no city matches '\(text)'")
            }
            let fix = LocationAPI.Fix(
                coordinates: choice.place.coordinates, name: choice.match.shortName, isSavedPlace: false)
            return (fix, choice)
        case .coordinates(let coordinates):
            if let fix = try Self.savedFix(saved), fix.coordinates.latitude == coordinates.latitude,
                fix.coordinates.longitude == coordinates.longitude
            {
                return (
                    LocationAPI.Fix(
                        coordinates: coordinates, name: fix.name, timeZoneIdentifier: fix.timeZoneIdentifier,
                        isSavedPlace: true), nil
                )
            }
            return (LocationAPI.Fix(coordinates: coordinates, isSavedPlace: false), nil)
        }
    }

    /// The zone and its source, by the rule of the type's documentation.
    private func zone(
        request: LocationAPI.Request, fix: LocationAPI.Fix, place: Place?, saved: Preferences,
        lookup: () throws -> TimeZoneLookup
    ) throws -> (TimeZoneName, LocationAPI.TimeZoneSource) {
        if let given = request.timeZone { return (given, given.isLocal ? .system : .option) }
        if fix.isSavedPlace, let identifier = fix.timeZoneIdentifier, let zone = TimeZoneName(identifier) {
            return (zone, .saved)
        }
        if let place, let zone = TimeZoneName(place.timeZoneIdentifier) { return (zone, .city) }
        return (zone(of: try lookup(), longitude: fix.coordinates.longitude), .coordinates)
    }

    /// The zone of a lookup that the system knows: its main zone, else the next one claimed, else the
    /// nautical zone of the longitude (a zone newer than the system's tz data).
    private func zone(of found: TimeZoneLookup, longitude: Double) -> TimeZoneName {
        for identifier in [found.identifier] + found.alternatives {
            if let zone = TimeZoneName(identifier) { return zone }
        }
        log.warning("Unknown time zone from the boundaries", metadata: ["location.zone": found.identifier])
        return TimeZoneName(TimeZoneLookup.nautical(longitude: longitude).identifier) ?? .utc
    }

    private func countryCode(lookup: TimeZoneLookup, nearest: PlaceAPI.Nearby?) throws -> String? {
        // A near city in the zone found settles it without the zone's countries (zone.tab, read from disk).
        if let nearest, nearest.distanceKilometers <= 100, nearest.place.timeZoneIdentifier == lookup.identifier {
            return nearest.place.countryCode
        }
        let zoneCountries = lookup.source == .ocean ? [] : try placeService.countryCodes(inTimeZone: lookup.identifier)
        if let nearest, nearest.distanceKilometers <= 100, zoneCountries.contains(nearest.place.countryCode) {
            return nearest.place.countryCode
        }
        if let first = zoneCountries.first { return first }
        if let nearest, nearest.distanceKilometers <= 300 { return nearest.place.countryCode }
        return nil
    }

    private static func savedFix(_ saved: Preferences) throws -> LocationAPI.Fix? {
        guard let coordinates = try saved.coordinates() else { return nil }
        return LocationAPI.Fix(
            coordinates: coordinates, name: saved[.placeName], timeZoneIdentifier: saved[.timeZone], isSavedPlace: true)
    }

    private static let noPlace = ValidationError(
        field: "location", message: "no place is known: give coordinates or a city, or save a place first")
}
