import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback TCP relay for tests of responses that go on (server-sent events), which
/// ``FaultProxy`` (a request at a time) cannot carry: bytes pass both ways as they come, and when told
/// (``cutNextEvent()``) it cuts the connection that relays the next `event:` in the middle of that
/// event — at a place inside it chosen by a seeded generator — as a network that drops a connection
/// mid-stream does: the client has half an event, then the end. Nothing leaves the machine.
///
/// ```swift
/// let proxy = try StreamProxy(upstream: server.port, seed: 7)
/// defer { proxy.stop() }
/// // log the client in at proxy.url, open its stream … then:
/// proxy.cutNextEvent()
/// #expect(proxy.cuts == 1)      // once an event passed
/// ```
public final class StreamProxy: Sendable {
    private struct State {
        var armed = false
        var cuts = 0
        var sockets: Set<Int32> = []
        var stopped = false
        var generator: SeededGenerator
    }

    /// The port it listens on.
    public let port: Int
    private let upstream: Int
    private let listener: Int32
    private let state: Mutex<State>

    /// Starts a relay on a free loopback port in front of `127.0.0.1:upstream`.
    /// - Parameters:
    ///   - upstream: The server's port.
    ///   - seed: Where in an event a cut falls.
    /// - Throws: `POSIXError` when no socket can be opened.
    public init(upstream: Int, seed: UInt64) throws {
        self.upstream = upstream
        state = Mutex(State(generator: SeededGenerator(seed: seed)))
        guard let (descriptor, port) = Loopback.listener(backlog: 128) else { throw POSIXError(.EADDRINUSE) }
        listener = descriptor
        self.port = port
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "praykit-test-stream-proxy"
        thread.start()
    }

    /// `http://127.0.0.1:port`, the address to give the client.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Cuts the connection that relays the next event from the server in the middle of it.
    public func cutNextEvent() { state.withLock { $0.armed = true } }

    /// How many connections were cut in the middle of an event.
    public var cuts: Int { state.withLock { $0.cuts } }

    /// Stops accepting and closes every connection.
    public func stop() {
        // Under the lock: a socket still in the set is not closed yet (its thread removes it first).
        state.withLock { state in
            state.stopped = true
            for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit {
        stop()
        close(listener)
    }

    // MARK: - Relaying

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            guard let server = Loopback.connect(port: upstream) else {
                close(client)
                continue
            }
            let open = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.sockets.formUnion([client, server])
                return true
            }
            guard open else {
                close(client)
                close(server)
                return
            }
            let pair = Pair(client: client, server: server)
            let up = Thread { [self] in relay(from: client, to: server, cutting: false, pair: pair) }
            let down = Thread { [self] in relay(from: server, to: client, cutting: true, pair: pair) }
            up.start()
            down.start()
        }
    }

    /// The two sockets of one relayed connection, closed by the second of its two threads to end.
    private final class Pair: Sendable {
        let client: Int32
        let server: Int32
        private let running = Atomic<Int>(2)

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        /// Whether the calling thread is the last to end.
        func end() -> Bool { running.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 }
    }

    /// Copies `source` to `target` until either ends; then both are shut down, and the second thread
    /// of the pair to end closes them. `cutting`: the direction from the server, where a cut falls.
    private func relay(from source: Int32, to target: Int32, cutting: Bool, pair: Pair) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(source, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var bytes = Array(buffer[0..<count])
            var cut = false
            if cutting, let place = cutPlace(in: bytes) {
                bytes = Array(bytes[0..<place])
                cut = true
            }
            guard Self.sendAll(bytes, to: target), !cut else { break }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(target, Int32(SHUT_RDWR))
        guard pair.end() else { return }
        state.withLock { state in
            state.sockets.remove(pair.client)
            state.sockets.remove(pair.server)
        }
        close(pair.client)
        close(pair.server)
    }

    /// Where to cut `bytes` when a cut is armed and they hold an event: after its first byte and
    /// before its last, so that the client has a part of it only.
    private func cutPlace(in bytes: [UInt8]) -> Int? {
        let marker = Array("event:".utf8)
        guard bytes.count >= marker.count,
            let start = (0...(bytes.count - marker.count)).first(where: {
                Array(bytes[$0..<($0 + marker.count)]) == marker
            })
        else { return nil }
        let end =
            (start..<bytes.count).first { index in
                index + 1 < bytes.count && bytes[index] == 0x0A && bytes[index + 1] == 0x0A
            } ?? bytes.count - 1
        return state.withLock { state -> Int? in
            guard state.armed, end > start + 1 else { return nil }
            state.armed = false
            state.cuts += 1
            return Int.random(in: (start + 1)..<end, using: &state.generator)
        }
    }

    private static func sendAll(_ bytes: [UInt8], to socket: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}
