import PrayCore
import Synchronization

/// A ``LocationService`` whose answer the test sets with ``onCurrentLocation(_:)``, counting calls.
/// A call without an answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let location = LocationServiceMock()
/// location.onCurrentLocation { LocationAPI.Fix(coordinates: try Coordinates(latitude: 21.4, longitude: 39.8), isSavedPlace: false) }
/// ```
public final class LocationServiceMock: LocationService {
    /// A recorded call.
    public enum Call: Hashable, Sendable {
        /// ``currentLocation()``.
        case currentLocation
    }

    private struct State {
        var currentLocation: (@Sendable () throws -> LocationAPI.Fix?)?
        var calls: [Call] = []
    }

    private let state = Mutex(State())

    /// Creates a mock with nothing set.
    public init() {}

    /// The calls, oldest first.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// Sets the answer of ``currentLocation()``.
    public func onCurrentLocation(_ answer: @escaping @Sendable () throws -> LocationAPI.Fix?) {
        state.withLock { $0.currentLocation = answer }
    }

    /// Records the call and returns the configured answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func currentLocation() async throws -> LocationAPI.Fix? {
        let answer = state.withLock { state in
            state.calls.append(.currentLocation)
            return state.currentLocation
        }
        guard let answer else { throw MockError.unset("LocationServiceMock.currentLocation()") }
        return try answer()
    }
}
