import Synchronization
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The bytes of a response that goes on after it is queued — server-sent events — written by whoever
/// holds the stream, from any thread, and sent by the server as they come (``ServerAPI/Response/stream``).
///
/// Until the server takes the stream (``attach(_:)``) what is written waits here, up to
/// ``capacity`` bytes; then it goes to the server's writer, which keeps a bounded amount too. A write
/// to a stream that has ended, whose client is gone or whose reader does not keep up returns `false`
/// and the stream is over: its holder drops it.
///
/// ```swift
/// let stream = ServerStream()
/// _ = stream.write(Data("event: space\ndata: {}\n\n".utf8))
/// return ServerAPI.Response(status: 200, headers: ["Content-Type": "text/event-stream"], stream: stream)
/// ```
public final class ServerStream: Hashable, Sendable {
    /// What a server hands the stream to send its bytes.
    public protocol Writer: Sendable {
        /// Sends `bytes`; `false` when the stream is over (ended, its client gone, or too far behind).
        func write(_ bytes: Data) -> Bool
        /// Ends the response once what was written has been sent.
        func end()
        /// Whether the stream is over.
        var isClosed: Bool { get }
    }

    private struct State {
        var waiting = Data()
        var writer: (any Writer)?
        var ended = false
        var over = false
    }

    /// The most bytes kept before the server takes the stream.
    public let capacity: Int
    private let state = Mutex(State())

    /// Creates a stream that keeps at most `capacity` bytes before the server takes it.
    public init(capacity: Int = 64 * 1024) {
        self.capacity = capacity
    }

    /// Writes `bytes`. Returns `false` when the stream is over; nothing is then sent.
    @discardableResult
    public func write(_ bytes: Data) -> Bool {
        // Under the lock, so that bytes keep their order across threads (the writer's own lock is a
        // C mutex that calls nothing back).
        state.withLock { state in
            guard !state.ended, !state.over else { return false }
            guard let writer = state.writer else {
                guard state.waiting.count + bytes.count <= capacity else {
                    state.over = true
                    return false
                }
                state.waiting.append(bytes)
                return true
            }
            if !writer.write(bytes) { state.over = true }
            return !state.over
        }
    }

    /// Ends the stream once what was written has been sent.
    public func end() {
        state.withLock { state in
            state.ended = true
            state.writer?.end()
        }
    }

    /// Whether the stream is over: ended, or its client gone.
    public var isClosed: Bool {
        state.withLock { $0.over || $0.ended || $0.writer?.isClosed == true }
    }

    /// For servers: takes the stream, sending what was written before, and ending it at once when it
    /// has ended.
    public func attach(_ writer: any Writer) {
        state.withLock { state in
            state.writer = writer
            if !state.waiting.isEmpty, !writer.write(state.waiting) { state.over = true }
            state.waiting = Data()
            if state.ended || state.over { writer.end() }
        }
    }

    /// Streams are equal when they are the same stream.
    public static func == (lhs: ServerStream, rhs: ServerStream) -> Bool { lhs === rhs }

    /// Hashes the stream's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
