import Foundation
import PrayCore
import Synchronization

/// A ``PrayClock`` for tests: its "now" stands still until the test or a wait moves it, and every
/// wait asked of it is recorded and returns at once, so code that backs off or honours
/// `Retry-After` is tested without waiting in real time.
///
/// ```swift
/// let clock = PrayClockFake()
/// let network = NetworkServiceCurl(log: .silent, clock: clock)
/// // … a request answered 429 with Retry-After: 120, then 200 …
/// #expect(clock.sleeps == [120])
/// ```
public final class PrayClockFake: PrayClock {
    private let state: Mutex<(now: Date, sleeps: [TimeInterval])>

    /// Creates a clock that reads `now` until it is moved.
    /// - Parameter now: The starting instant; by default 2026-11-29 12:00:00 UTC.
    public init(now: Date = Date(timeIntervalSince1970: 1_795_953_600)) {
        state = Mutex((now, []))
    }

    /// The waits asked for, in seconds, oldest first.
    public var sleeps: [TimeInterval] { state.withLock { $0.sleeps } }

    /// Returns the clock's current instant.
    public func now() -> Date {
        state.withLock { $0.now }
    }

    /// Moves "now" on by `seconds` without recording a wait.
    public func advance(by seconds: TimeInterval) {
        state.withLock { $0.now += seconds }
    }

    /// Records the wait, moves "now" on by it (when it is positive) and returns at once.
    /// - Throws: `CancellationError` when the task is already cancelled, as a real wait would.
    public func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(seconds)
            if seconds > 0 { state.now += seconds }
        }
    }
}
