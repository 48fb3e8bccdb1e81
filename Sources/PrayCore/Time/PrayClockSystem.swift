#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The real ``PrayClock``: the system's time of day, and `Task.sleep` for waiting.
///
/// ```swift
/// let network = NetworkServiceCurl(log: .silent, clock: PrayClockSystem())   // the default
/// ```
public struct PrayClockSystem: PrayClock {
    /// Creates the clock.
    public init() {}

    /// Returns `Date()`.
    public func now() -> Date {
        Date()
    }

    /// Suspends the calling task for `seconds` (at most about 31 years; zero, a negative or a NaN
    /// wait returns at once).
    /// - Parameter seconds: How long to wait.
    /// - Throws: `CancellationError` when the task is cancelled before or while it waits.
    public func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        guard seconds > 0 else { return }
        // Clamped so that the conversion to nanoseconds cannot overflow.
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1e9))
    }
}
