// The server is libmicrohttpd, a Linux dependency of PrayServer (Package.swift).
#if canImport(CMicroHTTPD)
    import Foundation
    import PrayCore
    import PrayMocks
    import PrayServer
    import PrayServices
    import Synchronization
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `ServerServiceMicroHTTPD` on a loopback port chosen by the system, called with the project's libcurl
    /// client and with a raw socket where a client must misbehave. Order of events, never durations.
    @Suite(.tags(.server, .concurrency), .needsMicroHTTPD) struct ServerTests {
        static let network: NetworkServiceCurl = {
            var options = NetworkOptions()
            options.maxAttempts = 1
            options.totalTimeout = 120
            options.connectTimeout = 120
            return NetworkServiceCurl(options: options, log: .silent)
        }()

        static func routes() -> AlAdhanRoutes {
            let prayers = PrayerServiceAstronomical(log: .silent)
            return AlAdhanRoutes(
                calculator: prayers, hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
                qibla: QiblaServiceGeodesic(log: .silent), clock: PrayClockFake(), log: .silent)
        }

        static func configuration(
            requestTimeout: TimeInterval = 60, threads: Int = 2, perAddress: Int = 256, bodyLimit: Int = 8 * 1024
        ) -> ServerAPI.Configuration {
            ServerAPI.Configuration(
                host: "127.0.0.1", port: 0, threads: threads, connectionLimitPerAddress: perAddress,
                requestTimeout: requestTimeout, maximumRequestBodyBytes: bodyLimit)
        }

        func get(_ server: any RunningServer, _ path: String, headers: [String: String] = [:]) async throws
            -> HTTPResponse
        {
            let url = try #require(URL(string: server.url.absoluteString + path))
            return try await Self.network.send(HTTPRequest(url: url, headers: headers, acceptedStatuses: 200..<500))
        }

        static let makkah =
            "/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=4&timezonestring=Asia/Riyadh"

        @Test func servesTheAlAdhanAPIOnAPortTheSystemChose() async throws {
            // Given
            let routes = Self.routes()
            let server = try ServerServiceMicroHTTPD(log: .silent).start(Self.configuration(), handler: routes.handler)
            // When
            let response = try await get(server, Self.makkah)
            await server.shutdown()
            // Then: the routes' answer, unchanged by the trip
            #expect(server.port > 0)
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.headers["cache-control"] == "public, max-age=86400")
            #expect(response.body == routes.respond(to: ServerAPI.Request(target: Self.makkah)).body)
            let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            #expect(object?["code"] as? Int == 200 && object?["status"] as? String == "OK")
        }

        @Test func olderClientsRequestsCrossTheServerAsV1sDo() async throws {
            // Given: MagicMirror's and Home Assistant's older request shapes, as they go on the wire
            let routes = Self.routes()
            let server = try ServerServiceMicroHTTPD(log: .silent).start(Self.configuration(), handler: routes.handler)
            let date = AlAdhanLegacyRoutesTests.javaScriptDate
            let pairs = [
                (
                    "/timings/1796231563?latitude=-6.2088&longitude=106.8456&timezonestring=Asia/Jakarta&method=5",
                    "/v1/timings/1796231563?latitude=-6.2088&longitude=106.8456&timezonestring=Asia/Jakarta&method=5"
                ),
                (
                    "/timings/1796169600?latitude=40.7128&longitude=-74.006&method=2&tune=0%2C1%2C0%2C0%2C0%2C0%2C0%2C0%2C0",
                    "/v1/timings/1796169600?latitude=40.7128&longitude=-74.006&method=2&tune=0,1,0,0,0,0,0,0,0"
                ),
                (
                    "/v1/timings/\(date)?\(AlAdhanLegacyRoutesTests.amsterdam)",
                    "/v1/timings?\(AlAdhanLegacyRoutesTests.amsterdam)"
                ),
            ]
            // When
            var answers: [(HTTPResponse, HTTPResponse)] = []
            for (legacy, versioned) in pairs {
                answers.append((try await get(server, legacy), try await get(server, versioned)))
            }
            await server.shutdown()
            // Then: each the same bytes as its /v1 form, and a 200
            for ((legacy, versioned), (path, _)) in zip(answers, pairs) {
                #expect(legacy.status == 200, "\(path): \(String(decoding: legacy.body, as: UTF8.self))")
                #expect(legacy.body == versioned.body, "\(path)")
            }
        }

        @Test func anEntityTagComesBackAs304() async throws {
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(), handler: Self.routes().handler)
            let first = try await get(server, Self.makkah)
            let tag = try #require(first.headers["etag"])
            let second = try await get(server, Self.makkah, headers: ["If-None-Match": tag])
            let head = try await Self.network.send(
                HTTPRequest(method: .head, url: #require(URL(string: server.url.absoluteString + Self.makkah))))
            await server.shutdown()
            #expect(second.status == 304 && second.body.isEmpty && second.headers["etag"] == tag)
            // The 304 states the length of the 200 it stands for, or nothing; never 0 (RFC 9110 §8.6)
            #expect(second.headers["content-length"] == String(first.body.count), "\(second.headers)")
            #expect(head.status == 200 && head.body.isEmpty && head.headers["etag"] == tag)
        }

        @Test func badInputIsA400InAlAdhansEnvelope() async throws {
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(), handler: Self.routes().handler)
            let missing = try await get(server, "/v1/timings/01-03-2027?longitude=39.8")
            let unknown = try await get(server, "/v1/elsewhere")
            await server.shutdown()
            #expect(missing.status == 400 && unknown.status == 404)
            let body = try JSONSerialization.jsonObject(with: missing.body) as? [String: Any]
            #expect(body?["code"] as? Int == 400 && body?["status"] as? String == "BAD_REQUEST")
            #expect(body?["data"] as? String == "Please specify a latitude and longitude.")
        }

        @Test func manyClientsAtOnceGetTheirOwnAnswers() async throws {
            // Given: 48 requests for different days, all sent at once
            let routes = Self.routes()
            let server = try ServerServiceMicroHTTPD(log: .silent).start(Self.configuration(), handler: routes.handler)
            let targets = (1...48).map { day in
                "/v1/timings/\(String(format: "%02d", (day - 1) % 28 + 1))-\(day <= 28 ? "03" : "04")-2027"
                    + "?latitude=\(20 + day)&longitude=39.8&method=\(day % 5)&timezonestring=Asia/Riyadh"
            }
            // When
            let bodies = try await withThrowingTaskGroup(of: (String, Data).self) { group in
                for target in targets { group.addTask { (target, try await get(server, target).body) } }
                return try await group.reduce(into: [String: Data]()) { $0[$1.0] = $1.1 }
            }
            await server.shutdown()
            // Then: each answer is the routes' answer to that request
            #expect(bodies.count == targets.count)
            for target in targets {
                #expect(bodies[target] == routes.respond(to: ServerAPI.Request(target: target)).body, "\(target)")
            }
        }

        @Test func oneConnectionCarriesManyRequests() async throws {
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(), handler: Self.routes().handler)
            let port = server.port
            let statuses = try await TestThread.run {
                let client = try RawClient(port: port)
                var statuses: [Int] = []
                for _ in 0..<3 {
                    try client.send("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    statuses.append(try client.readResponse().status)
                }
                return statuses
            }
            await server.shutdown()
            #expect(statuses == [200, 200, 200])
        }

        @Test func anOversizedRequestHeadIsRefusedAndOthersAreStillServed() async throws {
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(), handler: Self.routes().handler)
            let port = server.port
            let status = try await TestThread.run {
                let client = try RawClient(port: port)
                try client.send(
                    "GET /status HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 64 * 1024))\r\n\r\n")
                return (try? client.readResponse().status) ?? 0
            }
            let after = try await get(server, "/status")
            await server.shutdown()
            // A refusal (431, or 414 for a long line) or a closed connection, never a served request
            #expect([0, 413, 414, 431].contains(status), "\(status)")
            #expect(after.status == 200)
        }

        /// Sends `request` on a new connection and reads the answer: its status, its JSON envelope, and
        /// whether the server then closed the connection.
        static func exchange(_ request: String, port: Int) async throws -> (
            status: Int, envelope: [String: Any], closed: Bool
        ) {
            let (status, body, closed) = try await TestThread.run {
                let client = try RawClient(port: port)
                try client.send(request)
                let response = try client.readResponse()
                return (response.status, response.body, client.waitUntilClosed())
            }
            let envelope = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
            return (status, envelope, closed)
        }

        @Test func anOverlongTargetOrHeadIsRefusedInTheEnvelopeAndTheConnectionClosed() async throws {
            // Given: the default 8 KB head limit
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(), handler: Self.routes().handler)
            // When: a 17 KB request target, and a 20 KB header field
            let target = try await Self.exchange(
                "GET /v1/timings?x=\(String(repeating: "a", count: 17 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n",
                port: server.port)
            let head = try await Self.exchange(
                "GET /status HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20 * 1024))\r\n\r\n",
                port: server.port)
            let after = try await get(server, "/status")
            await server.shutdown()
            // Then: 414 and 431 in AlAdhan's envelope (not libmicrohttpd's HTML), and the connection closed
            #expect(target.status == 414 && target.envelope["code"] as? Int == 414 && target.closed)
            #expect(target.envelope["status"] as? String == "URI_TOO_LONG")
            #expect(head.status == 431 && head.envelope["code"] as? Int == 431 && head.closed)
            #expect((head.envelope["data"] as? String)?.contains("8192") == true)
            #expect(after.status == 200)
        }

        @Test func anEncodedNulAFloodOfParametersOrARepeatedOneIsA400NotAGuessOrNoAnswer() async throws {
            // Given
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(), handler: Self.routes().handler)
            func request(_ target: String) -> String { "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n" }
            let place = "/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262"
            // When: a NUL that libmicrohttpd's decoding would end the value at (read as latitude=21), one in
            // the path, 480 short parameters in a 2 KB target (they used to exhaust the connection's
            // memory: no answer at all), and exactly the most a request may send
            let nul = try await Self.exchange(request("/v1/timings?latitude=21%00abc&longitude=39"), port: server.port)
            let path = try await Self.exchange(request("/v1/timings%00x?latitude=21&longitude=39"), port: server.port)
            let flood = try await Self.exchange(
                request(place + String(repeating: "&a=1", count: 480)), port: server.port)
            let most = try await get(server, place + (1...98).map { "&a\($0)=1" }.joined())
            // A parameter given twice asks two things at once: a 400, not one of them
            let twice = try await Self.exchange(request(place + "&latitude=51.5"), port: server.port)
            // … and among more parameters than are compared one by one
            let twiceAmongMany = try await Self.exchange(
                request(place + (1...40).map { "&a\($0)=1" }.joined() + "&latitude=51.5"), port: server.port)
            await server.shutdown()
            // Then: 400s that say why, in the envelope; the most is answered
            #expect(nul.status == 400 && (nul.envelope["data"] as? String)?.contains("%00") == true)
            #expect(path.status == 400 && (path.envelope["data"] as? String)?.contains("%00") == true)
            #expect(flood.status == 400 && flood.envelope["code"] as? Int == 400)
            #expect((flood.envelope["data"] as? String)?.contains("more than 100 query parameters") == true)
            #expect(most.status == 200, "\(String(decoding: most.body, as: UTF8.self))")
            for twice in [twice, twiceAmongMany] {
                #expect(
                    twice.status == 400
                        && (twice.envelope["data"] as? String)?.contains("'latitude' more than once") == true)
            }
        }

        @Test func ambiguousFramingIsRefusedWith400AndTheConnectionClosed() async throws {
            // Given
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(), handler: Self.routes().handler)
            let requests = [
                "two Content-Length fields": "GET /status HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                    + "Content-Length: 5\r\n\r\nhello",
                "Transfer-Encoding and Content-Length": "GET /status HTTP/1.1\r\nHost: x\r\n"
                    + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
                "a Transfer-Encoding other than chunked": "GET /status HTTP/1.1\r\nHost: x\r\n"
                    + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
                "a space before the colon": "GET /status HTTP/1.1\r\nHost : x\r\n\r\n",
                "no Host": "GET /status HTTP/1.1\r\nAccept: */*\r\n\r\n",
                "two Host fields": "GET /status HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
            ]
            // When
            var outcomes: [String: (status: Int, envelope: [String: Any], closed: Bool)] = [:]
            for (name, request) in requests { outcomes[name] = try await Self.exchange(request, port: server.port) }
            let http10 = try await Self.exchange("GET /status HTTP/1.0\r\n\r\n", port: server.port)
            await server.shutdown()
            // Then: each is a 400 in the envelope, and the server closed the connection (nothing after
            // the head is read as another request)
            for (name, outcome) in outcomes {
                #expect(outcome.status == 400 && outcome.envelope["code"] as? Int == 400, "\(name)")
                #expect(outcome.envelope["status"] as? String == "BAD_REQUEST", "\(name)")
                #expect(outcome.closed, "\(name)")
            }
            // HTTP/1.0 needs no Host
            #expect(http10.status == 200)
        }

        @Test func aBodySentTooSlowlyIsCutAtTheDeadline() async throws {
            // Given: a one-second deadline for the whole request
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(requestTimeout: 1), handler: Self.routes().handler)
            let port = server.port
            // When: a GET whose head arrives at once and whose body then trickles, a byte every 50 ms, for
            // as long as the server keeps it (bounded at a minute, should the server never end it)
            let outcome = try await TestThread.run {
                let client = try RawClient(port: port)
                try client.send("GET /status HTTP/1.1\r\nHost: x\r\nContent-Length: 8000\r\n\r\n")
                for _ in 0..<1200 {
                    guard (try? client.send("a")) != nil, !client.isClosedByPeer() else { return "disconnected" }
                    usleep(50_000)
                }
                return "never disconnected"
            }
            let after = try await get(server, "/status")
            await server.shutdown()
            // Then: the server ended it, and serves others
            #expect(outcome == "disconnected")
            #expect(after.status == 200)
        }

        @Test func aBodyOverTheLimitIsRefused() async throws {
            // Given: bodies of at most 1 KB
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(requestTimeout: 5, bodyLimit: 1024), handler: Self.routes().handler)
            let port = server.port
            // When: a declared 100 KB body, and a chunked one that grows past the limit
            let declared = try await Self.exchange(
                "GET /status HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", port: port)
            let chunked = try await TestThread.run {
                let client = try RawClient(port: port)
                let chunk = "3e8\r\n" + String(repeating: "a", count: 1000) + "\r\n"
                try? client.send(
                    "GET /status HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk + chunk
                        + "0\r\n\r\n")
                return (try? client.readResponse().status) ?? 0
            }
            let small = try await Self.exchange(
                "GET /status HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello", port: port)
            await server.shutdown()
            // Then: 413 in the envelope before any body is read; the chunked body ends its connection
            // unanswered; a small body is read and ignored
            #expect(declared.status == 413 && declared.envelope["status"] as? String == "PAYLOAD_TOO_LARGE")
            #expect(declared.closed)
            #expect(chunked == 0)
            #expect(small.status == 200)
        }

        @Test func oneAddressCannotHoldEveryConnection() async throws {
            // Given: at most two connections from one address (one worker thread, so that connections are
            // accepted in the order they arrive)
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(threads: 1, perAddress: 2), handler: Self.routes().handler)
            let port = server.port
            // When: two connections from 127.0.0.1 are open, and a third arrives
            let outcome = try await TestThread.run {
                let first = try RawClient(port: port)
                let second = try RawClient(port: port)
                try first.send("GET /status HTTP/1.1\r\nHost: x\r\n")
                try second.send("GET /status HTTP/1.1\r\nHost: x\r\n")
                let third = try RawClient(port: port)
                let thirdClosed = third.waitUntilClosed()
                try first.send("\r\n")
                return (thirdClosed, try first.readResponse().status)
            }
            await server.shutdown()
            // Then: the third is closed at once, and the first two are still served
            #expect(outcome.0)
            #expect(outcome.1 == 200)
        }

        @Test func aHeadBeyondTheBufferIsLoggedWithoutTheHTMLPage() async throws {
            // Given
            let memory = LogServiceMemory()
            let server = try ServerServiceMicroHTTPD(log: LogManager(services: [memory], minLevel: .info)).start(
                Self.configuration(), handler: Self.routes().handler)
            // When: a head far beyond the buffer, which libmicrohttpd refuses itself
            let status = try await TestThread.run { [port = server.port] in
                let client = try RawClient(port: port)
                try? client.send(
                    "GET /status HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 200 * 1024))\r\n\r\n")
                return (try? client.readResponse().status) ?? 0
            }
            try await Self.waitFor { memory.events.contains { $0.message == "Request refused by libmicrohttpd" } }
            await server.shutdown()
            // Then: one line with the status, not the page
            #expect([0, 431].contains(status))
            let refused = memory.events.first { $0.message == "Request refused by libmicrohttpd" }
            #expect(refused?.metadata["http.status"] == "431")
            #expect(!memory.events.contains { "\($0.message) \($0.metadata)".contains("<html>") })
        }

        @Test func aTrustedProxysForwardedAddressIsTheClientsAndNoOtherPeersIs() async throws {
            // Given: a server that trusts 127.0.0.1 as a proxy, and one that trusts none, each answering
            // with the client's address it decided
            let echo: ServerAPI.Handler = { request in
                ServerAPI.Response(status: 200, headers: [:], body: Data(request.remoteAddress.utf8))
            }
            var trusting = Self.configuration()
            trusting.trustedProxies = ["127.0.0.1"]
            let behindProxy = try ServerServiceMicroHTTPD(log: .silent).start(trusting, handler: echo)
            let direct = try ServerServiceMicroHTTPD(log: .silent).start(Self.configuration(), handler: echo)
            func address(_ server: any RunningServer, forwardedFor: String?) async throws -> String {
                try await TestThread.run { [port = server.port] in
                    let client = try RawClient(port: port)
                    let field = forwardedFor.map { "X-Forwarded-For: \($0)\r\n" } ?? ""
                    try client.send("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\(field)Connection: close\r\n\r\n")
                    return String(decoding: try client.readResponse().body, as: UTF8.self)
                }
            }
            // Then: behind the trusted proxy, the address it appended last; a client's own entries
            // before it, a missing or malformed field, and an untrusted peer give the peer
            #expect(try await address(behindProxy, forwardedFor: "198.51.100.1, 203.0.113.9") == "203.0.113.9")
            #expect(try await address(behindProxy, forwardedFor: "2001:db8::7") == "2001:db8::7")
            #expect(try await address(behindProxy, forwardedFor: nil) == "127.0.0.1")
            #expect(try await address(behindProxy, forwardedFor: "203.0.113.9, unknown") == "127.0.0.1")
            #expect(try await address(direct, forwardedFor: "203.0.113.9") == "127.0.0.1")
            await behindProxy.shutdown()
            await direct.shutdown()
        }

        @Test func clientsStalledInTheirRequestDoNotStopOthersBeingServed() async throws {
            // Given: fifty connections that sent half a request head and then nothing (the longest
            // request timeout, so that however slow a busy machine is, none is closed for its time)
            let server = try ServerServiceMicroHTTPD(log: .silent).start(
                Self.configuration(requestTimeout: 3600), handler: Self.routes().handler)
            // (Connecting and sending a few bytes on loopback does not block.)
            let stalled = try (0..<50).map { _ in
                let client = try RawClient(port: server.port)
                try client.send("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                return client
            }
            // When
            let normal = try await get(server, Self.makkah)
            let stillOpen = stalled.filter { !$0.isClosedByPeer() }.count
            await server.shutdown()
            // Then
            #expect(normal.status == 200)
            #expect(stillOpen == 50)
        }

        @Test func aClientTooSlowToSendItsRequestIsDisconnected() async throws {
            // Given: a one-second request timeout
            let memory = LogServiceMemory()
            let server = try ServerServiceMicroHTTPD(log: LogManager(services: [memory], minLevel: .debug)).start(
                Self.configuration(requestTimeout: 1), handler: Self.routes().handler)
            let port = server.port
            // When: a client sends its head a byte at a time, for as long as the server keeps it (bounded,
            // should the server never end it)
            let outcome = try await TestThread.run {
                let client = try RawClient(port: port)
                for byte in Array("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
                    + Array(repeating: 97, count: 20_000)
                {
                    guard (try? client.send([byte])) != nil, !client.isClosedByPeer() else { return "disconnected" }
                    usleep(10_000)
                }
                return "never disconnected"
            }
            await server.shutdown()
            // Then: the server ended the connection, and says so
            #expect(outcome == "disconnected")
            #expect(memory.events.contains { $0.message == "Slow clients disconnected" })
        }

        @Test func shutdownLetsTheRequestInProgressFinish() async throws {
            // Given: a handler that holds /slow until the test releases it
            let events = Mutex<[String]>([])
            let release = DispatchSemaphore(value: 0)
            let memory = LogServiceMemory()
            let log = LogManager(services: [memory], minLevel: .notice)
            let server = try ServerServiceMicroHTTPD(log: log).start(Self.configuration()) { request in
                guard request.path == "/slow" else { return ServerAPI.Response(status: 200) }
                events.withLock { $0.append("handler began") }
                release.wait()
                events.withLock { $0.append("handler finished") }
                return ServerAPI.Response(status: 200, body: Data(repeating: 65, count: 100_000))
            }
            let client = Task { try await get(server, "/slow") }
            try await Self.waitFor { events.withLock { $0.contains("handler began") } }
            // When: the server is told to stop while /slow is in progress
            let stop = Task {
                await server.shutdown()
                events.withLock { $0.append("shutdown returned") }
            }
            try await Self.waitFor { memory.events.contains { $0.message == "Server draining" } }
            events.withLock { $0.append("draining") }
            release.signal()
            let response = try await client.value
            events.withLock { $0.append("client got \(response.status), \(response.body.count) bytes") }
            await stop.value
            // Then: the request finished, whole, before the server stopped; then nothing is served
            let order = events.withLock { $0 }
            #expect(
                order == [
                    "handler began", "draining", "handler finished", "client got 200, 100000 bytes",
                    "shutdown returned",
                ]
                    || order == [
                        "handler began", "draining", "handler finished", "shutdown returned",
                        "client got 200, 100000 bytes",
                    ], "\(order)")
            await #expect(throws: NetworkError.self) { try await get(server, "/status") }
            #expect(memory.events.map(\.message).suffix(2) == ["Server draining", "Server stopped"])
        }

        @Test func aHostThatIsNotAnAddressIsRefused() {
            var configuration = Self.configuration()
            configuration.host = "example.com"
            #expect(throws: ServerError.self) {
                _ = try ServerServiceMicroHTTPD(log: .silent).start(configuration) { _ in
                    ServerAPI.Response(status: 200)
                }
            }
            configuration.host = "127.0.0.1"
            configuration.threads = 0
            #expect(throws: ServerError(.invalidConfiguration, message: "threads must be between 1 and 256, got 0")) {
                _ = try ServerServiceMicroHTTPD(log: .silent).start(configuration) { _ in
                    ServerAPI.Response(status: 200)
                }
            }
        }

        /// Waits for an event seen on another thread. `limit` only keeps a broken server from hanging the
        /// run; it measures nothing.
        static func waitFor(limit: TimeInterval = 120, _ condition: @Sendable () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(limit)
            while !condition() {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the event did not happen")
                    return
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// A blocking HTTP/1.1 client on one socket, for requests the libcurl client will not send.
    final class RawClient {
        private let socket: Int32
        private var buffer = Data()

        init(port: Int) throws {
            guard let socket = Loopback.connect(port: port) else { throw POSIXError(.ECONNREFUSED) }
            self.socket = socket
        }

        deinit {
            close(socket)
        }

        func send(_ text: String) throws {
            try send(Array(text.utf8))
        }

        func send(_ bytes: [UInt8]) throws {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { buffer in
                    #if canImport(Glibc)
                        Glibc.send(socket, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                    #else
                        Darwin.send(socket, buffer.baseAddress, buffer.count, 0)
                    #endif
                }
                guard sent > 0 else { throw POSIXError(.EPIPE) }
                offset += sent
            }
        }

        /// Whether the server has closed its end (a read would return end of file), without blocking.
        func isClosedByPeer() -> Bool {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return false }
            var byte: UInt8 = 0
            return recv(socket, &byte, 1, Int32(MSG_PEEK)) <= 0
        }

        /// Waits until the server closes its end (a read returns end of file, or the connection is reset),
        /// reading and dropping anything it sends first. `limit` only keeps a server that never closes from
        /// hanging the run; it measures nothing.
        func waitUntilClosed(limit: TimeInterval = 60) -> Bool {
            let deadline = Date().addingTimeInterval(limit)
            while Date() < deadline {
                var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 100) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                if recv(socket, &chunk, chunk.count, 0) <= 0 { return true }
            }
            return false
        }

        /// Reads one response: status line, header fields, and `Content-Length` bytes of body.
        func readResponse() throws -> (status: Int, body: Data) {
            let separator = Data("\r\n\r\n".utf8)
            while buffer.range(of: separator) == nil { try fill() }
            guard let end = buffer.range(of: separator) else { throw POSIXError(.EPROTO) }
            let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
            let lines = head.components(separatedBy: "\r\n")
            let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
            let length =
                lines.dropFirst().compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                    return Int(parts[1].trimmingCharacters(in: .whitespaces))
                }.first ?? 0
            while buffer.count < end.upperBound + length { try fill() }
            let body = buffer[end.upperBound..<(end.upperBound + length)]
            buffer = Data(buffer[(end.upperBound + length)...])
            return (status, Data(body))
        }

        private func fill() throws {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { throw POSIXError(.ECONNRESET) }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
#endif
