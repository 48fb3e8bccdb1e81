import PrayCore
import Synchronization
import Testing

/// A ``QiblaService`` that returns what the test sets and records every place asked about.
///
/// The protocol cannot throw, so a call without a ``result`` records a test issue (failing the
/// test) and returns a qibla whose numbers are all `.nan`.
public final class QiblaServiceMock: QiblaService {
    private let state = Mutex<(result: Qibla?, places: [Coordinates])>((nil, []))

    /// Creates a mock with nothing set.
    public init() {}

    /// The answer to every call.
    public var result: Qibla? {
        get { state.withLock { $0.result } }
        set { state.withLock { $0.result = newValue } }
    }

    /// The places asked about, oldest first.
    public var places: [Coordinates] { state.withLock { $0.places } }

    /// Records the place and returns ``result``.
    public func qibla(from coordinates: Coordinates) -> Qibla {
        let result = state.withLock { state in
            state.places.append(coordinates)
            return state.result
        }
        if let result { return result }
        _ = MockError.unset("QiblaServiceMock.qibla(from:)")
        return Qibla(coordinates: coordinates, direction: .nan, sphericalDirection: .nan, distanceKilometers: .nan)
    }
}
