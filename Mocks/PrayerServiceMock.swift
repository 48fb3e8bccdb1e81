import PrayCore
import Synchronization

/// A ``PrayerService`` that returns what the test sets and records every request.
///
/// ```swift
/// let service = PrayerServiceMock()
/// service.result = .success(PrayerAPI.Response(schedules: [.mock()], source: .calculated))
/// let manager = PrayerManager(service: service, log: .silent)
/// ```
/// A call with no result set records a test issue and throws ``MockError``.
public final class PrayerServiceMock: PrayerService {
    private let state = Mutex(State())

    private struct State {
        var result: Result<PrayerAPI.Response, any Error>?
        var respond: (@Sendable (PrayerAPI.Request) throws -> PrayerAPI.Response)?
        var requests: [PrayerAPI.Request] = []
    }

    /// Creates a mock with nothing set.
    public init() {}

    /// The fixed answer to every call; setting it clears ``respond``.
    public var result: Result<PrayerAPI.Response, any Error>? {
        get { state.withLock { $0.result } }
        set {
            state.withLock {
                $0.result = newValue; $0.respond = nil
            }
        }
    }

    /// Sets a closure that builds the answer from the request (for tests of ranges of days).
    public func respond(with closure: @escaping @Sendable (PrayerAPI.Request) throws -> PrayerAPI.Response) {
        state.withLock {
            $0.respond = closure; $0.result = nil
        }
    }

    /// The requests received, oldest first.
    public var requests: [PrayerAPI.Request] { state.withLock { $0.requests } }

    /// Records the request and returns the configured answer.
    /// - Throws: The configured error, or ``MockError`` when nothing is configured.
    public func prayerTimes(for request: PrayerAPI.Request) async throws -> PrayerAPI.Response {
        let (result, respond) = state.withLock { state in
            state.requests.append(request)
            return (state.result, state.respond)
        }
        if let respond { return try respond(request) }
        guard let result else { throw MockError.unset("PrayerServiceMock.prayerTimes(for:)") }
        return try result.get()
    }
}
