import PrayCore

/// A ``PlaceService`` whose answers the test sets, one `on…` closure per requirement, recording the
/// arguments of every call. A requirement without an answer records a test issue and throws
/// ``MockError``.
///
/// ```swift
/// let places = PlaceServiceMock()
/// places.onSearch { query in PlaceAPI.SearchResult(query: query.text, matches: [], isAmbiguous: false) }
/// ```
public final class PlaceServiceMock: PlaceService {
    /// The arguments of a call of ``nearest(to:limit:)``.
    public typealias NearestArguments = (coordinates: Coordinates, limit: Int)

    private let searchFunction = MockFunction<PlaceAPI.Query, PlaceAPI.SearchResult, any Error>(
        "PlaceServiceMock.search(_:)")
    private let nearestFunction = MockFunction<NearestArguments, [PlaceAPI.Nearby], any Error>(
        "PlaceServiceMock.nearest(to:limit:)")
    private let placeFunction = MockFunction<Int, Place?, any Error>("PlaceServiceMock.place(geonameID:)")
    private let countryFunction = MockFunction<String, PlaceAPI.Country?, any Error>("PlaceServiceMock.country(code:)")
    private let countryCodesFunction = MockFunction<String, [String], any Error>(
        "PlaceServiceMock.countryCodes(inTimeZone:)")

    /// Creates a mock with nothing set.
    public init() {}

    // MARK: - search(_:)

    /// Sets the answer of ``search(_:)``.
    public func onSearch(_ answer: @escaping @Sendable (PlaceAPI.Query) throws -> PlaceAPI.SearchResult) {
        searchFunction.on(answer)
    }

    /// The query of each call of ``search(_:)``, oldest first.
    public var searchCalls: [PlaceAPI.Query] { searchFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func search(_ query: PlaceAPI.Query) throws -> PlaceAPI.SearchResult {
        try searchFunction(query)
    }

    // MARK: - nearest(to:limit:)

    /// Sets the answer of ``nearest(to:limit:)``.
    public func onNearest(_ answer: @escaping @Sendable (Coordinates, Int) throws -> [PlaceAPI.Nearby]) {
        nearestFunction.on { try answer($0.coordinates, $0.limit) }
    }

    /// The arguments of each call of ``nearest(to:limit:)``, oldest first.
    public var nearestCalls: [NearestArguments] { nearestFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func nearest(to coordinates: Coordinates, limit: Int) throws -> [PlaceAPI.Nearby] {
        try nearestFunction((coordinates, limit))
    }

    // MARK: - place(geonameID:)

    /// Sets the answer of ``place(geonameID:)``.
    public func onPlace(_ answer: @escaping @Sendable (Int) throws -> Place?) {
        placeFunction.on(answer)
    }

    /// The GeoNames ID of each call of ``place(geonameID:)``, oldest first.
    public var placeCalls: [Int] { placeFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func place(geonameID: Int) throws -> Place? {
        try placeFunction(geonameID)
    }

    // MARK: - country(code:)

    /// Sets the answer of ``country(code:)``.
    public func onCountry(_ answer: @escaping @Sendable (String) throws -> PlaceAPI.Country?) {
        countryFunction.on(answer)
    }

    /// The country code of each call of ``country(code:)``, oldest first.
    public var countryCalls: [String] { countryFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func country(code: String) throws -> PlaceAPI.Country? {
        try countryFunction(code)
    }

    // MARK: - countryCodes(inTimeZone:)

    /// Sets the answer of ``countryCodes(inTimeZone:)``.
    public func onCountryCodes(_ answer: @escaping @Sendable (String) throws -> [String]) {
        countryCodesFunction.on(answer)
    }

    /// The zone identifier of each call of ``countryCodes(inTimeZone:)``, oldest first.
    public var countryCodesCalls: [String] { countryCodesFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func countryCodes(inTimeZone identifier: String) throws -> [String] {
        try countryCodesFunction(identifier)
    }
}
