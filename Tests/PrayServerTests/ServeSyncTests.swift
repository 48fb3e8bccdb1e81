// The server is libmicrohttpd, a Linux dependency of PrayServer (Package.swift).
#if canImport(CMicroHTTPD)
    import Foundation
    import PrayCore
    import PrayMocks
    import PrayServer
    import PrayServices
    import Synchronization
    import Testing

    /// `praykit serve --sync-store` as the container wires it, on a real libmicrohttpd server on a
    /// loopback port: the AlAdhan routes and the sync endpoints side by side, request bodies and the
    /// peer's address delivered by the server layer, the body limit, and `/sync/` on a server that does
    /// not sync. Order of events, never durations.
    @Suite(.tags(.server, .concurrency), .needsMicroHTTPD) struct ServeSyncTests {
        static let client = "c_0123456789abcdef0123456789abcdef"
        static let otherClient = "c_fedcba9876543210fedcba9876543210"

        /// A store in a folder of its own and a server answering with the combined routes over it.
        final class Harness: Sendable {
            let folder: URL
            let store: SyncStoreSQLite
            let server: any RunningServer

            init(syncing: Bool = true) throws {
                folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "praykit-serve-sync-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                store = SyncStoreSQLite(path: folder.appendingPathComponent("store/sync.sqlite").path, log: .silent)
                let sync = SyncRoutes(store: store, clock: PrayClockSystem(), log: .silent)
                let routes = ServerRoutesCombined(api: ServerTests.routes(), sync: syncing ? sync : nil)
                server = try ServerServiceMicroHTTPD(log: .silent).start(
                    ServerTests.configuration(bodyLimit: SyncAPI.maximumBodyBytes), handler: routes.handler)
            }

            deinit { try? FileManager.default.removeItem(at: folder) }

            /// POSTs a JSON object over real HTTP (libcurl) and reads the JSON object of the answer.
            func post(_ path: String, _ object: Any, token: String? = nil) async throws -> (
                status: Int, json: [String: Any]
            ) {
                var headers = ["Content-Type": "application/json"]
                if let token { headers["Authorization"] = "Bearer \(token)" }
                let url = try #require(URL(string: server.url.absoluteString + path))
                let response = try await ServerTests.network.send(
                    HTTPRequest(
                        method: .post, url: url, headers: headers,
                        body: try JSONSerialization.data(withJSONObject: object), acceptedStatuses: 200..<600))
                return (
                    response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
                )
            }
        }

        @Test func twoDevicesPairPushAndPullThroughRealPostBodies() async throws {
            // Given: a user with a code for each of two devices
            let harness = try Harness()
            let first = try harness.store.addUser(named: "amina", now: Date())
            let second = try harness.store.newPairingCode(forUser: "amina", now: Date())
            // When: both pair over HTTP, the phone pushes a record, the laptop pulls
            let phone = try await harness.post("/sync/v1/devices", ["code": first.code, "deviceName": "phone"])
            let laptop = try await harness.post("/sync/v1/devices", ["code": second.code, "deviceName": "laptop"])
            let phoneToken = try #require(phone.json["token"] as? String)
            let laptopToken = try #require(laptop.json["token"] as? String)
            let push: [String: Any] = [
                "protocol": 1, "schema": 1, "clientID": Self.client,
                "mutations": [
                    [
                        "id": 1, "collection": "log", "key": "2026-12-01/fajr", "op": "put",
                        "hlc": "001795953600000:0000:\(Self.client)",
                        "value": ["status": "qada", "recordedAt": "2026-12-01T05:41:12.345Z", "note": "after work"],
                    ]
                ],
            ]
            let pushed = try await harness.post("/sync/v1/push", push, token: phoneToken)
            let pulled = try await harness.post(
                "/sync/v1/pull",
                ["protocol": 1, "schema": 1, "clientID": Self.otherClient, "cursor": "0", "limit": 100],
                token: laptopToken)
            let unauthenticated = try await harness.post(
                "/sync/v1/pull",
                ["protocol": 1, "schema": 1, "clientID": Self.otherClient, "cursor": "0", "limit": 100])
            await harness.server.shutdown()
            // Then: 201 for each pairing, the push acknowledged, the row on the other device
            #expect(phone.status == 201 && laptop.status == 201)
            #expect(phone.json["user"] as? String == "amina")
            #expect(pushed.status == 200 && pushed.json["lastMutationID"] as? Int == 1)
            #expect(pulled.status == 200 && pulled.json["hasMore"] as? Bool == false, "\(pulled.json)")
            let rows = try #require(pulled.json["rows"] as? [[String: Any]])
            #expect(rows.count == 1)
            #expect(rows.first?["key"] as? String == "2026-12-01/fajr")
            let value = rows.first?["value"] as? [String: Any]
            #expect(value?["status"] as? String == "qada" && value?["note"] as? String == "after work")
            #expect(unauthenticated.status == 401 && unauthenticated.json["error"] as? String == "unauthorized")
            // And the store knows both devices, each seen
            let devices = try harness.store.devices()
            #expect(Set(devices.map(\.name)) == ["phone", "laptop"])
            #expect(devices.allSatisfy { $0.lastSeen != nil })
        }

        @Test func theHandlerGetsEachPostBodyAndThePeersAddressOnOneConnection() async throws {
            // Given: a handler that records what it receives
            let received = Mutex<[(method: String, body: Data, address: String)]>([])
            let server = try ServerServiceMicroHTTPD(log: .silent).start(ServerTests.configuration()) { request in
                received.withLock { $0.append((request.method, request.body, request.remoteAddress)) }
                return ServerAPI.Response(status: 200, body: Data("\(request.body.count)".utf8))
            }
            let port = server.port
            // When: on one connection, a POST with Content-Length, a chunked POST, and a GET with a body
            let answers = try await TestThread.run {
                let client = try RawClient(port: port)
                try client.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world")
                let first = try client.readResponse()
                try client.send(
                    "POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\n{\"a\":\r\n3\r\n42}\r\n0\r\n\r\n")
                let second = try client.readResponse()
                try client.send("GET /c HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nskip")
                let third = try client.readResponse()
                return [first, second, third].map { "\($0.status) \(String(decoding: $0.body, as: UTF8.self))" }
            }
            await server.shutdown()
            // Then: each answered on the same connection; the bodies whole, the GET's dropped; the peer's
            // address as text
            #expect(answers == ["200 11", "200 8", "200 0"])
            let requests = received.withLock { $0 }
            #expect(requests.map(\.method) == ["POST", "POST", "GET"])
            #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == ["hello world", #"{"a":42}"#, ""])
            #expect(requests.allSatisfy { $0.address == "127.0.0.1" })
        }

        @Test func aSyncBodyOverTwoMebibytesGets413InTheProtocolsShape() async throws {
            // Given
            let harness = try Harness()
            let port = harness.server.port
            // When: a push that declares one byte more than the limit, and one whose chunks grow past it
            let declared = try await TestThread.run {
                let client = try RawClient(port: port)
                try client.send(
                    "POST /sync/v1/push HTTP/1.1\r\nHost: x\r\nContent-Length: \(SyncAPI.maximumBodyBytes + 1)\r\n\r\n")
                let response = try client.readResponse()
                return (response.status, response.body, client.waitUntilClosed())
            }
            let chunked = try await TestThread.run {
                let client = try RawClient(port: port)
                try client.send("POST /sync/v1/push HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                let chunk = "100000\r\n" + String(repeating: "a", count: 0x100000) + "\r\n"
                for _ in 0..<3 { try? client.send(chunk) }
                try? client.send("0\r\n\r\n")
                return (try? client.readResponse().status) ?? 0
            }
            await harness.server.shutdown()
            // Then: 413 with {"error": "too_large"} before the body is read, and the connection closed;
            // the chunked body ends its connection unanswered
            #expect(declared.0 == 413)
            let json = (try? JSONSerialization.jsonObject(with: declared.1)) as? [String: Any]
            #expect(json?["error"] as? String == "too_large")
            #expect(declared.2)
            #expect(chunked == 0)
        }

        @Test func theAlAdhanRoutesStillAnswerBesideSync() async throws {
            // Given
            let harness = try Harness()
            // When
            let url = try #require(URL(string: harness.server.url.absoluteString + ServerTests.makkah))
            let timings = try await ServerTests.network.send(HTTPRequest(url: url))
            let status = try await ServerTests.network.send(
                HTTPRequest(url: try #require(URL(string: harness.server.url.absoluteString + "/status"))))
            await harness.server.shutdown()
            // Then: the AlAdhan routes' own answers
            #expect(
                timings.status == 200
                    && timings.body == ServerTests.routes().respond(to: .init(target: ServerTests.makkah)).body)
            let object = try JSONSerialization.jsonObject(with: status.body) as? [String: Any]
            #expect(object?["code"] as? Int == 200)
        }

        @Test func syncOnAServerWithoutAStoreIsA404InJSON() async throws {
            // Given: the combined routes without sync
            let harness = try Harness(syncing: false)
            // When
            let pushed = try await harness.post("/sync/v1/push", ["protocol": 1], token: "pkd_x")
            let pair = try await harness.post("/sync/v1/devices", ["code": "ABCDE-FGHJK", "deviceName": "phone"])
            await harness.server.shutdown()
            // Then: 404 {"error": "not_found", "message": "This server does not sync…"}
            for answer in [pushed, pair] {
                #expect(answer.status == 404)
                #expect(answer.json["error"] as? String == "not_found")
                #expect((answer.json["message"] as? String)?.contains("does not sync") == true)
            }
        }
    }
#endif
