import PrayCore
import Synchronization

/// A ``ServerRoutes`` that records every request and answers with ``onRespond``; without one, a
/// request fails the test and gets a 500.
///
/// ```swift
/// let routes = ServerRoutesMock()
/// routes.onRespond = { _ in ServerAPI.Response(status: 204) }
/// ```
public final class ServerRoutesMock: ServerRoutes {
    private let state = Mutex<
        (calls: [ServerAPI.Request], onRespond: (@Sendable (ServerAPI.Request) -> ServerAPI.Response)?)
    >(([], nil))

    /// Creates a mock with nothing set.
    public init() {}

    /// What a request gets.
    public var onRespond: (@Sendable (ServerAPI.Request) -> ServerAPI.Response)? {
        get { state.withLock { $0.onRespond } }
        set { state.withLock { $0.onRespond = newValue } }
    }

    /// The requests answered, oldest first.
    public var calls: [ServerAPI.Request] { state.withLock { $0.calls } }

    /// Records the request and answers with ``onRespond``; a 500 and a test issue when it is unset.
    public func respond(to request: ServerAPI.Request) -> ServerAPI.Response {
        let respond = state.withLock { state in
            state.calls.append(request)
            return state.onRespond
        }
        guard let respond else {
            _ = MockError.unset("ServerRoutesMock.respond(to:)")
            return ServerAPI.Response(status: 500)
        }
        return respond(request)
    }
}
