// The server is libmicrohttpd, a Linux dependency of PrayServer (Package.swift).
#if canImport(CMicroHTTPD)
    import Foundation
    import PrayCore
    import PrayMocks
    import Synchronization
    import Testing

    @testable import PrayServer

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// What every answer of `praykit serve` carries, how often what clients cause reaches the log
    /// (counted on an injected clock), and connections counted per client, an IPv6 client by its /64.
    @Suite(.needsMicroHTTPD) struct ServerHardeningTests {
        /// Sends `request` on a new connection and reads until the server closes it: the status and the
        /// header fields (names in lower case) of each response.
        static func exchange(_ request: String, port: Int) async throws -> [(status: Int, headers: [String: String])] {
            let text = try await TestThread.run {
                guard let socket = Loopback.connect(port: port) else { throw POSIXError(.ECONNREFUSED) }
                defer { close(socket) }
                let bytes = Array(request.utf8)
                var offset = 0
                while offset < bytes.count {
                    let sent = bytes[offset...].withUnsafeBytes {
                        send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    guard sent > 0 else { break }
                    offset += sent
                }
                var received = Data()
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = recv(socket, &chunk, chunk.count, 0)
                    guard count > 0 else { break }
                    received.append(contentsOf: chunk[0..<count])
                }
                return String(decoding: received, as: UTF8.self)
            }
            return text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { response in
                let head = response.components(separatedBy: "\r\n\r\n").first ?? ""
                let lines = head.components(separatedBy: "\r\n")
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2 {
                        headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
                    }
                }
                return (Int(lines.first?.prefix(3) ?? "") ?? 0, headers)
            }
        }

        @Test func everyAnswerSaysNosniff() async throws {
            // Given: the AlAdhan routes, and a handler that sets the field itself
            let routes = ServerTests.routes()
            let server = try ServerServiceMicroHTTPD(log: .silent).start(ServerTests.configuration()) { request in
                if request.path == "/own" {
                    return ServerAPI.Response(status: 200, headers: ["x-content-type-options": "nosniff"])
                }
                return routes.respond(to: request)
            }
            let port = server.port
            // When: answers of every kind — found, not found, HEAD, a refused framing, a body too large,
            // a target too long
            let requests = [
                "GET /status HTTP/1.1\r\nHost: x\r\n\r\n", "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n",
                "HEAD /status HTTP/1.1\r\nHost: x\r\n\r\n", "GET /status HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
                "POST /status HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
                "GET /\(String(repeating: "a", count: 17_000)) HTTP/1.1\r\nHost: x\r\n\r\n",
            ]
            var answers: [(status: Int, headers: [String: String])] = []
            for request in requests {
                answers += try await Self.exchange(
                    request.replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n"), port: port)
            }
            let own = try await Self.exchange("GET /own HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            await server.shutdown()
            // Then: each carries X-Content-Type-Options: nosniff, once
            #expect(answers.map(\.status) == [200, 404, 200, 400, 413, 414])
            for answer in answers + own {
                #expect(answer.headers["x-content-type-options"] == "nosniff", "\(answer.status)")
            }
        }

        @Test func whatClientsCauseIsLoggedOnceAMinuteWithTheCountLeftOut() async throws {
            // Given: a server on a clock that stands still, logging at info
            let memory = LogServiceMemory()
            let clock = PrayClockFake()
            let server = try ServerServiceMicroHTTPD(log: LogManager(services: [memory], minLevel: .info), clock: clock)
                .start(ServerTests.configuration(), handler: ServerTests.routes().handler)
            let port = server.port
            let malformed = "POST /status HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\nConnection: close\r\n\r\n"
            @Sendable func warnings() -> [LogEvent] { memory.events.filter { $0.level >= .warning } }
            // When: 20 requests with a malformed Content-Length (the review saw 151 warnings in a run)
            for _ in 0..<20 { _ = try await Self.exchange(malformed, port: port) }
            try await ServerTests.waitFor { !warnings().isEmpty }
            let withinTheMinute = warnings().count
            // Then, a minute later, one more
            clock.advance(by: 61)
            _ = try await Self.exchange(malformed, port: port)
            try await ServerTests.waitFor { warnings().count > withinTheMinute }
            await server.shutdown()
            // Then: one warning in the first minute; the next says how many were left out
            #expect(withinTheMinute == 1, "\(warnings().map(\.metadata))")
            let all = warnings()
            #expect(all.count == 2)
            #expect(all.first?.metadata["log.suppressed"] == "0" && all.last?.metadata["log.suppressed"] == "19")
            #expect(memory.events.last?.metadata["server.logLinesSuppressed"].map { Int($0) ?? 0 } ?? 0 >= 19)
        }

        @Test func aHandlerSlowerThanTheRequestTimeoutStillAnswers() async throws {
            // Given: a one-second deadline for a request, and a handler that holds /slow until released
            let memory = LogServiceMemory()
            let release = DispatchSemaphore(value: 0)
            let began = Mutex(false)
            let server = try ServerServiceMicroHTTPD(log: LogManager(services: [memory], minLevel: .debug)).start(
                ServerTests.configuration(requestTimeout: 1)
            ) { request in
                guard request.path == "/slow" else { return ServerAPI.Response(status: 200) }
                began.withLock { $0 = true }
                release.wait()
                return ServerAPI.Response(status: 200, body: Data("done".utf8))
            }
            let port = server.port
            // When: /slow is in its handler, then an idle connection opens and is cut off by the deadline
            // sweep (so the request's own deadline, which began earlier, has passed too)
            let answer = Task {
                try await Self.exchange("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            }
            try await ServerTests.waitFor { began.withLock { $0 } }
            let idle = try RawClient(port: port)
            try await ServerTests.waitFor { memory.events.contains { $0.message == "Slow clients disconnected" } }
            #expect(idle.waitUntilClosed())
            release.signal()
            let responses = try await answer.value
            await server.shutdown()
            // Then: the request being answered was not cut off: the time its handler takes is not the
            // client's
            #expect(responses.map(\.status) == [200])
        }

        @Test func refusalsAreLoggedOncePerKindAndAddress() throws {
            // Given: a throttle on a clock that stands still
            let clock = PrayClockFake()
            let throttle = ServerLogThrottle(clock: clock, interval: 60, maximumKeys: 3)
            // Then: one line per kind and address in a minute; spellings of one address and a /64 are one
            #expect(throttle.admit("refused 400", address: "203.0.113.1") == 0)
            #expect(throttle.admit("refused 400", address: "::ffff:203.0.113.1") == nil)
            #expect(throttle.admit("refused 400", address: "2001:db8:1:2::1") == 0)
            #expect(throttle.admit("refused 400", address: "2001:db8:1:2::99") == nil)
            #expect(throttle.admit("refused 431", address: "203.0.113.1") == 0)
            // A full table shares one key among the addresses of a kind
            #expect(throttle.admit("refused 400", address: "198.51.100.7") == 0)
            #expect(throttle.admit("refused 400", address: "198.51.100.8") == nil)
            clock.advance(by: 60)
            #expect(throttle.admit("refused 400", address: "203.0.113.1") == 1)
            #expect(throttle.totalSuppressed == 3)
        }

        @Test func connectionsAreCountedPerClientAndAnIPv6ClientByItsSlash64() {
            // Given: two connections a client
            let counts = ServerConnectionCounts(limit: 2)
            let first = counts.opened("2001:db8:1:2::1")
            let second = counts.opened("2001:db8:1:2::2")
            // Then: a third address of the same /64 is not taken, another /64 is; IPv4 spellings are one
            #expect(first.withinLimit && second.withinLimit)
            #expect(!counts.admits("2001:db8:1:2:ffff::3"))
            #expect(counts.admits("2001:db8:1:3::1"))
            _ = counts.opened("203.0.113.1")
            _ = counts.opened("::ffff:203.0.113.1")
            #expect(!counts.admits("203.0.113.1") && counts.count("0:0:0:0:0:ffff:cb00:7101") == 2)
            // Two accepted at once: the later is over the limit
            #expect(!counts.opened("2001:db8:1:2::4").withinLimit)
            // Closing frees a place
            counts.closed(first.key)
            counts.closed(first.key)
            #expect(counts.admits("2001:db8:1:2::5"))
            #expect(ServerConnectionCounts(limit: 0).admits("2001:db8:1:2::1"))
        }
    }
#endif
