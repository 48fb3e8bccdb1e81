import PrayCore
import Synchronization

/// A ``PrayerCalculator`` that records every request and answers with ``onSchedules``; without one,
/// a call fails the test and throws ``MockError``.
public final class PrayerCalculatorMock: PrayerCalculator {
    private let state = Mutex<
        (calls: [PrayerAPI.Request], onSchedules: (@Sendable (PrayerAPI.Request) throws -> [PrayerSchedule])?)
    >(([], nil))

    /// Creates a mock with nothing set.
    public init() {}

    /// What a call returns or throws.
    public var onSchedules: (@Sendable (PrayerAPI.Request) throws -> [PrayerSchedule])? {
        get { state.withLock { $0.onSchedules } }
        set { state.withLock { $0.onSchedules = newValue } }
    }

    /// The requests, oldest first.
    public var calls: [PrayerAPI.Request] { state.withLock { $0.calls } }

    /// Records the request and runs ``onSchedules``.
    /// - Throws: What ``onSchedules`` throws; ``MockError`` when it is unset.
    public func schedules(for request: PrayerAPI.Request) throws -> [PrayerSchedule] {
        let answer = state.withLock { state in
            state.calls.append(request)
            return state.onSchedules
        }
        guard let answer else { throw MockError.unset("PrayerCalculatorMock.schedules(for:)") }
        return try answer(request)
    }
}
