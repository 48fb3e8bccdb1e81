import PrayCore

/// A ``PrayerService`` whose answer the test sets with ``onPrayerTimes(_:)``, recording every request.
/// A call without an answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let service = PrayerServiceMock()
/// service.onPrayerTimes { request in
///     PrayerAPI.Response(schedules: request.dates.map { .mock(date: $0) }, source: .calculated)
/// }
/// let manager = PrayerManager(service: service, log: .silent)
/// … ask the manager …
/// #expect(service.prayerTimesCalls.count == 1)
/// ```
public final class PrayerServiceMock: PrayerService {
    private let prayerTimesFunction = MockFunction<PrayerAPI.Request, PrayerAPI.Response, any Error>(
        "PrayerServiceMock.prayerTimes(for:)")

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``prayerTimes(for:)``.
    public func onPrayerTimes(_ answer: @escaping @Sendable (PrayerAPI.Request) throws -> PrayerAPI.Response) {
        prayerTimesFunction.on(answer)
    }

    /// The request of each call of ``prayerTimes(for:)``, oldest first.
    public var prayerTimesCalls: [PrayerAPI.Request] { prayerTimesFunction.calls }

    /// Records the request and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func prayerTimes(for request: PrayerAPI.Request) async throws -> PrayerAPI.Response {
        try prayerTimesFunction(request)
    }

}
