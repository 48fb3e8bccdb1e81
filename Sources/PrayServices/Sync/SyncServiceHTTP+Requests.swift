import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Requests

extension SyncServiceHTTP {
    /// Every key of `sync_state`.
    static func state(_ connection: SQLiteConnection) throws -> [SyncJournal.Key: String] {
        let statement = try connection.prepare("SELECT key, value FROM sync_state")
        var state: [SyncJournal.Key: String] = [:]
        while try statement.step() {
            if let key = statement.text(0).flatMap(SyncJournal.Key.init(rawValue:)) { state[key] = statement.text(1) }
        }
        return state
    }

    /// Sends one request under `/sync/v1/`, never following a redirect, the token in its header only.
    func send(_ server: URL, path: String, body: Data, token: String?, quick: Bool) async throws
        -> HTTPResponse
    {
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        if let token { headers["Authorization"] = "Bearer " + token }
        let url = server.appendingPathComponent("sync/v1").appendingPathComponent(path)
        // 429 and 5xx are failures, retried with backoff and Retry-After; the other answers are read here.
        let request = HTTPRequest(
            method: .post, url: url, headers: headers, body: body, acceptedStatuses: 200..<429,
            isRetryable: path != "devices", followsRedirects: false, timeout: quick ? Self.quickTimeout : nil,
            maxAttempts: quick ? 1 : nil)
        do {
            let response = try await network.send(request)
            local.withLock { $0.retryAfter = nil }
            return response
        } catch let error as NetworkError where error.kind == .status {
            if let status = error.status, (300..<400).contains(status) {
                throw SyncError(
                    .invalidServer,
                    message: "the server answered \(status) (a redirect), which sync never follows: "
                        + "use the server's final URL")
            }
            local.withLock { $0.retryAfter = error.retryAfter }
            let wait = error.retryAfter.map { " (try again in \(Int($0.rounded(.up))) s)" } ?? ""
            if error.status == 429 {
                throw SyncError(.rateLimited, message: "the server asked to wait\(wait)")
            }
            if let status = error.status, (500..<600).contains(status) {
                throw SyncError(
                    .serverUnavailable,
                    message: "the server is up but cannot sync now (it answered \(status)"
                        + (status == 503 ? ": its store is unavailable" : "")
                        + ")\(wait); changes are kept and sent when it can")
            }
            throw error
        }
    }

    /// The status a cycle stops at: 401 logs out (changes kept), 403 and 426 say what to do.
    func handleRefusal(_ response: HTTPResponse) throws {
        let error = Self.errorBody(response)
        switch response.status {
        case 401:
            try database.write { connection in
                try SyncJournal.set(.loggedOut, SyncJournal.LoggedOut.unauthorized.rawValue, connection)
            }
            throw SyncError(
                .unauthorized,
                message: "the server no longer accepts this device (revoked or unknown); changes are kept: log in again"
            )
        case 403:
            throw SyncError(.forbidden, message: error?.message ?? "the server refused this client")
        case 426:
            throw SyncError(
                .upgradeRequired,
                message: "the server is older than this PrayKit and cannot take its changes; they are kept: "
                    + "update the server")
        default:
            throw Self.unexpected(response, error)
        }
    }

    static func errorBody(_ response: HTTPResponse) -> SyncAPI.ErrorBody? {
        try? JSONDecoder().decode(SyncAPI.ErrorBody.self, from: response.body)
    }

    static func unexpected(_ response: HTTPResponse, _ error: SyncAPI.ErrorBody?) -> SyncError {
        let detail = error.map { "\($0.error): \($0.message)" } ?? "status \(response.status)"
        return SyncError(.protocolViolation, message: "the server refused the request (\(detail))")
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? LocalizedError, let text = error.errorDescription { return text }
        return "\(error)"
    }

    /// `https://…`, or plain `http://` to a literal loopback address only (decided on the address, not
    /// on a name or a `127.` prefix of a name).
    static func checkServer(_ url: URL) throws -> URL {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            scheme == "https" || scheme == "http", url.query == nil, url.user == nil
        else {
            throw SyncError(
                .invalidServer,
                message: "the server must be an https:// URL without a query, such as https://pray.example.org")
        }
        if scheme == "http", !Self.isLoopbackAddress(host) {
            throw SyncError(
                .invalidServer,
                message: "plain http is used only with a loopback address (127.0.0.1, ::1); use https for \(host)")
        }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text) ?? url
    }

    /// Whether `host` is a literal IPv4 loopback address (127.0.0.0/8) or `::1`.
    static func isLoopbackAddress(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }
}
