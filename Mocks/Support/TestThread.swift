import Foundation

/// Runs long CPU-bound test work on a thread of its own.
///
/// Swift concurrency has one cooperative thread per core; a test that computes for a minute on one
/// of them delays every other test's `await` — a network test's timeout or retry delay then
/// measures the queue, not the code. Work run here leaves those threads free. Record expectations
/// on the test's task: return what the work found and check it after `await`.
///
/// ```swift
/// let failures = try await TestThread.run { try sweep() }   // [String]
/// #expect(failures.isEmpty, "\(failures.prefix(20))")
/// ```
public enum TestThread {
    /// Runs `work` on a new thread (8 MiB stack) and returns its result or rethrows its error.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
