import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The container's server where PrayServer is not linked (every platform but Linux): starting one
/// throws ``ServerError`` saying so, and its routes answer 501. Compiled everywhere, so that the
/// Linux build checks it too.
struct ServerServiceUnavailable: ServerService {
    /// Why there is no server.
    static let reason =
        "the HTTP server (PrayServer, on libmicrohttpd) is not available on this platform: PrayKit links it on Linux only"

    /// Throws ``ServerError`` (`startFailed`).
    func start(_ configuration: ServerAPI.Configuration, handler: @escaping ServerAPI.Handler) throws
        -> any RunningServer
    {
        throw ServerError(.startFailed, message: Self.reason)
    }

    /// Routes that answer every request with 501 Not Implemented and the reason.
    struct Routes: ServerRoutes {
        /// Answers 501 with the reason as plain text.
        func respond(to request: ServerAPI.Request) -> ServerAPI.Response {
            ServerAPI.Response(
                status: 501, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Data((ServerServiceUnavailable.reason + "\n").utf8))
        }
    }
}
