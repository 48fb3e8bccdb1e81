#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The answers of `praykit serve` as one ``ServerRoutes``: a request whose path is under `/sync/`
/// goes to the sync endpoints (SYNC.md §3), one of the screen's (``DisplayAPI/isDisplayPath(_:)``) to
/// the screen when the server shows one (`--display`), every other one to the API routes (AlAdhan). A server
/// started without a sync store answers `/sync/…` with 404 and a JSON body that says so, in the
/// sync protocol's error shape, so that a client learns it is talking to the wrong server. When a push
/// or a change of a space succeeds, the pages hear of it (``ServerRoutes/storeChanged()``): the open
/// streams of published mosques say so at once instead of at their next look at the store.
///
/// The container builds it: ``PrayKitDependency/serverRoutes(syncStore:)``.
///
/// ```swift
/// let routes = dependency.serverRoutes(syncStore: try dependency.syncStore(at: location))
/// let server = try dependency.serverService().start(configuration, handler: routes.handler)
/// ```
public struct ServerRoutesCombined: ServerRoutes {
    private let api: any ServerRoutes
    private let sync: (any ServerRoutes)?
    private let display: (any ServerRoutes)?
    private let pages: (any ServerRoutes)?

    /// The paths that go to the sync endpoints start with this.
    public static let syncPrefix = "/sync/"

    /// Creates the routes.
    /// - Parameters:
    ///   - api: The answers of every path outside `/sync/`.
    ///   - sync: The sync endpoints, or `nil` for a server that does not sync.
    ///   - display: The screen's page and model, or `nil` for a server that shows none.
    ///   - pages: The month and the published mosques' pages (``PagesAPI``), or `nil` for a server
    ///     that serves neither.
    public init(
        api: any ServerRoutes, sync: (any ServerRoutes)?, display: (any ServerRoutes)? = nil,
        pages: (any ServerRoutes)? = nil
    ) {
        self.api = api
        self.sync = sync
        self.display = display
        self.pages = pages
    }

    /// Hands the request to the sync endpoints or to the API by its path. A refused request (see
    /// ``ServerAPI/Request/refusal``) goes by its path too, so that each side words its own refusals.
    public func respond(to request: ServerAPI.Request) -> ServerAPI.Response {
        // A browser asks every page's server for its icon: none, said without an error in its console.
        if request.path == "/favicon.ico", request.refusal == nil {
            return ServerAPI.Response(status: 204, headers: ["Cache-Control": "public, max-age=604800"])
        }
        if let display, DisplayAPI.isDisplayPath(request.path) { return display.respond(to: request) }
        if let pages, PagesAPI.isPagePath(request.path) { return pages.respond(to: request) }
        guard Self.isSyncPath(request.path) else { return api.respond(to: request) }
        guard let sync else { return Self.notSyncing(request) }
        let response = sync.respond(to: request)
        // A push or a change of a space went into the store the pages read: their streams look now.
        if let pages, request.method == "POST", (200..<300).contains(response.status),
            Self.changesSpaces(request.path)
        {
            pages.storeChanged()
        }
        return response
    }

    /// Ends the streams of every part (the screen's, the pages', the sync endpoints').
    public func endStreams() {
        for routes in [display, pages, sync, api] { routes?.endStreams() }
    }

    /// Whether a sync request at `path` that succeeded may have changed a space's rows, members or
    /// publication (`/sync/v1/push` and `/sync/v1/spaces…`), rather than only read them.
    public static func changesSpaces(_ path: String) -> Bool {
        path == "/sync/v1/push" || path.hasPrefix("/sync/v1/spaces")
    }

    /// Whether `path` belongs to the sync endpoints: `/sync` itself or anything under `/sync/`.
    public static func isSyncPath(_ path: String) -> Bool {
        path == "/sync" || path.hasPrefix(syncPrefix)
    }

    /// 404 `{"error": "not_found", "message": …}`, or the refusal's status with the same shape.
    private static func notSyncing(_ request: ServerAPI.Request) -> ServerAPI.Response {
        let status = request.refusal?.status ?? 404
        let code = request.refusal == nil ? "not_found" : "refused"
        let message =
            request.refusal?.message
            ?? "This server does not sync; its administrator can start it with --sync-store sqlite:PATH"
        let body: [String: String] = ["error": code, "message": message]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ServerAPI.Response(
            status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: (try? encoder.encode(body)) ?? Data())
    }
}
