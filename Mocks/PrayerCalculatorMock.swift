import PrayCore

/// A ``PrayerCalculator`` whose answer the test sets with ``onSchedules(_:)``, recording every
/// request. A call without an answer records a test issue and throws ``MockError``.
public final class PrayerCalculatorMock: PrayerCalculator {
    private let schedulesFunction = MockFunction<PrayerAPI.Request, [PrayerSchedule], any Error>(
        "PrayerCalculatorMock.schedules(for:)")

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``schedules(for:)``.
    public func onSchedules(_ answer: @escaping @Sendable (PrayerAPI.Request) throws -> [PrayerSchedule]) {
        schedulesFunction.on(answer)
    }

    /// The request of each call of ``schedules(for:)``, oldest first.
    public var schedulesCalls: [PrayerAPI.Request] { schedulesFunction.calls }

    /// Records the request and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func schedules(for request: PrayerAPI.Request) throws -> [PrayerSchedule] {
        try schedulesFunction(request)
    }
}
