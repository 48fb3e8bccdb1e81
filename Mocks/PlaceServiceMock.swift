import PrayCore
import Synchronization

/// A ``PlaceService`` whose answers the test sets, one `on…` closure per requirement, recording
/// every call. A requirement without an answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let places = PlaceServiceMock()
/// places.onSearch { query in PlaceAPI.SearchResult(query: query.text, matches: [], isAmbiguous: false) }
/// ```
public final class PlaceServiceMock: PlaceService {
    /// A recorded call.
    public enum Call: Hashable, Sendable {
        /// ``search(_:)``.
        case search(PlaceAPI.Query)
        /// ``nearest(to:limit:)``.
        case nearest(Coordinates, limit: Int)
        /// ``place(geonameID:)``.
        case place(geonameID: Int)
        /// ``country(code:)``.
        case country(code: String)
        /// ``countryCodes(inTimeZone:)``.
        case countryCodes(timeZone: String)
    }

    private struct State {
        var search: (@Sendable (PlaceAPI.Query) throws -> PlaceAPI.SearchResult)?
        var nearest: (@Sendable (Coordinates, Int) throws -> [PlaceAPI.Nearby])?
        var place: (@Sendable (Int) throws -> Place?)?
        var country: (@Sendable (String) throws -> PlaceAPI.Country?)?
        var countryCodes: (@Sendable (String) throws -> [String])?
        var calls: [Call] = []
    }

    private let state = Mutex(State())

    /// Creates a mock with nothing set.
    public init() {}

    /// The calls, oldest first.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// Sets the answer of ``search(_:)``.
    public func onSearch(_ answer: @escaping @Sendable (PlaceAPI.Query) throws -> PlaceAPI.SearchResult) {
        state.withLock { $0.search = answer }
    }

    /// Sets the answer of ``nearest(to:limit:)``.
    public func onNearest(_ answer: @escaping @Sendable (Coordinates, Int) throws -> [PlaceAPI.Nearby]) {
        state.withLock { $0.nearest = answer }
    }

    /// Sets the answer of ``place(geonameID:)``.
    public func onPlace(_ answer: @escaping @Sendable (Int) throws -> Place?) {
        state.withLock { $0.place = answer }
    }

    /// Sets the answer of ``country(code:)``.
    public func onCountry(_ answer: @escaping @Sendable (String) throws -> PlaceAPI.Country?) {
        state.withLock { $0.country = answer }
    }

    /// Sets the answer of ``countryCodes(inTimeZone:)``.
    public func onCountryCodes(_ answer: @escaping @Sendable (String) throws -> [String]) {
        state.withLock { $0.countryCodes = answer }
    }

    /// Records the call and returns the configured answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func search(_ query: PlaceAPI.Query) throws -> PlaceAPI.SearchResult {
        try answer(.search(query), "search(_:)", \.search)(query)
    }

    /// Records the call and returns the configured answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func nearest(to coordinates: Coordinates, limit: Int) throws -> [PlaceAPI.Nearby] {
        try answer(.nearest(coordinates, limit: limit), "nearest(to:limit:)", \.nearest)(coordinates, limit)
    }

    /// Records the call and returns the configured answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func place(geonameID: Int) throws -> Place? {
        try answer(.place(geonameID: geonameID), "place(geonameID:)", \.place)(geonameID)
    }

    /// Records the call and returns the configured answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func country(code: String) throws -> PlaceAPI.Country? {
        try answer(.country(code: code), "country(code:)", \.country)(code)
    }

    /// Records the call and returns the configured answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func countryCodes(inTimeZone identifier: String) throws -> [String] {
        try answer(.countryCodes(timeZone: identifier), "countryCodes(inTimeZone:)", \.countryCodes)(identifier)
    }

    private func answer<Answer>(_ call: Call, _ name: String, _ keyPath: KeyPath<State, Answer?>) throws -> Answer {
        let snapshot = state.withLock { state in
            state.calls.append(call)
            return state
        }
        guard let answer = snapshot[keyPath: keyPath] else { throw MockError.unset("PlaceServiceMock.\(name)") }
        return answer
    }
}
