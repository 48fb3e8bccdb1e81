import Dispatch

/// Where the `async` views of the stores and lookups run their synchronous work: a Dispatch queue,
/// never the caller's actor and never one of Swift concurrency's cooperative threads.
///
/// Each store and lookup service names its queue (``PreferencesStore/workQueue`` and the like), and
/// its `async` view (``PreferencesStore/async``) runs the synchronous method there while the caller's
/// task is suspended in a continuation, so the caller's actor — the main actor in an app — goes on
/// with other work:
///
/// ```swift
/// let entry = try await dependency.prayerLog().async.record(.prayed, for: .fajr, on: today)
/// ```
///
/// Why a queue, rather than an `async` function that simply calls the synchronous one: such a
/// function runs where Swift puts it. In a module that adopts `NonisolatedNonsendingByDefault`
/// (SE-0461) that is the caller's actor, so the main actor would wait for the database after all;
/// without it, it is one of the cooperative threads, of which there is one per core, and a write
/// that waits for another process's lock (an app and its widget share the database; SQLite waits up
/// to its busy timeout) would hold that thread for the whole wait — two such waits stall every task
/// of the app on a two-core device. A Dispatch thread may block; nothing else is waiting for it.
///
/// A store over one database file runs on a serial queue of its own (``init(label:)``): its calls
/// wait for each other on the connection's lock anyway, so one thread per file is all they need, and
/// a long wait never takes more. Lookups that only compute (place search, the zone at a point, Hijri
/// days), in-memory stores and mocks use the concurrent ``shared`` queue.
///
/// The work runs in the caller's own task, on this queue's thread (a task executor, SE-0417), not in
/// a continuation resumed from a bare Dispatch block: the task's locals travel with it, so a mock that
/// was not set up records its issue against the test that called it, and `withKnownIssue` sees it.
///
/// Work that has started is not stopped when the caller's task is cancelled: a write that was asked
/// for is made (or fails), and its result is returned.
public struct WorkQueue: @unchecked Sendable {
    // `@unchecked`: the stored values are immutable references that Dispatch itself uses from any
    // thread, but `DispatchSpecificKey` is not declared `Sendable` by every Dispatch overlay.
    private let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()
    private let executor: QueueExecutor

    /// Creates a serial queue: one per resource whose work may wait, such as a database file.
    /// - Parameter label: The queue's name in a debugger or a crash report (`"org.praykit.database"`).
    public init(label: String) {
        self.init(DispatchQueue(label: label, qos: .userInitiated))
    }

    private init(_ queue: DispatchQueue) {
        self.queue = queue
        executor = QueueExecutor(queue: queue)
        queue.setSpecific(key: key, value: true)
    }

    /// The concurrent queue of the services that do not name their own: lookups that only compute,
    /// in-memory stores and mocks.
    public static let shared = WorkQueue(
        DispatchQueue(label: "org.praykit.work", qos: .userInitiated, attributes: .concurrent)
    )

    /// Runs `work` on this queue and returns its result, or throws its error, to the suspended caller.
    /// - Throws: What `work` throws.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withTaskExecutorPreference(executor) { try await Self.perform(work) }
    }

    /// Runs `work` where a nonisolated async function runs: on the preferred task executor, this
    /// queue's (the closure of `withTaskExecutorPreference` itself keeps the caller's actor).
    private static func perform<T: Sendable>(_ work: @Sendable () throws -> T) async throws -> T {
        try work()
    }

    /// Runs `work` on this queue later, in the order of submission on a serial queue, and returns at
    /// once.
    package func submit(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Whether the calling code runs on this queue.
    package var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}

/// A task executor that runs each job on a Dispatch queue: a serial queue runs them one at a time, in
/// order, with the queue's other work.
private final class QueueExecutor: TaskExecutor {
    let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
