import PrayCore

/// A ``ServerService`` whose answer the test sets with ``onStart(_:)``, recording every start (the
/// configuration and the handler). A start without an answer records a test issue and throws
/// ``MockError``.
///
/// ```swift
/// let servers = ServerServiceMock()
/// servers.onStart { configuration, _ in RunningServerFake(port: 8080) }
/// … run `praykit serve` …
/// let handler = try #require(servers.startCalls.first?.handler)
/// #expect(handler(ServerAPI.Request(target: "/status")).status == 200)
/// ```
public final class ServerServiceMock: ServerService {
    /// The arguments of a call of ``start(_:handler:)``: the handler is the one the server would call.
    public typealias StartArguments = (configuration: ServerAPI.Configuration, handler: ServerAPI.Handler)

    private let startFunction = MockFunction<StartArguments, any RunningServer, any Error>(
        "ServerServiceMock.start(_:handler:)")

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``start(_:handler:)``: a running server (``RunningServerFake``), or an error
    /// to play a failure.
    public func onStart(
        _ answer: @escaping @Sendable (ServerAPI.Configuration, @escaping ServerAPI.Handler) throws -> any RunningServer
    ) {
        startFunction.on { try answer($0.configuration, $0.handler) }
    }

    /// The arguments of each call of ``start(_:handler:)``, oldest first.
    public var startCalls: [StartArguments] { startFunction.calls }

    /// Records the start and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func start(
        _ configuration: ServerAPI.Configuration, handler: @escaping ServerAPI.Handler
    ) throws -> any RunningServer {
        try startFunction((configuration, handler))
    }
}
