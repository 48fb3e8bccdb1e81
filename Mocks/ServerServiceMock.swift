import PrayCore
import Synchronization

/// A ``ServerService`` that records every start (configuration and handler) and runs ``onStart``;
/// without one, a start fails the test and throws ``MockError``.
///
/// ```swift
/// let servers = ServerServiceMock()
/// servers.onStart = { configuration, _ in RunningServerMock(port: 8080) }
/// … run `praykit serve` …
/// let handler = try #require(servers.calls.first?.handler)
/// #expect(handler(ServerAPI.Request(target: "/status")).status == 200)
/// ```
public final class ServerServiceMock: ServerService {
    /// One start.
    public struct Call: Sendable {
        /// The configuration asked for.
        public let configuration: ServerAPI.Configuration
        /// The handler given, to be called by the test as the server would.
        public let handler: ServerAPI.Handler
    }

    private typealias Start =
        @Sendable (ServerAPI.Configuration, @escaping ServerAPI.Handler) throws -> any RunningServer
    private let state = Mutex<(calls: [Call], onStart: Start?)>(([], nil))

    /// Creates a mock with nothing set.
    public init() {}

    /// What a start does: return a running server (``RunningServerMock``), or throw to play a failure.
    public var onStart: (@Sendable (ServerAPI.Configuration, @escaping ServerAPI.Handler) throws -> any RunningServer)?
    {
        get { state.withLock { $0.onStart } }
        set { state.withLock { $0.onStart = newValue } }
    }

    /// The starts, oldest first.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// Records the start and runs ``onStart``.
    /// - Throws: What ``onStart`` throws; ``MockError`` when it is unset.
    public func start(
        _ configuration: ServerAPI.Configuration, handler: @escaping ServerAPI.Handler
    ) throws -> any RunningServer {
        let start = state.withLock { state in
            state.calls.append(Call(configuration: configuration, handler: handler))
            return state.onStart
        }
        guard let start else { throw MockError.unset("ServerServiceMock.start(_:handler:)") }
        return try start(configuration, handler)
    }
}
