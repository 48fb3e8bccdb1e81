#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread of its own for work that blocks (a libcurl transfer, a child process, a server's event
/// loop), started with POSIX threads: Foundation's `Thread` lives in full Foundation, which the
/// start-up path and the server do without (docs/performance.md, "Zones, Foundation and ICU").
package enum DetachedThread {
    /// Starts `body` on a new detached thread named `name` (at most 15 bytes are kept on Linux).
    /// - Parameter stackSize: The thread's stack in bytes, or `nil` for the system's default.
    package static func start(name: String? = nil, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Work(name: name, body: body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, max(stackSize, Int(PTHREAD_STACK_MIN))) }
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let started = pthread_create(
            &thread, &attributes,
            // The start routine's argument is optional on Linux and not on Darwin: `run` takes either.
            { context in DetachedThread.run(context) }, box.toOpaque())
        // Without a thread there is no way to do the work: the process is out of resources.
        guard started == 0 else {
            box.release()
            fatalError("DetachedThread: pthread_create failed (\(started))")
        }
    }

    /// Runs the work a new thread was started with (`context`: its retained ``Work``).
    private static func run(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let context else { return nil }
        let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
        if let name = work.name { DetachedThread.name(name) }
        work.body()
        return nil
    }

    /// Names the calling thread (its first 15 bytes on Linux) for `top`, `gdb` and crash reports.
    private static func name(_ name: String) {
        #if canImport(Glibc)
            // glibc declares pthread_setname_np only with _GNU_SOURCE, which the Glibc module is not built
            // with: the function is looked up instead.
            typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
            guard let symbol = dlsym(nil, "pthread_setname_np") else { return }
            var bytes = Array(name.utf8.prefix(15)).map { CChar(bitPattern: $0) }
            bytes.append(0)
            _ = unsafeBitCast(symbol, to: SetName.self)(pthread_self(), bytes)
        #else
            _ = pthread_setname_np(name)
        #endif
    }

    /// Blocks the calling thread for `seconds` (nothing for zero or less).
    package static func sleep(seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        var wanted = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&wanted, &left) == -1 && errno == EINTR { wanted = left }
    }

    /// What a new thread runs, and its name.
    private final class Work: Sendable {
        let name: String?
        let body: @Sendable () -> Void

        init(name: String?, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
