/// Finds the IANA time zone of a point on Earth, offline.
///
/// ```swift
/// let zone = try dependency.timeZoneService().timeZone(at: try Coordinates(latitude: 21.4225, longitude: 39.8262))
/// print(zone.identifier)   // Asia/Riyadh
/// ```
///
/// The methods are synchronous, for servers, tools and the command line; the first call decodes the
/// zone data. Code on the main actor calls them through ``async``, which runs them on ``workQueue``.
public protocol TimeZoneService: Sendable {
    /// Returns the zone at `coordinates`: the main zone, the zones of other claims there, and
    /// whether it is a land or a nautical zone. Every valid point has an answer, the poles and
    /// longitude ±180 included.
    /// - Throws: `PrayError` with kind `.unavailable` when the zone data cannot be read.
    func timeZone(at coordinates: Coordinates) throws -> TimeZoneLookup

    /// Where ``async`` runs this service's methods: ``WorkQueue/shared`` unless the service has a
    /// queue of its own.
    var workQueue: WorkQueue { get }
}

extension TimeZoneService {
    /// Returns the zone at a latitude and longitude in degrees.
    /// - Throws: ``ValidationError`` for a latitude outside −90…90 or a longitude outside −180…180
    ///   (or one that is not a number); what ``timeZone(at:)`` throws.
    public func timeZone(latitude: Double, longitude: Double) throws -> TimeZoneLookup {
        try timeZone(at: Coordinates(latitude: latitude, longitude: longitude))
    }
}
