// libcurl is a Linux dependency of PrayServices (Package.swift).
#if canImport(CCurl)
    internal import CCurl
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import Dispatch
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

        /// Performs the exchange; a cancelled task stops it within a progress tick. With `receive`, the
        /// body goes to it piece by piece as it arrives (a stream: `false` stops the exchange), and the
        /// outcome's body holds only its first 16 KB.
        static func perform(
            _ request: HTTPRequest, url: URL, limits: HTTPClient.Limits,
            receive: (@Sendable (Data) -> Bool)? = nil
        ) async -> Result<HTTPClient.Outcome, HTTPClient.Failure> {
            let cancelled = Cancellation()
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    DetachedThread.start(name: "PrayKit curl") {
                        continuation.resume(
                            returning: run(request, url: url, limits: limits, cancelled: cancelled, receive: receive))
                    }
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
            var stopped = false
            let limit: Int
            let cancelled: Cancellation
            let receive: (@Sendable (Data) -> Bool)?

            init(limit: Int, cancelled: Cancellation, receive: (@Sendable (Data) -> Bool)?) {
                self.limit = limit
                self.cancelled = cancelled
                self.receive = receive
            }
        }

        private static func run(
            _ request: HTTPRequest, url: URL, limits: HTTPClient.Limits, cancelled: Cancellation,
            receive: (@Sendable (Data) -> Bool)?
        ) -> Result<HTTPClient.Outcome, HTTPClient.Failure> {
            if case .failure(let failure) = globalInit { return .failure(failure) }
            guard let handle = praykit_easy_init() else {
                return .failure(
                    HTTPClient.Failure(
                        kind: .other, curlCode: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl did not start"))
            }
            defer { praykit_easy_cleanup(handle) }
            let buffers = Buffers(
                limit: receive == nil ? limits.maxResponseBytes : 16 * 1024, cancelled: cancelled, receive: receive)
            let context = Unmanaged.passRetained(buffers)
            defer { context.release() }
            var headerList: UnsafeMutablePointer<curl_slist>?
            defer { praykit_slist_free_all(headerList) }
            for (name, value) in request.headers { headerList = praykit_slist_append(headerList, "\(name): \(value)") }
            var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
            let body = request.body ?? Data()
            let started = DispatchTime.now().uptimeNanoseconds
            let outcome: Result<CURLcode, HTTPClient.Failure> = errorBuffer.withUnsafeMutableBufferPointer { errors in
                body.withUnsafeBytes { bodyBytes in
                    do throws(HTTPClient.Failure) {
                        try configure(
                            handle, request, url: url, limits: limits, headers: headerList, context: context.toOpaque())
                        try set(praykit_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress), "ERRORBUFFER")
                        if request.body != nil {
                            try set(
                                praykit_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
                                "POSTFIELDSIZE_LARGE")
                            try set(
                                praykit_setopt_pointer(
                                    handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress)
                                ),
                                "POSTFIELDS")
                        }
                    } catch { return .failure(error) }
                    return .success(praykit_easy_perform(handle))
                }
            }
            let code: CURLcode
            switch outcome {
            case .failure(let failure): return .failure(failure)
            case .success(let result): code = result
            }
            let duration = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            // A stream its reader stopped ended as it should.
            guard code == CURLE_OK || (code == CURLE_WRITE_ERROR && buffers.stopped) else {
                let detail = String(
                    decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return .failure(failure(code, detail: detail, tooLarge: buffers.tooLarge))
            }
            var status = 0
            let info = praykit_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            guard info == CURLE_OK, status > 0 else {
                return .failure(
                    HTTPClient.Failure(
                        kind: .other, curlCode: Int(info.rawValue), message: "libcurl gave no response status"))
            }
            return .success(
                HTTPClient.Outcome(status: status, headers: buffers.headers, body: buffers.body, duration: duration))
        }

        private static func configure(
            _ handle: UnsafeMutableRawPointer, _ request: HTTPRequest, url: URL, limits: HTTPClient.Limits,
            headers: UnsafeMutablePointer<curl_slist>?, context: UnsafeMutableRawPointer
        ) throws(HTTPClient.Failure) {
            try set(praykit_setopt_string(handle, CURLOPT_URL, url.absoluteString), "URL")
            // No signals: libcurl's timeouts would otherwise use SIGALRM, unsafe in a threaded process.
            try set(praykit_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "NOSIGNAL")
            // An older libcurl (before 7.85) lacks PROTOCOLS_STR: refused here, never a transfer that
            // would follow any protocol.
            try set(praykit_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"), "PROTOCOLS_STR")
            // Redirects are followed by HTTPClient, which checks every hop first.
            try set(praykit_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0), "FOLLOWLOCATION")
            try set(praykit_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1), "SSL_VERIFYPEER")
            try set(praykit_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2), "SSL_VERIFYHOST")
            let connectMilliseconds = Int(limits.connectTimeout * 1000)
            try set(praykit_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, connectMilliseconds), "CONNECTTIMEOUT_MS")
            if let idle = limits.idleTimeout {
                // A stream: no end in time; less than a byte a second for `idle` seconds ends it.
                try set(praykit_setopt_long(handle, CURLOPT_TIMEOUT_MS, 0), "TIMEOUT_MS")
                try set(praykit_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1), "LOW_SPEED_LIMIT")
                try set(praykit_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(idle))), "LOW_SPEED_TIME")
            } else {
                try set(
                    praykit_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(limits.totalTimeout * 1000)), "TIMEOUT_MS")
                let maxBytes = curl_off_t(limits.maxResponseBytes)
                try set(praykit_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, maxBytes), "MAXFILESIZE_LARGE")
            }
            // "": every encoding this libcurl decodes.
            try set(praykit_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""), "ACCEPT_ENCODING")
            try set(praykit_setopt_string(handle, CURLOPT_USERAGENT, limits.userAgent), "USERAGENT")
            try set(praykit_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue), "CUSTOMREQUEST")
            if request.method == .head { try set(praykit_setopt_long(handle, CURLOPT_NOBODY, 1), "NOBODY") }
            try set(praykit_setopt_list(handle, CURLOPT_HTTPHEADER, headers), "HTTPHEADER")
            try set(praykit_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, receiveBody), "WRITEFUNCTION")
            try set(praykit_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "WRITEDATA")
            try set(praykit_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, receiveHeader), "HEADERFUNCTION")
            try set(praykit_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "HEADERDATA")
            try set(praykit_setopt_long(handle, CURLOPT_NOPROGRESS, 0), "NOPROGRESS")
            try set(praykit_setopt_progress_function(handle, progress), "XFERINFOFUNCTION")
            try set(praykit_setopt_pointer(handle, CURLOPT_XFERINFODATA, context), "XFERINFODATA")
        }

        /// The one funnel of `curl_easy_setopt`'s results: an option this libcurl refuses (too old, built
        /// without a feature, out of memory) ends the exchange before it starts, naming the option.
        private static func set(_ code: CURLcode, _ option: StaticString) throws(HTTPClient.Failure) {
            guard code != CURLE_OK else { return }
            let reason = String(cString: praykit_easy_strerror(code))
            throw HTTPClient.Failure(
                kind: .other, curlCode: Int(code.rawValue),
                message: "libcurl refused the option CURLOPT_\(option) (\(reason)); a newer libcurl4 is needed")
        }

        /// CURLOPT_WRITEFUNCTION: appends to the body, stopping the transfer past the size limit.
        private static let receiveBody: curl_write_callback = { pointer, size, count, context in
            guard let pointer, let context else { return 0 }
            let buffers = Unmanaged<Buffers>.fromUnmanagedContext(context)
            let length = size * count
            if let receive = buffers.receive {
                let piece = Data(bytes: pointer, count: length)
                if buffers.body.count < buffers.limit {
                    buffers.body.append(piece.prefix(buffers.limit - buffers.body.count))
                }
                guard receive(piece) else {
                    buffers.stopped = true
                    return 0
                }
                return length
            }
            guard buffers.body.count + length <= buffers.limit else {
                buffers.tooLarge = true
                return 0  // anything but `length` stops the transfer
            }
            buffers.body.append(UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
            return length
        }

        /// CURLOPT_HEADERFUNCTION: one header line a call; a status line starts a new response.
        private static let receiveHeader: curl_write_callback = { pointer, size, count, context in
            guard let pointer, let context else { return 0 }
            let buffers = Unmanaged<Buffers>.fromUnmanagedContext(context)
            let length = size * count
            let line = String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                buffers.headers = [:]  // a new response (after 100 Continue)
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingWhitespace().lowercased()
                let value = line[line.index(after: colon)...].trimmingWhitespaceAndNewlines()
                buffers.headers[name] = buffers.headers[name].map { "\($0), \(value)" } ?? value
            }
            return length
        }

        /// CURLOPT_XFERINFOFUNCTION: a non-zero return aborts the transfer with CURLE_ABORTED_BY_CALLBACK.
        private static let progress: curl_xferinfo_callback = { context, _, _, _, _ in
            guard let context else { return 0 }
            return Unmanaged<Buffers>.fromUnmanagedContext(context).cancelled.flag.load(ordering: .relaxed) ? 1 : 0
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
