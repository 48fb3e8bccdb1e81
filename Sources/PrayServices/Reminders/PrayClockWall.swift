import Dispatch
import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``PrayClock`` that waits on the wall clock (`DispatchQueue.asyncAfter(wallDeadline:)`), not the
/// monotonic one: what a daemon needs, since a wait then ends at the right time of day after a
/// suspend, and under `faketime` — where `Task.sleep` and monotonic deadlines never wake. A wait ends
/// early when its task is cancelled, so a daemon stopped by SIGTERM or Ctrl-C exits at once rather
/// than at the end of its current wait.
public struct PrayClockWall: PrayClock {
    /// Creates the clock.
    public init() {}

    /// Returns `Date()`.
    public func now() -> Date {
        Date()
    }

    /// Waits `seconds` of wall-clock time, or until the task is cancelled.
    /// - Throws: `CancellationError` when the task is cancelled before or during the wait.
    public func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        guard seconds > 0, seconds.isFinite else { return }
        let wait = min(seconds, 86_400)
        let wake = Wake()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                wake.hold(continuation)
                DispatchQueue.global().asyncAfter(wallDeadline: .now() + wait) { wake.resume() }
            }
        } onCancel: {
            wake.resume()
        }
        try Task.checkCancellation()
    }
}

// MARK: - Helpers

extension PrayClockWall {
    /// Resumes a wait once, from whichever comes first: the deadline or the cancellation (which may
    /// come before the continuation is even held).
    private final class Wake: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, woken: Bool)>((nil, false))

        func hold(_ continuation: CheckedContinuation<Void, Never>) {
            let woken = state.withLock { state in
                if !state.woken { state.continuation = continuation }
                return state.woken
            }
            if woken { continuation.resume() }
        }

        func resume() {
            let continuation = state.withLock { state in
                defer { state = (nil, true) }
                return state.continuation
            }
            continuation?.resume()
        }
    }
}
