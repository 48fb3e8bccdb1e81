#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value read by many threads at once and changed rarely: the process-wide caches a server reads on
/// every request (zone periods, the sun's positions, zone names).
///
/// Readers share a reader–writer lock and never wait for each other; a writer waits for the readers
/// and readers wait for it. A `Mutex` makes every reader wait for every other: under load, with as
/// many threads as cores, that was a tenth of `praykit serve`'s time in the kernel (its futexes are
/// priority-inheriting, so a contended lock always sleeps). Writers are preferred on glibc, so a steady
/// stream of readers cannot keep one out.
///
/// A non-copyable struct rather than a generic class: a generic class's metadata is built at run time
/// the first time, tens of microseconds of a process's first prayer day.
package struct ReadMostly<State: Sendable>: ~Copyable, @unchecked Sendable {
    // @unchecked: `state` is read only under the lock held for reading and written only under the
    // lock held for writing.
    private let state: UnsafeMutablePointer<State>
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    /// A value shared from now on.
    package init(_ initial: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initial)
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        #if canImport(Glibc)
            var attributes = pthread_rwlockattr_t()
            pthread_rwlockattr_init(&attributes)
            pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
            pthread_rwlock_init(lock, &attributes)
            pthread_rwlockattr_destroy(&attributes)
        #else
            pthread_rwlock_init(lock, nil)
        #endif
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// What `body` reads of the value, with other readers alongside.
    package func read<Result>(_ body: (borrowing State) throws -> Result) rethrows -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(state.pointee)
    }

    /// Changes the value, alone.
    package func write<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&state.pointee)
    }
}
