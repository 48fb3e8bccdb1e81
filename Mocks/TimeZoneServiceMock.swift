import PrayCore
import Synchronization

/// A ``TimeZoneService`` whose answer the test sets with ``onTimeZone(_:)``, recording every call.
/// A call without an answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let zones = TimeZoneServiceMock()
/// zones.onTimeZone { _ in TimeZoneLookup(identifier: "Asia/Riyadh", source: .boundaries) }
/// ```
public final class TimeZoneServiceMock: TimeZoneService {
    /// A recorded call.
    public enum Call: Hashable, Sendable {
        /// ``timeZone(at:)``.
        case timeZone(Coordinates)
    }

    private struct State {
        var timeZone: (@Sendable (Coordinates) throws -> TimeZoneLookup)?
        var calls: [Call] = []
    }

    private let state = Mutex(State())

    /// Creates a mock with nothing set.
    public init() {}

    /// The calls, oldest first.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// Sets the answer of ``timeZone(at:)``.
    public func onTimeZone(_ answer: @escaping @Sendable (Coordinates) throws -> TimeZoneLookup) {
        state.withLock { $0.timeZone = answer }
    }

    /// Records the call and returns the configured answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func timeZone(at coordinates: Coordinates) throws -> TimeZoneLookup {
        let answer = state.withLock { state in
            state.calls.append(.timeZone(coordinates))
            return state.timeZone
        }
        guard let answer else { throw MockError.unset("TimeZoneServiceMock.timeZone(at:)") }
        return try answer(coordinates)
    }
}
