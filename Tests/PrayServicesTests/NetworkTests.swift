import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Synchronization
import Testing

/// `NetworkServiceCurl` against a real HTTP server on 127.0.0.1 with scripted faults.
@Suite struct NetworkTests {
    /// Fast retries and short timeouts, so faults are quick to test.
    static func service(
        attempts: Int = 3, timeout: TimeInterval = 1, maxBytes: Int = 64 * 1024, log: LogManager = .silent
    ) -> NetworkServiceCurl {
        var options = NetworkServiceCurl.Options()
        options.maxAttempts = attempts
        options.totalTimeout = timeout
        options.connectTimeout = timeout
        options.baseDelay = 0.01
        options.retryBudget = 5
        options.maxResponseBytes = maxBytes
        return NetworkServiceCurl(options: options, log: log)
    }

    func kind(of error: any Error) -> NetworkError.Kind? { (error as? NetworkError)?.kind }

    @Test func getsAResponse() async throws {
        let server = try TestHTTPServer { _ in
            .respond(status: 200, headers: ["X-Test": "yes"], body: Data("hello".utf8))
        }
        defer { server.stop() }
        let response = try await Self.service().send(HTTPRequest(url: server.url("/path?q=1")))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "hello")
        #expect(response.headers["x-test"] == "yes")
        #expect(response.attempts == 1)
        let request = try #require(server.requests.first)
        #expect(request.path == "/path?q=1")
        #expect(request.headers["user-agent"]?.hasPrefix("PrayKit/") == true)
        #expect(request.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func decodesGzip() async throws {
        let gzipped = Data([
            31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 171, 86, 202, 72, 205, 201, 201, 87, 178, 82, 80, 74, 175, 202, 44, 80,
            170, 5, 0,
            142, 178, 19, 27, 17, 0, 0, 0,
        ])
        let server = try TestHTTPServer { _ in
            .respond(status: 200, headers: ["Content-Encoding": "gzip"], body: gzipped)
        }
        defer { server.stop() }
        let response = try await Self.service().send(HTTPRequest(url: server.url()))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"hello": "gzip"}"#)
    }

    @Test func connectionRefusedIsRetriedThenAConnectionError() async throws {
        // A port nothing listens on, kept reserved so no other test's server is given it meanwhile.
        let server = try TestHTTPServer.refusingConnections()
        defer { server.stop() }
        let url = server.url("/refused")
        let memory = LogServiceMemory()
        let log = LogManager(services: [memory], minLevel: .notice)
        await #expect { try await Self.service(attempts: 3, log: log).send(HTTPRequest(url: url)) } throws: { error in
            let error = error as? NetworkError
            return error?.kind == .connection && error?.attempts == 3 && error?.curlCode == 7
        }
        // Two retries, each after a short backoff (base 0.01 s doubling, with jitter), logged once each.
        let retries = memory.events.filter { $0.message == "Request retried" }
        #expect(retries.map { $0.metadata["http.attempt"] } == ["2", "3"])
        let delays = retries.compactMap { $0.metadata["http.delay"].flatMap(Double.init) }
        #expect(delays.count == 2 && delays.allSatisfy { $0 <= 0.04 })
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        await #expect {
            try await Self.service(attempts: 2, timeout: 0.5).send(HTTPRequest(url: server.url()))
        } throws: { error in
            let error = error as? NetworkError
            return error?.kind == .timeout && error?.attempts == 2
        }
        #expect(server.requests.count == 2)
        // The server saw each attempt give up: after the 0.5 s asked for, not the default 30 s (the
        // bound only tells the two apart; it is not a speed limit).
        #expect(server.hangs.count == 2)
        #expect(server.hangs.allSatisfy { $0.duration < 15 }, "\(server.hangs.map(\.duration))")
    }

    @Test func a500ThenA200IsRetriedToSuccess() async throws {
        let counter = Counter()
        let server = try TestHTTPServer { _ in
            counter.next() == 1
                ? .respond(status: 500, body: Data("boom".utf8)) : .respond(status: 200, body: Data("ok".utf8))
        }
        defer { server.stop() }
        let memory = LogServiceMemory()
        let response = try await Self.service(log: LogManager(services: [memory], minLevel: .notice)).send(
            HTTPRequest(url: server.url()))
        #expect(response.status == 200 && response.attempts == 2)
        #expect(
            memory.events.contains { $0.message == "Request retried" && $0.metadata["http.reason"] == "status 500" })
    }

    @Test func aPersistent500IsAStatusErrorAfterBoundedRetries() async throws {
        let server = try TestHTTPServer { _ in .respond(status: 503) }
        defer { server.stop() }
        await #expect { try await Self.service(attempts: 3).send(HTTPRequest(url: server.url())) } throws: { error in
            let error = error as? NetworkError
            return error?.kind == .status && error?.status == 503 && error?.attempts == 3
        }
        #expect(server.requests.count == 3)
    }

    @Test func postIsNotRetried() async throws {
        let server = try TestHTTPServer { _ in .respond(status: 500) }
        defer { server.stop() }
        await #expect(throws: NetworkError.self) {
            try await Self.service().send(HTTPRequest(method: .post, url: server.url(), body: Data("x".utf8)))
        }
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.body == Data("x".utf8))
    }

    @Test func retryAfterIsHonoured() async throws {
        let counter = Counter()
        let server = try TestHTTPServer { _ in
            counter.next() == 1 ? .respond(status: 429, headers: ["Retry-After": "1"]) : .respond(status: 200)
        }
        defer { server.stop() }
        let started = Date()
        let response = try await Self.service().send(HTTPRequest(url: server.url()))
        #expect(response.attempts == 2)
        #expect(Date().timeIntervalSince(started) >= 1)
    }

    @Test func aRetryAfterBeyondTheBudgetIsReported() async throws {
        let server = try TestHTTPServer { _ in .respond(status: 429, headers: ["Retry-After": "3600"]) }
        defer { server.stop() }
        await #expect { try await Self.service().send(HTTPRequest(url: server.url())) } throws: { error in
            let error = error as? NetworkError
            return error?.status == 429 && error?.retryAfter == 3600 && error?.description.contains("3600 s") == true
        }
        #expect(server.requests.count == 1)
    }

    @Test func aBodyLargerThanTheLimitIsRefused() async throws {
        let big = Data(repeating: 65, count: 10_000)
        for reply in [TestHTTPServer.Reply.respond(status: 200, body: big), .unsized(status: 200, body: big)] {
            let server = try TestHTTPServer { _ in reply }
            defer { server.stop() }
            await #expect { try await Self.service(maxBytes: 1000).send(HTTPRequest(url: server.url())) } throws: {
                kind(of: $0) == .tooLarge
            }
        }
    }

    @Test func aConnectionClosedMidBodyIsAConnectionError() async throws {
        let server = try TestHTTPServer { _ in .truncated(status: 200, declaredLength: 1000, body: Data("partial".utf8))
        }
        defer { server.stop() }
        await #expect { try await Self.service(attempts: 2).send(HTTPRequest(url: server.url())) } throws: { error in
            let error = error as? NetworkError
            return error?.kind == .connection && error?.attempts == 2
        }
        let closed = try TestHTTPServer { _ in .close }
        defer { closed.stop() }
        await #expect { try await Self.service(attempts: 1).send(HTTPRequest(url: closed.url())) } throws: {
            kind(of: $0) == .connection
        }
    }

    @Test func redirectsAreFollowedLoopsAndOtherSchemesAreNot() async throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/start": .respond(status: 302, headers: ["Location": "/end"])
            case "/end": .respond(status: 200, body: Data("arrived".utf8))
            case "/loop-a": .respond(status: 301, headers: ["Location": "/loop-b"])
            case "/loop-b": .respond(status: 301, headers: ["Location": "/loop-a"])
            case "/ftp": .respond(status: 302, headers: ["Location": "ftp://127.0.0.1/file"])
            case "/file": .respond(status: 302, headers: ["Location": "file:///etc/passwd"])
            default:
                if let n = Int(request.path.dropFirst(6)), request.path.hasPrefix("/chain") {
                    .respond(status: 307, headers: ["Location": "/chain\(n + 1)"])
                } else {
                    .respond(status: 404)
                }
            }
        }
        defer { server.stop() }
        let followed = try await Self.service().send(HTTPRequest(url: server.url("/start")))
        #expect(String(decoding: followed.body, as: UTF8.self) == "arrived")
        #expect(followed.url.path == "/end")
        await #expect { try await Self.service().send(HTTPRequest(url: server.url("/loop-a"))) } throws: {
            kind(of: $0) == .tooManyRedirects
        }
        await #expect { try await Self.service().send(HTTPRequest(url: server.url("/chain0"))) } throws: {
            kind(of: $0) == .tooManyRedirects
        }
        for path in ["/ftp", "/file"] {
            await #expect { try await Self.service().send(HTTPRequest(url: server.url(path))) } throws: {
                kind(of: $0) == .unsafeRedirect
            }
        }
    }

    @Test func plainHTTPToTheInternetIsRefusedBeforeConnecting() async throws {
        await #expect { try await Self.service().send(HTTPRequest(url: URL(string: "http://example.com/")!)) } throws: {
            kind(of: $0) == .insecure
        }
        await #expect { try await Self.service().send(HTTPRequest(url: URL(string: "ftp://example.com/")!)) } throws: {
            kind(of: $0) == .invalidURL
        }
    }

    @Test func cancellingTheTaskStopsTheTransfer() async throws {
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        let task = Task { try await Self.service(attempts: 1, timeout: 30).send(HTTPRequest(url: server.url())) }
        while server.requests.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
        let cancelled = Date()
        task.cancel()
        await #expect { try await task.value } throws: { kind(of: $0) == .cancelled }
        // The server saw the client hang up after the cancel and before the 30 s timeout could fire.
        let hang = try #require(server.hangs.first)
        #expect(hang.ended >= cancelled)
        #expect(hang.duration < 20)
    }

    @Test func secretsNeverAppearInErrors() async throws {
        let server = try TestHTTPServer { _ in .respond(status: 401) }
        defer { server.stop() }
        let url = URL(string: "http://user:hunter2@127.0.0.1:\(server.port)/api?key=SECRET123&year=2026")!
        await #expect { try await Self.service().send(HTTPRequest(url: url)) } throws: { error in
            let text = "\(error)"
            return !text.contains("SECRET123") && !text.contains("hunter2") && text.contains("year=2026")
                && text.contains("key=***")
        }
    }
}

/// A thread-safe counter for handlers that answer differently the second time.
final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
