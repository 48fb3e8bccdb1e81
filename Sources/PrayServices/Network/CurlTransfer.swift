// libcurl is a Linux dependency of PrayServices (Package.swift).
#if canImport(CCurl)
    internal import CCurl
    import Foundation
    import PrayCore
    import Synchronization

    /// One HTTP exchange (no redirects followed) on a libcurl easy handle, run on its own thread so that
    /// the blocking `curl_easy_perform` never occupies Swift's cooperative thread pool.
    enum CurlTransfer {
        /// libcurl loaded (dlopen, on first use) and `curl_global_init` run, exactly once per process
        /// before the first handle (a lazy static is initialised once, thread-safely); or why not.
        private static let globalInit: Result<Void, HTTPClient.Failure> = {
            var error = [CChar](repeating: 0, count: 512)
            guard praykit_curl_load(&error, error.count) == 0 else {
                let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return .failure(
                    HTTPClient.Failure(kind: .other, curlCode: Int(CURLE_FAILED_INIT.rawValue), message: message))
            }
            guard praykit_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
                return .failure(
                    HTTPClient.Failure(
                        kind: .other, curlCode: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl did not start"))
            }
            return .success(())
        }()

        /// Performs the exchange; a cancelled task stops it within a progress tick.
        static func perform(_ request: HTTPRequest, url: URL, limits: HTTPClient.Limits) async -> Result<
            HTTPClient.Outcome, HTTPClient.Failure
        > {
            let cancelled = Cancellation()
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let thread = Thread {
                        continuation.resume(returning: run(request, url: url, limits: limits, cancelled: cancelled))
                    }
                    thread.name = "PrayKit curl"
                    thread.start()
                }
            } onCancel: {
                cancelled.flag.store(true, ordering: .relaxed)
            }
        }

        /// A flag the progress callback reads.
        final class Cancellation: Sendable {
            let flag = Atomic<Bool>(false)
        }

        /// The buffers the callbacks fill; used by one thread only.
        private final class Buffers {
            var body = Data()
            var headers: [String: String] = [:]
            var tooLarge = false
            let limit: Int
            let cancelled: Cancellation

            init(limit: Int, cancelled: Cancellation) {
                self.limit = limit
                self.cancelled = cancelled
            }
        }

        private static func run(
            _ request: HTTPRequest, url: URL, limits: HTTPClient.Limits, cancelled: Cancellation
        ) -> Result<HTTPClient.Outcome, HTTPClient.Failure> {
            if case .failure(let failure) = globalInit { return .failure(failure) }
            guard let handle = praykit_easy_init() else {
                return .failure(
                    HTTPClient.Failure(
                        kind: .other, curlCode: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl did not start"))
            }
            defer { praykit_easy_cleanup(handle) }
            let buffers = Buffers(limit: limits.maxResponseBytes, cancelled: cancelled)
            let context = Unmanaged.passRetained(buffers)
            defer { context.release() }
            var headerList: UnsafeMutablePointer<curl_slist>?
            defer { praykit_slist_free_all(headerList) }
            for (name, value) in request.headers { headerList = praykit_slist_append(headerList, "\(name): \(value)") }
            var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
            let body = request.body ?? Data()
            let started = DispatchTime.now().uptimeNanoseconds
            let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
                body.withUnsafeBytes { bodyBytes in
                    configure(
                        handle, request, url: url, limits: limits, headers: headerList, context: context.toOpaque())
                    praykit_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                    if request.body != nil {
                        praykit_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                        praykit_setopt_pointer(
                            handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress))
                    }
                    return praykit_easy_perform(handle)
                }
            }
            let duration = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            guard code == CURLE_OK else {
                let detail = String(
                    decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return .failure(failure(code, detail: detail, tooLarge: buffers.tooLarge))
            }
            var status = 0
            praykit_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            return .success(
                HTTPClient.Outcome(status: status, headers: buffers.headers, body: buffers.body, duration: duration))
        }

        private static func configure(
            _ handle: UnsafeMutableRawPointer, _ request: HTTPRequest, url: URL, limits: HTTPClient.Limits,
            headers: UnsafeMutablePointer<curl_slist>?, context: UnsafeMutableRawPointer
        ) {
            praykit_setopt_string(handle, CURLOPT_URL, url.absoluteString)
            // No signals: libcurl's timeouts would otherwise use SIGALRM, unsafe in a threaded process.
            praykit_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            praykit_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            // Redirects are followed by HTTPClient, which checks every hop first.
            praykit_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            praykit_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
            praykit_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
            praykit_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(limits.connectTimeout * 1000))
            praykit_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(limits.totalTimeout * 1000))
            praykit_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxResponseBytes))
            praykit_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes
            praykit_setopt_string(handle, CURLOPT_USERAGENT, limits.userAgent)
            praykit_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
            if request.method == .head { praykit_setopt_long(handle, CURLOPT_NOBODY, 1) }
            praykit_setopt_list(handle, CURLOPT_HTTPHEADER, headers)
            praykit_setopt_write_function(handle, CURLOPT_WRITEFUNCTION) { pointer, size, count, context in
                guard let pointer, let context else { return 0 }
                let buffers = Unmanaged<Buffers>.fromUnmanagedContext(context)
                let length = size * count
                guard buffers.body.count + length <= buffers.limit else {
                    buffers.tooLarge = true
                    return 0  // anything but `length` stops the transfer
                }
                buffers.body.append(UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
                return length
            }
            praykit_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
            praykit_setopt_write_function(handle, CURLOPT_HEADERFUNCTION) { pointer, size, count, context in
                guard let pointer, let context else { return 0 }
                let buffers = Unmanaged<Buffers>.fromUnmanagedContext(context)
                let length = size * count
                let line = String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
                if line.hasPrefix("HTTP/") {
                    buffers.headers = [:]  // a new response (after 100 Continue)
                } else if let colon = line.firstIndex(of: ":") {
                    let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                    buffers.headers[name] = buffers.headers[name].map { "\($0), \(value)" } ?? value
                }
                return length
            }
            praykit_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
            praykit_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
            praykit_setopt_progress_function(handle) { context, _, _, _, _ in
                guard let context else { return 0 }
                // A non-zero return aborts the transfer with CURLE_ABORTED_BY_CALLBACK.
                return Unmanaged<Buffers>.fromUnmanagedContext(context).cancelled.flag.load(ordering: .relaxed) ? 1 : 0
            }
            praykit_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)
        }

        private static func failure(_ code: CURLcode, detail: String, tooLarge: Bool) -> HTTPClient.Failure {
            let message = detail.isEmpty ? String(cString: praykit_easy_strerror(code)) : detail
            let kind: NetworkError.Kind
            switch code {
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_RECV_ERROR,
                CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
                kind = .connection
            case CURLE_OPERATION_TIMEDOUT: kind = .timeout
            case CURLE_FILESIZE_EXCEEDED: kind = .tooLarge
            case CURLE_WRITE_ERROR where tooLarge: kind = .tooLarge
            case CURLE_ABORTED_BY_CALLBACK: kind = .cancelled
            case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: kind = .invalidURL
            default: kind = .other
            }
            return HTTPClient.Failure(kind: kind, curlCode: Int(code.rawValue), message: message)
        }
    }

    extension Unmanaged {
        /// The object behind a context pointer libcurl hands back.
        fileprivate static func fromUnmanagedContext(_ pointer: UnsafeMutableRawPointer) -> Instance {
            fromOpaque(pointer).takeUnretainedValue()
        }
    }
#endif
