// MARK: - The async view

extension TimeZoneService {
    /// ``WorkQueue/shared``: a service that has no queue of its own runs its `async` calls there.
    public var workQueue: WorkQueue { .shared }

    /// This service's look-ups as `async` functions that run on ``workQueue`` while the caller is
    /// suspended — for the main actor, which should not wait for the zone data to be decoded on the
    /// first call. The synchronous methods stay for servers, tools and the command line.
    public var async: AsyncTimeZoneService { AsyncTimeZoneService(service: self) }
}

/// The `async` counterparts of a ``TimeZoneService``'s look-ups, with the same names: each runs the
/// synchronous method on the service's ``TimeZoneService/workQueue``, off the caller's actor. Get it
/// from ``TimeZoneService/async``.
///
/// ```swift
/// let zone = try await dependency.timeZoneService().async.timeZone(latitude: 21.4225, longitude: 39.8262)
/// ```
public struct AsyncTimeZoneService: Sendable {
    /// The service whose methods run.
    public let service: any TimeZoneService

    /// Returns the zone at `coordinates`.
    /// - Throws: What ``TimeZoneService/timeZone(at:)`` throws.
    public func timeZone(at coordinates: Coordinates) async throws -> TimeZoneLookup {
        try await service.workQueue.run { [service] in try service.timeZone(at: coordinates) }
    }

    /// Returns the zone at a latitude and longitude in degrees.
    /// - Throws: What ``TimeZoneService/timeZone(latitude:longitude:)`` throws.
    public func timeZone(latitude: Double, longitude: Double) async throws -> TimeZoneLookup {
        try await timeZone(at: Coordinates(latitude: latitude, longitude: longitude))
    }
}
