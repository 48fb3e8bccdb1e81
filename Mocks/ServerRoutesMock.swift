import PrayCore

/// A ``ServerRoutes`` whose answer the test sets with ``onRespond(_:)``, recording every request.
///
/// The requirement cannot throw, so a request without an answer records a test issue (failing the
/// test) and gets an empty 500 response.
///
/// ```swift
/// let routes = ServerRoutesMock()
/// routes.onRespond { _ in ServerAPI.Response(status: 204) }
/// ```
public final class ServerRoutesMock: ServerRoutes {
    private let respondFunction = MockFunction<ServerAPI.Request, ServerAPI.Response, Never>(
        "ServerRoutesMock.respond(to:)"
    ) { _ in ServerAPI.Response(status: 500) }

    private let storeChangedFunction = MockFunction<Void, Void, Never>("ServerRoutesMock.storeChanged()") { _ in }
    private let endStreamsFunction = MockFunction<Void, Void, Never>("ServerRoutesMock.endStreams()") { _ in }

    /// Creates a mock with no answer set; ``storeChanged()`` and ``endStreams()`` are only recorded.
    public init() {
        storeChangedFunction.on { _ in }
        endStreamsFunction.on { _ in }
    }

    /// Sets the answer of ``respond(to:)``.
    public func onRespond(_ answer: @escaping @Sendable (ServerAPI.Request) -> ServerAPI.Response) {
        respondFunction.on(answer)
    }

    /// The request of each call of ``respond(to:)``, oldest first.
    public var respondCalls: [ServerAPI.Request] { respondFunction.calls }

    /// Records the request and returns the answer; without one, a test issue and a 500.
    public func respond(to request: ServerAPI.Request) -> ServerAPI.Response {
        respondFunction(request)
    }

    /// How many times ``endStreams()`` was called.
    public var endStreamsCalls: Int { endStreamsFunction.calls.count }

    /// Records the call; nothing else happens.
    public func endStreams() {
        endStreamsFunction(())
    }

    /// How many times ``storeChanged()`` was called.
    public var storeChangedCalls: Int { storeChangedFunction.calls.count }

    /// Records the call; nothing else happens.
    public func storeChanged() {
        storeChangedFunction(())
    }
}
