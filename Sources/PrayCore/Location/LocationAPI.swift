#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The requests and answers of ``LocationManager`` and ``LocationService``.
public enum LocationAPI {
    /// A place a ``LocationService`` reports.
    public struct Fix: Hashable, Sendable {
        /// Where.
        public let coordinates: Coordinates
        /// A name for it, when known (the saved `place-name`).
        public let name: String?
        /// The IANA zone saved with it, when there is one.
        public let timeZoneIdentifier: String?
        /// Whether this is the place saved in the preferences (its saved zone then applies).
        public let isSavedPlace: Bool

        /// Creates a fix.
        public init(
            coordinates: Coordinates, name: String? = nil, timeZoneIdentifier: String? = nil, isSavedPlace: Bool
        ) {
            self.coordinates = coordinates
            self.name = name
            self.timeZoneIdentifier = timeZoneIdentifier
            self.isSavedPlace = isSavedPlace
        }
    }

    /// Which place a request is about.
    public enum PlaceSource: Hashable, Sendable {
        /// Where the ``LocationService`` says the user is (the saved place on Linux).
        case current
        /// The place saved in the preferences.
        case saved
        /// A city found by a ``PlaceAPI/Query`` text, such as `"London, Canada"`.
        case city(String)
        /// Given coordinates.
        case coordinates(Coordinates)
    }

    /// What to resolve: a place, and the zone and method when the user gave them.
    ///
    /// ```swift
    /// let request = LocationAPI.Request(.coordinates(try Coordinates(latitude: 21.4225, longitude: 39.8262)))
    /// let location = try await dependency.locationManager().resolve(request)
    /// print(location.timeZone.identifier, location.timeZoneSource, location.method.source)
    /// // Asia/Riyadh coordinates country:SA
    /// ```
    public struct Request: Hashable, Sendable {
        /// The place.
        public var place: PlaceSource
        /// A zone the user gave, parsed (``TimeZoneParser`` resolves `local`).
        public var timeZone: TimeZoneName?
        /// A method the user gave.
        public var method: CalculationMethod?

        /// Creates a request.
        /// - Parameters:
        ///   - place: The place.
        ///   - timeZone: A zone the user gave, parsed.
        ///   - method: A method the user gave.
        public init(_ place: PlaceSource, timeZone: TimeZoneName? = nil, method: CalculationMethod? = nil) {
            self.place = place
            self.timeZone = timeZone
            self.method = method
        }
    }

    /// Where a zone came from, as in `"timeZoneSource"`.
    public enum TimeZoneSource: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// Given with the request (`--tz`).
        case option
        /// Saved with the saved place.
        case saved
        /// Found from the coordinates (the offline boundaries).
        case coordinates
        /// The city's own zone (GeoNames).
        case city
        /// The machine's zone, given as `local` (`--tz local`).
        case system

        /// The raw value.
        public var description: String { rawValue }
    }

    /// A resolved place: where, in which zone, by which method, and why.
    public struct Location: Hashable, Sendable {
        /// Where.
        public let coordinates: Coordinates
        /// A name to show: the city's (`Makkah, SA`, or `Springfield, Illinois, US` where the country
        /// has two of the name), the saved `place-name`, or `nil`.
        public let name: String?
        /// The city, for a city request.
        public let place: Place?
        /// For a city request, how the city matched the query and the other places it also names
        /// (``LocationManager/cityChoice(named:)``).
        public let cityChoice: PlaceAPI.CityChoice?
        /// The gazetteer's nearest city, for headers ("near Makkah, SA"); `nil` when none lies within
        /// ``LocationManager/nearbyKilometers`` or for a city request.
        public let nearest: PlaceAPI.Nearby?
        /// The zone, with the name to show.
        public let zone: TimeZoneName
        /// Where the zone came from.
        public let timeZoneSource: TimeZoneSource
        /// The zone found at the coordinates, when it was looked up (its alternatives name the
        /// other claims in disputed territory).
        public let timeZoneLookup: TimeZoneLookup?
        /// The country (ISO 3166-1 alpha-2), when known.
        public let countryCode: String?
        /// The method and why: the one given, else the saved one, else the country's
        /// (``CalculationSettings/methodChoice(given:saved:country:)``).
        public let method: MethodChoice
        /// The method of the place's country (the Muslim World League, source `default`, when the
        /// country is unknown), for ``CalculationSettings/resolve(given:saved:country:latitude:)``.
        public let countryMethod: MethodChoice
        /// Whether this is the saved place.
        public let isSavedPlace: Bool

        /// Creates a location.
        public init(
            coordinates: Coordinates, name: String?, place: Place?, nearest: PlaceAPI.Nearby?, zone: TimeZoneName,
            timeZoneSource: TimeZoneSource, timeZoneLookup: TimeZoneLookup?, countryCode: String?,
            method: MethodChoice, countryMethod: MethodChoice, isSavedPlace: Bool,
            cityChoice: PlaceAPI.CityChoice? = nil
        ) {
            self.coordinates = coordinates
            self.name = name
            self.place = place
            self.cityChoice = cityChoice
            self.nearest = nearest
            self.zone = zone
            self.timeZoneSource = timeZoneSource
            self.timeZoneLookup = timeZoneLookup
            self.countryCode = countryCode
            self.method = method
            self.countryMethod = countryMethod
            self.isSavedPlace = isSavedPlace
        }

        /// The zone.
        public var timeZone: TimeZone { zone.timeZone }

        /// The other zones claimed here, for "also: Asia/Urumqi (use --tz)"; empty when the zone was
        /// given or saved.
        public var timeZoneAlternatives: [String] {
            guard timeZoneSource == .coordinates else { return [] }
            return timeZoneLookup?.alternatives ?? []
        }
    }

    /// What to calculate for a place at an instant — ``LocationManager/prayerRequest(for:at:days:given:)``:
    /// the request, and where each of its parts came from.
    public struct PrayerRequest: Hashable, Sendable {
        /// The request: the place, its zone, the civil day of the instant there, the parameters, and
        /// the saved Hijri calendar and offset.
        public var request: PrayerAPI.Request
        /// The place, its zone and country, and the source of each.
        public let location: Location
        /// The parameters, the method and why, and the saved settings set aside.
        public let settings: CalculationSettings.Resolution
        /// The saved iqama and Jumu'ah times, when set.
        public let iqama: IqamaSettings?

        /// Creates a prayer request.
        public init(
            request: PrayerAPI.Request, location: Location, settings: CalculationSettings.Resolution,
            iqama: IqamaSettings?
        ) {
            self.request = request
            self.location = location
            self.settings = settings
            self.iqama = iqama
        }
    }
}
