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

    /// Creates a mock with nothing set.
    public init() {}

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
}
