/// Finds cities by name and near a point, offline (the GeoNames cities of 15,000 people or more).
///
/// ```swift
/// let result = try places.search("Springfield, Illinois")
/// print(result.best?.fullName ?? "none")   // Springfield, Illinois, United States
/// let near = try places.nearest(to: try Coordinates(latitude: 21.42, longitude: 39.83))
/// print(near.map { "near \($0.place.shortName)" } ?? "")   // near Makkah, SA
/// ```
///
/// The methods are synchronous, for servers, tools and the command line; the first call loads the
/// gazetteer. Code on the main actor calls them through ``async``, which runs them on ``workQueue``:
/// `try await places.async.search("Makkah")`.
public protocol PlaceService: Sendable {
    /// Returns the places that match a query, best first; see ``PlaceAPI/Query`` for what a query
    /// may say and ``PlaceAPI/SearchResult`` for the ranking.
    /// - Throws: ``ValidationError`` for an empty query or limit; `PrayError` (`.unavailable`) when
    ///   the gazetteer cannot be read.
    func search(_ query: PlaceAPI.Query) throws -> PlaceAPI.SearchResult

    /// Returns up to `limit` places nearest to `coordinates`, nearest first, with their distances.
    /// - Throws: ``ValidationError`` for a limit below 1; `PrayError` when the gazetteer cannot be read.
    func nearest(to coordinates: Coordinates, limit: Int) throws -> [PlaceAPI.Nearby]

    /// Returns the place with a GeoNames identifier, or `nil` when the gazetteer has none.
    /// - Throws: `PrayError` when the gazetteer cannot be read.
    func place(geonameID: Int) throws -> Place?

    /// Returns a country by its ISO 3166-1 alpha-2 code (any case), or `nil` when unknown.
    /// - Throws: `PrayError` when the gazetteer cannot be read.
    func country(code: String) throws -> PlaceAPI.Country?

    /// Returns the countries that use a time zone, most likely first: the system's `zone.tab`
    /// when it names one, then the countries of the gazetteer's cities in that zone by population.
    /// Empty for nautical zones and unknown identifiers.
    /// - Throws: `PrayError` when the gazetteer cannot be read.
    func countryCodes(inTimeZone identifier: String) throws -> [String]

    /// Where ``async`` runs this service's methods: ``WorkQueue/shared`` unless the service has a
    /// queue of its own.
    var workQueue: WorkQueue { get }
}

extension PlaceService {
    /// Returns the places that match `text`, best first (at most `limit`).
    /// - Throws: What ``search(_:)`` throws.
    public func search(_ text: String, limit: Int = 10) throws -> PlaceAPI.SearchResult {
        try search(PlaceAPI.Query(text, limit: limit))
    }

    /// Returns the place nearest to `coordinates`, or `nil` when the gazetteer is empty.
    /// - Throws: What ``nearest(to:limit:)`` throws.
    public func nearest(to coordinates: Coordinates) throws -> PlaceAPI.Nearby? {
        try nearest(to: coordinates, limit: 1).first
    }
}
