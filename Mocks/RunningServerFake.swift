import PrayCore
import Synchronization

/// A ``RunningServer`` that serves nothing: it reports a host and port and stops when
/// ``shutdown()`` is called — or at once, when created stopped, so that a command that waits for its
/// server returns.
///
/// ```swift
/// let server = RunningServerFake(port: 8080, isStopped: true)
/// await server.waitUntilStopped()          // returns at once
/// ```
public final class RunningServerFake: RunningServer {
    /// The host reported.
    public let host: String
    /// The port reported.
    public let port: Int
    private let state: Mutex<(stopped: Bool, waiters: [CheckedContinuation<Void, Never>])>

    /// Creates a server that reports `host` and `port`.
    /// - Parameters:
    ///   - host: The address reported.
    ///   - port: The port reported.
    ///   - isStopped: Whether it has stopped already (``waitUntilStopped()`` returns at once).
    public init(host: String = "127.0.0.1", port: Int, isStopped: Bool = false) {
        self.host = host
        self.port = port
        state = Mutex((isStopped, []))
    }

    /// Whether the server has stopped.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops, letting every wait return.
    public func shutdown() async {
        let waiters = state.withLock { state in
            state.stopped = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once stopped.
    public func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let stopped = state.withLock { state in
                if !state.stopped { state.waiters.append(continuation) }
                return state.stopped
            }
            if stopped { continuation.resume() }
        }
    }
}
