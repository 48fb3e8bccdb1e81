import PrayCore

/// A ``LocationService`` whose answer the test sets with ``onCurrentLocation(_:)``, recording every
/// call. A call without an answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let location = LocationServiceMock()
/// location.onCurrentLocation { LocationAPI.Fix(coordinates: .mockMakkah, isSavedPlace: false) }
/// ```
public final class LocationServiceMock: LocationService {
    private let currentLocationFunction = MockFunction<Void, LocationAPI.Fix?, any Error>(
        "LocationServiceMock.currentLocation()")

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``currentLocation()``.
    public func onCurrentLocation(_ answer: @escaping @Sendable () throws -> LocationAPI.Fix?) {
        currentLocationFunction.on { _ in try answer() }
    }

    /// One element for each call of ``currentLocation()``.
    public var currentLocationCalls: [Void] { currentLocationFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func currentLocation() async throws -> LocationAPI.Fix? {
        try currentLocationFunction(())
    }
}
