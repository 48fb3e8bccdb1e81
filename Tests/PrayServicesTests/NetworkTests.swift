import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Synchronization
import Testing

/// The HTTP client of this build — `NetworkServiceCurl` where libcurl is linked (Linux),
/// `NetworkServiceURLSession` elsewhere (`Scripts/portable-build.sh` runs these tests on it) —
/// against a real HTTP server on 127.0.0.1 with scripted faults: one contract, the same tests.
@Suite(.tags(.concurrency)) struct NetworkTests {
    /// Whether the client is libcurl, whose result codes errors carry.
    static let isCurl: Bool = {
        #if canImport(CCurl)
            true
        #else
            false
        #endif
    }()

    /// The production retry policy (backoff from 0.5 s, a 30 s budget) on a clock that records each
    /// wait and returns at once, so no test sleeps for a backoff. The timeouts are libcurl's own, in
    /// real time: long by default, so that a busy machine never turns a good exchange into a timeout;
    /// short only where a timeout is the point.
    static func service(
        attempts: Int = 3, timeout: TimeInterval = 60, maxBytes: Int = 64 * 1024, log: LogManager = .silent,
        clock: PrayClockFake = PrayClockFake()
    ) -> any NetworkService {
        var options = NetworkOptions()
        options.maxAttempts = attempts
        options.totalTimeout = timeout
        options.connectTimeout = timeout
        options.maxResponseBytes = maxBytes
        #if canImport(CCurl)
            return NetworkServiceCurl(options: options, log: log, clock: clock)
        #else
            return NetworkServiceURLSession(options: options, log: log, clock: clock)
        #endif
    }

    /// The bounds of the wait before attempt `attempt + 1` with equal jitter on a 0.5 s base: half of
    /// 0.5 × 2^(attempt − 1) fixed, the other half random.
    static func backoff(after attempt: Int) -> ClosedRange<TimeInterval> {
        let full = NetworkOptions().baseDelay * pow(2, Double(attempt - 1))
        return (full / 2)...full
    }

    func kind(of error: any Error) -> NetworkError.Kind? { (error as? NetworkError)?.kind }

    @Test(.tags(.server)) func getsAResponse() async throws {
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

    @Test(.tags(.server)) func decodesGzip() async throws {
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

    @Test(.tags(.server)) func connectionRefusedIsRetriedThenAConnectionError() async throws {
        // Given a port nothing listens on, kept reserved so no other test's server is given it meanwhile
        let server = try TestHTTPServer.refusingConnections()
        defer { server.stop() }
        let url = server.url("/refused")
        let memory = LogServiceMemory()
        let log = LogManager(services: [memory], minLevel: .notice)
        let clock = PrayClockFake()
        // When
        await #expect {
            try await Self.service(attempts: 3, log: log, clock: clock).send(HTTPRequest(url: url))
        } throws: { error in
            let error = error as? NetworkError
            // libcurl's CURLE_COULDNT_CONNECT; URLSession has no libcurl code
            return error?.kind == .connection && error?.attempts == 3 && error?.curlCode == (Self.isCurl ? 7 : nil)
        }
        // Then two retries, each after a backoff that doubles, with jitter, logged once each
        let retries = memory.events.filter { $0.message == "Request retried" }
        #expect(retries.map { $0.metadata["http.attempt"] } == ["2", "3"])
        let sleeps = clock.sleeps
        #expect(sleeps.count == 2)
        for (attempt, sleep) in zip(1..., sleeps) {
            #expect(Self.backoff(after: attempt).contains(sleep), "wait \(sleep) s after attempt \(attempt)")
        }
        #expect(retries.map { $0.metadata["http.delay"] } == sleeps.map { String(format: "%.2f", $0) })
    }

    @Test(.tags(.server)) func aServerThatNeverAnswersTimesOut() async throws {
        // Given a server that reads the request and never answers
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        let clock = PrayClockFake()
        // When each attempt may take 1 s (libcurl's own timer)
        await #expect {
            try await Self.service(attempts: 2, timeout: 1, clock: clock).send(HTTPRequest(url: server.url()))
        } throws: { error in
            let error = error as? NetworkError
            return error?.kind == .timeout && error?.attempts == 2
        }
        // Then the client gave up on each attempt by itself — the server saw both connections closed
        // while it still held them open (it stops only below) — with one backoff between them. No
        // duration is compared: how long a timeout took on a busy machine says nothing.
        #expect(await server.hangs(atLeast: 2).count == 2)
        #expect(server.requests.count == 2)
        #expect(clock.sleeps.count == 1)
    }

    @Test(.tags(.server)) func a500ThenA200IsRetriedToSuccess() async throws {
        // Given
        let counter = Counter()
        let server = try TestHTTPServer { _ in
            counter.next() == 1
                ? .respond(status: 500, body: Data("boom".utf8)) : .respond(status: 200, body: Data("ok".utf8))
        }
        defer { server.stop() }
        let memory = LogServiceMemory()
        let clock = PrayClockFake()
        // When
        let response = try await Self.service(log: LogManager(services: [memory], minLevel: .notice), clock: clock)
            .send(HTTPRequest(url: server.url()))
        // Then
        #expect(response.status == 200 && response.attempts == 2)
        #expect(
            memory.events.contains { $0.message == "Request retried" && $0.metadata["http.reason"] == "status 500" })
        #expect(clock.sleeps.count == 1 && clock.sleeps.allSatisfy { Self.backoff(after: 1).contains($0) })
    }

    @Test(.tags(.server)) func aPersistent500IsAStatusErrorAfterBoundedRetries() async throws {
        // Given
        let server = try TestHTTPServer { _ in .respond(status: 503) }
        defer { server.stop() }
        let clock = PrayClockFake()
        // When
        await #expect {
            try await Self.service(attempts: 3, clock: clock).send(HTTPRequest(url: server.url()))
        } throws: { error in
            let error = error as? NetworkError
            return error?.kind == .status && error?.status == 503 && error?.attempts == 3
        }
        // Then
        #expect(server.requests.count == 3)
        #expect(clock.sleeps.count == 2)
    }

    @Test(.tags(.server)) func theRetryBudgetBoundsTheTimeSpentWaiting() async throws {
        // Given a server that always fails and room for many attempts
        let server = try TestHTTPServer { _ in .respond(status: 502) }
        defer { server.stop() }
        let clock = PrayClockFake()
        // When
        await #expect {
            try await Self.service(attempts: 20, clock: clock).send(HTTPRequest(url: server.url()))
        } throws: { ($0 as? NetworkError)?.status == 502 }
        // Then the backoff doubled each time, and the client stopped only when the next wait (drawn
        // from its range) would have taken it past the 30 s budget
        let sleeps = clock.sleeps
        for (attempt, sleep) in zip(1..., sleeps) {
            #expect(Self.backoff(after: attempt).contains(sleep), "wait \(sleep) s after attempt \(attempt)")
        }
        let budget = NetworkOptions().retryBudget
        #expect(sleeps.reduce(0, +) <= budget)
        #expect(sleeps.reduce(0, +) + Self.backoff(after: sleeps.count + 1).upperBound > budget, "\(sleeps)")
        #expect(server.requests.count == sleeps.count + 1)
    }

    @Test(.tags(.server)) func postIsNotRetried() async throws {
        let server = try TestHTTPServer { _ in .respond(status: 500) }
        defer { server.stop() }
        await #expect(throws: NetworkError.self) {
            try await Self.service().send(HTTPRequest(method: .post, url: server.url(), body: Data("x".utf8)))
        }
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.body == Data("x".utf8))
    }

    @Test(
        .tags(.server),
        arguments: [
            ("7", 7.0),
            // An HTTP-date, 20 s after the clock's "now" (2026-11-29 12:00:00 UTC).
            ("Sun, 29 Nov 2026 12:00:20 GMT", 20),
        ])
    func retryAfterIsHonoured(_ header: String, _ seconds: TimeInterval) async throws {
        // Given a server that asks the client to come back later, once
        let counter = Counter()
        let server = try TestHTTPServer { _ in
            counter.next() == 1 ? .respond(status: 429, headers: ["Retry-After": header]) : .respond(status: 200)
        }
        defer { server.stop() }
        let clock = PrayClockFake()
        // When
        let response = try await Self.service(clock: clock).send(HTTPRequest(url: server.url()))
        // Then the client waited what the server asked (longer than its own backoff) and succeeded
        #expect(response.attempts == 2)
        #expect(clock.sleeps == [seconds])
    }

    @Test(.tags(.server)) func aRetryAfterBeyondTheBudgetIsReported() async throws {
        // Given
        let server = try TestHTTPServer { _ in .respond(status: 429, headers: ["Retry-After": "3600"]) }
        defer { server.stop() }
        let clock = PrayClockFake()
        // When
        await #expect { try await Self.service(clock: clock).send(HTTPRequest(url: server.url())) } throws: { error in
            let error = error as? NetworkError
            return error?.status == 429 && error?.retryAfter == 3600 && error?.description.contains("3600 s") == true
        }
        // Then it did not wait, and asked once
        #expect(server.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test(.tags(.server)) func aBodyLargerThanTheLimitIsRefused() async throws {
        let big = Data(repeating: 65, count: 10_000)
        for reply in [TestHTTPServer.Reply.respond(status: 200, body: big), .unsized(status: 200, body: big)] {
            let server = try TestHTTPServer { _ in reply }
            defer { server.stop() }
            await #expect { try await Self.service(maxBytes: 1000).send(HTTPRequest(url: server.url())) } throws: {
                kind(of: $0) == .tooLarge
            }
        }
    }

    @Test(.tags(.server)) func aConnectionClosedMidBodyIsAConnectionError() async throws {
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

    @Test(.tags(.server)) func redirectsAreFollowedLoopsAndOtherSchemesAreNot() async throws {
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

    @Test(.tags(.server)) func plainHTTPGoesOnlyToALoopbackAddressNotToANameThatLooksLikeOne() async throws {
        // Names that start like loopback addresses are resolved by DNS and may be anywhere: refused
        // before any connection (and so before the API key in the query leaves the machine).
        for host in ["127.evil.example", "127.0.0.1.evil.example", "localhost.evil.example", "127.1", "2130706433"] {
            let url = try #require(URL(string: "http://\(host)/api/times/?key=SECRET"))
            await #expect { try await Self.service(attempts: 1).send(HTTPRequest(url: url)) } throws: {
                kind(of: $0) == .insecure
            }
        }
        // The address literals of loopback, and exactly `localhost`, are this machine.
        let server = try TestHTTPServer { _ in .respond(status: 200, body: Data("here".utf8)) }
        defer { server.stop() }
        for host in ["127.0.0.1", "localhost", "LOCALHOST"] {
            let url = try #require(URL(string: "http://\(host):\(server.port)/"))
            let response = try await Self.service().send(HTTPRequest(url: url))
            #expect(String(decoding: response.body, as: UTF8.self) == "here", "\(host)")
        }
    }

    @Test(.tags(.server)) func aRedirectToAnotherOriginDropsTheCallersCredentials() async throws {
        // Given: a server that redirects to another origin (another port), and one on its own origin
        let other = try TestHTTPServer { _ in .respond(status: 200, body: Data("other".utf8)) }
        defer { other.stop() }
        let first = try TestHTTPServer { request in
            switch request.path {
            case "/away": .respond(status: 302, headers: ["Location": other.url("/landed").absoluteString])
            case "/stay": .respond(status: 307, headers: ["Location": "/here"])
            default: .respond(status: 200, body: Data("here".utf8))
            }
        }
        defer { first.stop() }
        let headers = [
            "Authorization": "Bearer SECRET", "Cookie": "session=SECRET", "X-API-Key": "SECRET",
            "Accept": "application/json",
        ]
        // When
        _ = try await Self.service().send(HTTPRequest(url: first.url("/away"), headers: headers))
        _ = try await Self.service().send(HTTPRequest(url: first.url("/stay"), headers: headers))
        // Then: the other origin got none of the credentials, only the harmless Accept
        let landed = try #require(other.requests.first)
        #expect(landed.path == "/landed")
        for name in ["authorization", "cookie", "x-api-key"] { #expect(landed.headers[name] == nil, "\(name)") }
        #expect(landed.headers["accept"] == "application/json")
        // and the same origin still gets them
        let here = try #require(first.requests.last)
        #expect(here.path == "/here")
        #expect(here.headers["authorization"] == "Bearer SECRET" && here.headers["x-api-key"] == "SECRET")
    }

    @Test(.tags(.server)) func cancellingTheTaskStopsTheTransfer() async throws {
        // Given a transfer the server holds open, with a timeout no test run reaches
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        let task = Task { try await Self.service(attempts: 1, timeout: 3600).send(HTTPRequest(url: server.url())) }
        #expect(await server.requests(atLeast: 1).count == 1)
        #expect(server.hangs.isEmpty, "the client hung up before it was cancelled")
        // When the task is cancelled
        task.cancel()
        // Then the transfer ends as cancelled — not as a timeout — and the server sees the client
        // hang up: the events are ordered request, cancel, hang-up, whatever the machine's load.
        await #expect { try await task.value } throws: { kind(of: $0) == .cancelled }
        #expect(await server.hangs(atLeast: 1).count == 1)
    }

    @Test(.tags(.server)) func aTaskCancelledBeforeItSendsIsCancelled() async throws {
        // Given a task cancelled before it asks (URLSession may then end the transfer before the
        // client is waiting for it)
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Self.service(attempts: 1, timeout: 3600).send(HTTPRequest(url: server.url()))
        }
        // Then it ends, as cancelled
        await #expect { try await task.value } throws: { kind(of: $0) == .cancelled }
    }

    @Test(.tags(.server)) func secretsNeverAppearInErrors() async throws {
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
