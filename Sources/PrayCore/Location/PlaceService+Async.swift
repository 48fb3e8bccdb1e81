// MARK: - The async view

extension PlaceService {
    /// ``WorkQueue/shared``: a service that has no queue of its own runs its `async` calls there.
    public var workQueue: WorkQueue { .shared }

    /// This service's look-ups as `async` functions that run on ``workQueue`` while the caller is
    /// suspended — for the main actor, which should not wait for the gazetteer to load (the first
    /// search indexes 34,000 cities). The synchronous methods stay for servers, tools and the command
    /// line.
    public var async: AsyncPlaceService { AsyncPlaceService(service: self) }
}

/// The `async` counterparts of a ``PlaceService``'s look-ups, with the same names: each runs the
/// synchronous method on the service's ``PlaceService/workQueue``, off the caller's actor. Get it from
/// ``PlaceService/async``.
///
/// ```swift
/// let found = try await dependency.placeService().async.search("Makkah")
/// let near = try await dependency.placeService().async.nearest(to: coordinates)
/// ```
public struct AsyncPlaceService: Sendable {
    /// The service whose methods run.
    public let service: any PlaceService

    /// Returns the places that match a query, best first.
    /// - Throws: What ``PlaceService/search(_:)`` throws.
    public func search(_ query: PlaceAPI.Query) async throws -> PlaceAPI.SearchResult {
        try await service.workQueue.run { [service] in try service.search(query) }
    }

    /// Returns the places that match `text`, best first (at most `limit`).
    /// - Throws: What ``PlaceService/search(_:)`` throws.
    public func search(_ text: String, limit: Int = 10) async throws -> PlaceAPI.SearchResult {
        try await search(PlaceAPI.Query(text, limit: limit))
    }

    /// Returns up to `limit` places nearest to `coordinates`, nearest first, with their distances.
    /// - Throws: What ``PlaceService/nearest(to:limit:)`` throws.
    public func nearest(to coordinates: Coordinates, limit: Int) async throws -> [PlaceAPI.Nearby] {
        try await service.workQueue.run { [service] in try service.nearest(to: coordinates, limit: limit) }
    }

    /// Returns the place nearest to `coordinates`, or `nil` when the gazetteer is empty.
    /// - Throws: What ``PlaceService/nearest(to:limit:)`` throws.
    public func nearest(to coordinates: Coordinates) async throws -> PlaceAPI.Nearby? {
        try await nearest(to: coordinates, limit: 1).first
    }

    /// Returns the place with a GeoNames identifier, or `nil` when the gazetteer has none.
    /// - Throws: What ``PlaceService/place(geonameID:)`` throws.
    public func place(geonameID: Int) async throws -> Place? {
        try await service.workQueue.run { [service] in try service.place(geonameID: geonameID) }
    }

    /// Returns a country by its ISO 3166-1 alpha-2 code (any case), or `nil` when unknown.
    /// - Throws: What ``PlaceService/country(code:)`` throws.
    public func country(code: String) async throws -> PlaceAPI.Country? {
        try await service.workQueue.run { [service] in try service.country(code: code) }
    }

    /// Returns the countries that use a time zone, most likely first.
    /// - Throws: What ``PlaceService/countryCodes(inTimeZone:)`` throws.
    public func countryCodes(inTimeZone identifier: String) async throws -> [String] {
        try await service.workQueue.run { [service] in try service.countryCodes(inTimeZone: identifier) }
    }
}
