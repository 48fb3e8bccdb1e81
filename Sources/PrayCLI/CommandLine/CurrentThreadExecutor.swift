#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a command's tasks on the thread that started it (the process's main thread), one job at a
/// time, instead of on Swift's pool of worker threads.
///
/// A one-day `praykit times` is mostly start-up, and the pool made it start five threads (each with its
/// stack, its malloc arena and Dispatch's manager) and hand the work from the main thread to a worker
/// and back: about as much wall time again as the command's own work on a busy machine. A task run
/// with this executor as its preference (``run(_:)``) keeps its non-isolated async functions, and the
/// child tasks and default actors it starts, here. A job enqueued from another thread (a continuation
/// resumed by a server's thread, a timer) wakes the loop. Nothing here may wait synchronously for
/// another task: the command line has no such wait.
final class CurrentThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `finished` are read and written only with `lock` held.
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var jobs: [UnownedJob] = []
    private var finished = false

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Queues a job for the loop of ``run(_:)``, from any thread.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(lock)
        jobs.append(job)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(lock)
    }

    /// Runs `operation` as a task that prefers this executor, and this thread's loop until it ends.
    /// - Returns: What `operation` returned.
    func run(_ operation: @escaping @Sendable () async -> Int32) -> Int32 {
        let result = ResultBox()
        Task(executorPreference: self) {
            result.value = await operation()
            self.finish()
        }
        while let batch = nextBatch() {
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
        return result.value
    }

    /// The jobs queued so far, waiting for one when there is none; `nil` once the task has ended.
    private func nextBatch() -> [UnownedJob]? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while jobs.isEmpty, !finished { pthread_cond_wait(condition, lock) }
        guard !jobs.isEmpty else { return nil }
        defer { jobs.removeAll(keepingCapacity: true) }
        return jobs
    }

    private func finish() {
        pthread_mutex_lock(lock)
        finished = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(lock)
    }

    /// The task's result, written by the task and read by the loop after it ended.
    private final class ResultBox: @unchecked Sendable {
        // @unchecked: written once by the task before `finish()`, read after the loop saw it.
        var value: Int32 = 0
    }
}
