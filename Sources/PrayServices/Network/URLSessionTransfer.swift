// Only where libcurl is not linked (Package.swift links it on Linux): on Linux, FoundationNetworking
// itself links libcurl and its ~30 libraries, which every `praykit` start would then load — the cost
// that loading libcurl with dlopen on first use avoids.
#if !canImport(CCurl)
    import Foundation
    import PrayCore
    import Synchronization

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// One HTTP exchange (no redirect followed) on Foundation's URLSession: an ephemeral session of its
    /// own — no cache, no cookies, no credentials stored — whose delegate collects the body up to the
    /// size limit, declines every redirect (``HTTPClient`` follows them, checking each hop first), and
    /// reports the end once. Cancelling the Swift task cancels the URLSession task.
    ///
    /// The delegate's callbacks run on the session's serial delegate queue; the state is behind a
    /// `Mutex` because the continuation is stored from the calling task — and a task cancelled before
    /// it started may end before that, so whichever comes second (the end or the continuation) resumes.
    final class URLSessionTransfer: NSObject, URLSessionDataDelegate, Sendable {
        typealias Ending = Result<HTTPClient.Outcome, HTTPClient.Failure>

        private struct State {
            var continuation: CheckedContinuation<Ending, Never>?
            var finished: Ending?
            var body = Data()
            var tooLarge = false
        }

        private let state = Mutex(State())
        private let limit: Int
        private let started = DispatchTime.now().uptimeNanoseconds

        private init(limit: Int) {
            self.limit = limit
        }

        /// Performs the exchange; a cancelled task cancels it.
        static func perform(
            _ request: HTTPRequest, url: URL, limits: HTTPClient.Limits
        ) async -> Ending {
            let transfer = URLSessionTransfer(limit: limits.maxResponseBytes)
            let session = URLSession(configuration: configuration(limits), delegate: transfer, delegateQueue: nil)
            // The session holds its delegate until it is invalidated.
            defer { session.finishTasksAndInvalidate() }
            let task = session.dataTask(with: urlRequest(request, url: url, limits: limits))
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let finished = transfer.state.withLock { state in
                        if state.finished == nil { state.continuation = continuation }
                        return state.finished
                    }
                    if let finished { continuation.resume(returning: finished) } else { task.resume() }
                }
            } onCancel: {
                task.cancel()
            }
        }

        // MARK: - URLSessionDataDelegate

        /// Keeps the body, or cancels the task when it outgrows the limit.
        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let tooLarge = state.withLock { state in
                guard !state.tooLarge else { return true }
                guard state.body.count + data.count <= limit else {
                    state.tooLarge = true
                    state.body = Data()
                    return true
                }
                state.body.append(data)
                return false
            }
            if tooLarge { dataTask.cancel() }
        }

        /// Declines the redirect: the 3xx response is the outcome, and ``HTTPClient`` decides.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        /// Reports the outcome, once.
        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let duration = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let (body, tooLarge) = state.withLock { ($0.body, $0.tooLarge) }
            let result: Ending
            if tooLarge {
                result = .failure(
                    HTTPClient.Failure(
                        kind: .tooLarge, message: "the response is larger than the limit of \(limit) bytes"))
            } else if let error {
                result = .failure(Self.failure(error, responseStarted: task.response != nil))
            } else if let response = task.response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for case (let name as String, let value as String) in response.allHeaderFields {
                    headers[name.lowercased()] = headers[name.lowercased()].map { "\($0), \(value)" } ?? value
                }
                result = .success(
                    HTTPClient.Outcome(status: response.statusCode, headers: headers, body: body, duration: duration))
            } else {
                result = .failure(HTTPClient.Failure(kind: .other, message: "the answer is not an HTTP response"))
            }
            let continuation = state.withLock { state in
                defer { state.continuation = nil }
                if state.continuation == nil { state.finished = result }
                return state.continuation
            }
            continuation?.resume(returning: result)
        }
    }

    // MARK: - Helpers

    extension URLSessionTransfer {
        private static func configuration(_ limits: HTTPClient.Limits) -> URLSessionConfiguration {
            let configuration = URLSessionConfiguration.ephemeral
            // URLSession has no connect timeout of its own: connecting counts against the total, and the
            // total bounds both the wait for each packet and the whole exchange.
            configuration.timeoutIntervalForRequest = limits.totalTimeout
            configuration.timeoutIntervalForResource = limits.totalTimeout
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.urlCredentialStorage = nil
            return configuration
        }

        private static func urlRequest(_ request: HTTPRequest, url: URL, limits: HTTPClient.Limits) -> URLRequest {
            var urlRequest = URLRequest(url: url, timeoutInterval: limits.totalTimeout)
            urlRequest.httpMethod = request.method.rawValue
            urlRequest.httpBody = request.body
            urlRequest.setValue(limits.userAgent, forHTTPHeaderField: "User-Agent")
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            return urlRequest
        }

        /// The kind of failure a URLSession error is, as libcurl's codes are read by `CurlTransfer`.
        /// FoundationNetworking reports a body cut short (libcurl's "transfer closed with n bytes
        /// remaining") as an unknown error, hence `responseStarted`.
        private static func failure(_ error: any Error, responseStarted: Bool) -> HTTPClient.Failure {
            guard let code = (error as? URLError)?.code else {
                return HTTPClient.Failure(kind: .other, message: "\(error)")
            }
            let kind: NetworkError.Kind
            let message: String
            switch code {
            case .cannotFindHost, .dnsLookupFailed:
                (kind, message) = (.connection, "the host could not be found")
            case .cannotConnectToHost:
                (kind, message) = (.connection, "could not connect to the server")
            case .networkConnectionLost, .badServerResponse, .zeroByteResource, .notConnectedToInternet:
                (kind, message) = (.connection, "the connection failed or broke before the response was complete")
            case .unknown where responseStarted:
                (kind, message) = (
                    .connection, "the connection broke before the response was complete: \(error.localizedDescription)"
                )
            case .timedOut: (kind, message) = (.timeout, "the server did not answer in time")
            case .dataLengthExceedsMaximum: (kind, message) = (.tooLarge, "the response is larger than the limit")
            case .cancelled: (kind, message) = (.cancelled, "cancelled")
            case .badURL, .unsupportedURL: (kind, message) = (.invalidURL, "the URL cannot be fetched")
            default: (kind, message) = (.other, error.localizedDescription)
            }
            return HTTPClient.Failure(kind: kind, message: "\(message) (URLError \(code.rawValue))")
        }
    }
#endif
