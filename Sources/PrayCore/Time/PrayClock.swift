#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Tells the time and waits: what code that stamps an instant or waits reads instead of `Date()` and
/// `Task.sleep`, so that "now" is an input (DESIGN §4) and tests can let time pass without waiting.
///
/// ``PrayClockSystem`` is the real clock. PrayMocks' `PrayClockFake` records every wait asked of it
/// and returns at once, moving its own "now" on by the time waited.
///
/// ```swift
/// let clock: any PrayClock = PrayClockSystem()
/// let started = clock.now()
/// try await clock.sleep(for: 0.5)   // half a second later, or a CancellationError
/// ```
public protocol PrayClock: Sendable {
    /// Returns the current instant.
    func now() -> Date

    /// Suspends the calling task for `seconds`; zero, a negative or a NaN wait returns at once.
    /// - Parameter seconds: How long to wait.
    /// - Throws: `CancellationError` when the task is cancelled before or while it waits.
    func sleep(for seconds: TimeInterval) async throws
}
