import PrayCore

/// A ``QiblaService`` whose answer the test sets with ``onQibla(_:)``, recording every place asked
/// about.
///
/// The requirement cannot throw, so a call without an answer records a test issue (failing the test)
/// and returns a qibla of 0° (north) and 0 km from the place asked about.
///
/// ```swift
/// let qibla = QiblaServiceMock()
/// qibla.onQibla { Qibla(coordinates: $0, direction: 118.99, sphericalDirection: 119, distanceKilometers: 4_790) }
/// ```
public final class QiblaServiceMock: QiblaService {
    private let qiblaFunction = MockFunction<Coordinates, Qibla, Never>("QiblaServiceMock.qibla(from:)") {
        Qibla(coordinates: $0, direction: 0, sphericalDirection: 0, distanceKilometers: 0)
    }

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``qibla(from:)``.
    public func onQibla(_ answer: @escaping @Sendable (Coordinates) -> Qibla) {
        qiblaFunction.on(answer)
    }

    /// The place of each call of ``qibla(from:)``, oldest first.
    public var qiblaCalls: [Coordinates] { qiblaFunction.calls }

    /// Records the place and returns the answer; without one, a test issue and a 0° qibla.
    public func qibla(from coordinates: Coordinates) -> Qibla {
        qiblaFunction(coordinates)
    }
}
