import PrayCore

/// A ``TimeZoneService`` whose answer the test sets with ``onTimeZone(_:)``, recording every call.
/// A call without an answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let zones = TimeZoneServiceMock()
/// zones.onTimeZone { _ in TimeZoneLookup(identifier: "Asia/Riyadh", source: .boundaries) }
/// ```
public final class TimeZoneServiceMock: TimeZoneService {
    private let timeZoneFunction = MockFunction<Coordinates, TimeZoneLookup, any Error>(
        "TimeZoneServiceMock.timeZone(at:)")

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``timeZone(at:)``.
    public func onTimeZone(_ answer: @escaping @Sendable (Coordinates) throws -> TimeZoneLookup) {
        timeZoneFunction.on(answer)
    }

    /// The coordinates of each call of ``timeZone(at:)``, oldest first.
    public var timeZoneCalls: [Coordinates] { timeZoneFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func timeZone(at coordinates: Coordinates) throws -> TimeZoneLookup {
        try timeZoneFunction(coordinates)
    }
}
