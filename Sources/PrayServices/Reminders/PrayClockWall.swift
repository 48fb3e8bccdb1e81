import Dispatch
import Foundation
import PrayCore

/// A ``PrayClock`` that waits on the wall clock (`DispatchQueue.asyncAfter(wallDeadline:)`), not the
/// monotonic one: what a daemon needs, since a wait then ends at the right time of day after a
/// suspend, and under `faketime` — where `Task.sleep` and monotonic deadlines never wake.
public struct PrayClockWall: PrayClock {
    /// Creates the clock.
    public init() {}

    /// Returns `Date()`.
    public func now() -> Date {
        Date()
    }

    /// Waits `seconds` of wall-clock time.
    /// - Throws: `CancellationError` when the task is cancelled before the wait.
    public func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        guard seconds > 0, seconds.isFinite else { return }
        let wait = min(seconds, 86_400)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(wallDeadline: .now() + wait) { continuation.resume() }
        }
        try Task.checkCancellation()
    }
}
