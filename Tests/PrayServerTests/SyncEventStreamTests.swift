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
    #endif

    /// `GET /sync/v1/events` on a real libmicrohttpd server (SYNC.md §9): the versions a stream starts
    /// with, an event for another device's push and none for the device's own, pings, the end of the
    /// stream when its device retires, the oldest stream ended past the limit per device, and a server
    /// that stops with streams open. Order of events, never durations: a read waits for what it expects
    /// (with a generous guard against a hang).
    @Suite(.tags(.server, .concurrency), .needsMicroHTTPD) struct SyncEventStreamTests {
        static let client = "c_0123456789abcdef0123456789abcdef"

        final class Harness: Sendable {
            let folder: URL
            let store: SyncStoreSQLite
            let routes: SyncRoutes
            let server: any RunningServer
            let tokens: [String]

            init(devices: Int = 2, pingInterval: TimeInterval = 25) throws {
                folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "praykit-events-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                store = SyncStoreSQLite(path: folder.appendingPathComponent("sync.sqlite").path, log: .silent)
                routes = SyncRoutes(store: store, clock: PrayClockSystem(), log: .silent, pingInterval: pingInterval)
                var tokens: [String] = []
                var code = try store.addUser(named: "amina", now: Date()).code
                for index in 0..<devices {
                    if index > 0 { code = try store.newPairingCode(forUser: "amina", now: Date()).code }
                    let paired = try store.pair(
                        SyncAPI.PairRequest(code: code, deviceName: "device \(index)"), address: "127.0.0.1",
                        now: Date())
                    tokens.append(paired.token)
                }
                self.tokens = tokens
                let combined = ServerRoutesCombined(api: ServerTests.routes(), sync: routes)
                server = try ServerServiceMicroHTTPD(log: .silent).start(
                    ServerTests.configuration(bodyLimit: SyncAPI.maximumBodyBytes), handler: combined.handler)
            }

            deinit { try? FileManager.default.removeItem(at: folder) }

            /// Pushes one log record as the device of `token`, through the routes.
            func push(token: String, day: Int) throws -> Int {
                let body: [String: Any] = [
                    "protocol": 2, "schema": 3, "clientID": SyncEventStreamTests.client,
                    "mutations": [
                        [
                            "id": day, "collection": "log", "key": String(format: "2026-12-%02d/fajr", day),
                            "op": "put",
                            "hlc": String(format: "001795953600%03d:0000:", day) + SyncEventStreamTests.client,
                            "value": ["status": "prayed", "recordedAt": "2026-12-01T05:41:12.345Z"],
                        ]
                    ],
                ]
                let response = routes.respond(
                    to: ServerAPI.Request(
                        method: "POST", path: "/sync/v1/push", query: [:],
                        headers: ["authorization": "Bearer \(token)", "content-type": "application/json"],
                        body: try JSONSerialization.data(withJSONObject: body), remoteAddress: "127.0.0.1"))
                return response.status
            }

            /// A POST through the routes, for the status alone.
            func post(_ path: String, token: String) -> Int {
                routes.respond(
                    to: ServerAPI.Request(
                        method: "POST", path: path, query: [:], headers: ["authorization": "Bearer \(token)"],
                        body: Data("{}".utf8), remoteAddress: "127.0.0.1")
                ).status
            }
        }

        /// An event stream read from a raw socket.
        final class Stream: @unchecked Sendable {
            private let socket: Int32
            private(set) var text = ""

            init(port: Int, token: String) throws {
                guard let socket = Loopback.connect(port: port) else { throw POSIXError(.ECONNREFUSED) }
                self.socket = socket
                var timeout = timeval(tv_sec: 1, tv_usec: 0)
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let head = "GET /sync/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
                _ = head.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            }

            deinit { close(socket) }

            /// Reads until `condition` holds of everything read, the stream ends, or a minute passes
            /// (a guard against a hang, not a measure). Returns whether the condition holds.
            func read(until condition: @escaping @Sendable (String) -> Bool) async throws -> Bool {
                try await TestThread.run { [self] in
                    let guardTime = Date().addingTimeInterval(60)
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while !condition(text), Date() < guardTime {
                        let count = recv(socket, &buffer, buffer.count, 0)
                        if count == 0 { break }
                        if count > 0 { text += String(decoding: buffer[0..<count], as: UTF8.self) }
                    }
                    return condition(text)
                }
            }

            /// Whether the server ended the response: the last chunk of a chunked body, or the connection
            /// closed.
            func readEnd() async throws -> Bool {
                try await read { $0.hasSuffix("0\r\n\r\n") }
            }

            /// The `space` events read so far, as `space=version`.
            var events: [String] {
                text.matches(of: /"space":"(s_[0-9a-f]+)","version":"([^"]+)"/).map { "\($0.1)=\($0.2)" }
            }
        }

        @Test func aStreamStartsWithTheVersionsAndHearsAnotherDevicesPushOnly() async throws {
            let harness = try Harness()
            let laptop = try Stream(port: harness.server.port, token: harness.tokens[1])
            #expect(try await laptop.read { $0.contains("event: space") })
            #expect(laptop.text.hasPrefix("HTTP/1.1 200"))
            #expect(laptop.text.lowercased().contains("content-type: text/event-stream"))
            #expect(laptop.text.contains("retry: 5000"))
            let start = try #require(laptop.events.first)
            #expect(start.hasSuffix(".0"))
            // The phone pushes: the laptop hears the new version of the personal space, and nothing else.
            #expect(try harness.push(token: harness.tokens[0], day: 1) == 200)
            #expect(try await laptop.read { $0.matches(of: /event: space/).count == 2 })
            #expect(laptop.events.count == 2 && laptop.events[1].hasSuffix(".1"))
            #expect(laptop.events[0].split(separator: "=")[0] == laptop.events[1].split(separator: "=")[0])
            #expect(!laptop.text.contains("\"version\":\"\"") && !laptop.text.contains("pkd_"))
            // The phone's own stream does not hear its own push.
            let phone = try Stream(port: harness.server.port, token: harness.tokens[0])
            #expect(try await phone.read { $0.contains("event: space") })
            #expect(try harness.push(token: harness.tokens[0], day: 2) == 200)
            #expect(try await laptop.read { $0.matches(of: /event: space/).count == 3 })
            // Everything written to the phone's stream comes before its end.
            #expect(harness.post("/sync/v1/devices/retire", token: harness.tokens[0]) == 200)
            #expect(try await phone.readEnd())
            #expect(phone.events.count == 1, "\(phone.events)")
        }

        @Test func aRetiredDevicesStreamEndsAndItsTokenNoLongerOpensOne() async throws {
            let harness = try Harness()
            let phone = try Stream(port: harness.server.port, token: harness.tokens[0])
            #expect(try await phone.read { $0.contains("event: space") })
            #expect(harness.post("/sync/v1/devices/retire", token: harness.tokens[0]) == 200)
            #expect(try await phone.readEnd())
            let again = try Stream(port: harness.server.port, token: harness.tokens[0])
            #expect(try await again.read { $0.contains("\r\n\r\n") })
            #expect(again.text.hasPrefix("HTTP/1.1 401"))
            #expect(harness.routes.openStreams == 0)
        }

        @Test func pingsKeepTheStreamAndEndTheOnesOfDevicesRevokedElsewhere() async throws {
            let harness = try Harness(pingInterval: 0.05)
            let phone = try Stream(port: harness.server.port, token: harness.tokens[0])
            #expect(try await phone.read { $0.contains(": ping ") })
            // The operator revokes the device from another process: the next ping ends its stream.
            let device = try #require(try harness.store.devices().first { $0.name == "device 0" })
            try harness.store.revokeDevice(device.id, now: Date())
            #expect(try await phone.readEnd())
        }

        @Test func aFifthStreamOfOneDeviceEndsItsOldest() async throws {
            let harness = try Harness(devices: 1)
            var streams: [Stream] = []
            for _ in 0..<4 {
                let stream = try Stream(port: harness.server.port, token: harness.tokens[0])
                #expect(try await stream.read { $0.contains("event: space") })
                streams.append(stream)
            }
            let fifth = try Stream(port: harness.server.port, token: harness.tokens[0])
            #expect(try await fifth.read { $0.contains("event: space") })
            #expect(try await streams[0].readEnd())
            #expect(harness.routes.openStreams == 4)
        }

        @Test func aServerStopsWithStreamsOpenAndEndsThem() async throws {
            let harness = try Harness()
            let streams = try (0..<3).map { _ in try Stream(port: harness.server.port, token: harness.tokens[1]) }
            for stream in streams { #expect(try await stream.read { $0.contains("event: space") }) }
            await harness.server.shutdown()
            for stream in streams { #expect(try await stream.readEnd()) }
        }
    }
#endif
