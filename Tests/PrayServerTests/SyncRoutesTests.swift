import Foundation
import PrayCore
import PrayMocks
import PrayServer
import Testing

/// The `/sync/v1/` routes as a plain function, without sockets: every route and status, the
/// headers of every answer, tokens only from `Authorization`, never in a log, and no trap on any body.
@Suite(.tags(.concurrency)) struct SyncRoutesTests {
    /// 2026-11-29 12:00:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_953_600)
    static let client = "c_0123456789abcdef0123456789abcdef"
    static let otherClient = "c_fedcba9876543210fedcba9876543210"

    /// A store in a folder of its own, the routes on it, a clock that stands still and a log that
    /// keeps every event.
    final class Harness: Sendable {
        let folder: URL
        let store: SyncStoreSQLite
        let clock = PrayClockFake(now: SyncRoutesTests.now)
        let memory = LogServiceMemory()
        let routes: SyncRoutes

        init(limits: SyncStoreLimits = .standard, requestsPerMinute: Int = 10_000) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let log = LogManager(services: [memory], minLevel: .trace)
            store = SyncStoreSQLite(path: folder.appendingPathComponent("sync.sqlite").path, limits: limits, log: log)
            routes = SyncRoutes(store: store, clock: clock, log: log, requestsPerMinute: requestsPerMinute)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// Sends `body` to `path` and reads the JSON object of the answer.
        func send(
            _ path: String, _ body: Data, method: String = "POST", token: String? = nil,
            headers: ServerAPI.Fields = [:], address: String = "192.0.2.7"
        ) -> (response: ServerAPI.Response, json: [String: Any]) {
            var headers = headers
            if let token { headers["Authorization"] = "Bearer \(token)" }
            let response = routes.respond(
                to: ServerAPI.Request(method: method, target: path, headers: headers), body: body,
                remoteAddress: address)
            let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
            return (response, json)
        }

        /// Sends a JSON object.
        func send(
            _ path: String, json object: Any, token: String? = nil, address: String = "192.0.2.7"
        ) throws -> (response: ServerAPI.Response, json: [String: Any]) {
            send(path, try JSONSerialization.data(withJSONObject: object), token: token, address: address)
        }

        /// Sends an encodable value.
        func send(
            _ path: String, _ value: some Encodable, token: String? = nil
        ) throws -> (response: ServerAPI.Response, json: [String: Any]) {
            send(path, try JSONEncoder().encode(value), token: token)
        }

        /// Adds a user (once) and pairs a device through the route; returns its token.
        func pairedToken(user: String = "amina", name: String = "phone") throws -> String {
            let code =
                try store.users().contains { $0.name == user }
                ? store.newPairingCode(forUser: user, now: SyncRoutesTests.now)
                : store.addUser(named: user, now: SyncRoutesTests.now)
            let (response, json) = try send("/sync/v1/devices", json: ["code": code.code, "deviceName": name])
            #expect(response.status == 201)
            return json["token"] as? String ?? ""
        }

        /// Every log event as one text: message and metadata.
        var loggedText: String {
            memory.events.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        }
    }

    static func put(_ id: Int, _ key: String = "2026-12-01/fajr", at milliseconds: Int64 = 0, note: String? = nil)
        throws
        -> SyncAPI.Mutation
    {
        SyncAPI.Mutation(
            id: id, collection: .log, key: key, op: .put,
            hlc: try HLC(milliseconds: 1_795_953_600_000 + milliseconds, counter: 0, clientID: client),
            value: .log(SyncLogValue(status: .prayed, recordedAt: now, note: note)))
    }

    /// Checks the headers every answer carries, and that no CORS header is among them.
    func expectSyncHeaders(_ response: ServerAPI.Response, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.headers["Content-Type"] == "application/json", sourceLocation: sourceLocation)
        #expect(response.headers["Cache-Control"] == "no-store", sourceLocation: sourceLocation)
        #expect(
            !response.headers.keys.contains { $0.lowercased().hasPrefix("access-control") },
            sourceLocation: sourceLocation)
    }

    // MARK: - Routes

    @Test func pairPushAndPull() throws {
        // Given
        let harness = try Harness()
        let code = try harness.store.addUser(named: "amina", now: Self.now)
        // When: paired
        let (paired, pairJSON) = try harness.send("/sync/v1/devices", json: ["code": code.code, "deviceName": "phone"])
        // Then: 201 with the token, device and user
        #expect(paired.status == 201)
        expectSyncHeaders(paired)
        let token = try #require(pairJSON["token"] as? String)
        #expect(token.hasPrefix("pkd_") && (pairJSON["deviceID"] as? String)?.hasPrefix("d_") == true)
        #expect(pairJSON["user"] as? String == "amina")
        // When: a push, with unknown fields the server ignores
        let push: [String: Any] = [
            "protocol": 1, "schema": 1, "clientID": Self.client, "future": ["x": 1],
            "mutations": [
                [
                    "id": 1, "collection": "log", "key": "2026-12-01/fajr", "op": "put", "extra": true,
                    "hlc": "001795953600000:0000:\(Self.client)",
                    "value": ["status": "qada", "recordedAt": "2026-12-01T05:41:12.345Z", "note": NSNull()],
                ],
                [
                    "id": 2, "collection": "log", "key": "2026-11-30/isha", "op": "delete",
                    "hlc": "001795953600001:0000:\(Self.client)",
                ],
            ],
        ]
        let (pushed, pushJSON) = try harness.send("/sync/v1/push", json: push, token: token)
        #expect(pushed.status == 200)
        expectSyncHeaders(pushed)
        #expect(pushJSON["lastMutationID"] as? Int == 2 && (pushJSON["rejected"] as? [Any])?.isEmpty == true)
        #expect(pushJSON["serverTime"] as? String == "2026-11-29T12:00:00.000Z")
        // When: a pull
        let pull = ["protocol": 1, "schema": 1, "clientID": Self.client, "cursor": "0", "limit": 1000] as [String: Any]
        let (pulled, pullJSON) = try harness.send("/sync/v1/pull", json: pull, token: token)
        // Then: both rows, a cursor, the last mutation
        #expect(pulled.status == 200)
        expectSyncHeaders(pulled)
        let rows = try #require(pullJSON["rows"] as? [[String: Any]])
        #expect(rows.map { $0["key"] as? String } == ["2026-11-30/isha", "2026-12-01/fajr"])
        #expect(rows[0]["deleted"] as? Bool == true && rows[0]["value"] is NSNull)
        #expect((rows[1]["value"] as? [String: Any])?["status"] as? String == "qada")
        #expect(pullJSON["hasMore"] as? Bool == false && pullJSON["lastMutationID"] as? Int == 2)
        #expect((pullJSON["cursor"] as? String)?.hasSuffix(".1") == true)
    }

    @Test func wrongRoutesAndMethods() throws {
        let harness = try Harness()
        // 404 for any other path, in JSON
        for path in ["/sync/v1/other", "/sync/v2/push", "/sync/v1/push/", "/sync/", "/sync/v1/pkd_secret"] {
            let (response, json) = harness.send(path, Data("{}".utf8))
            #expect(response.status == 404 && json["error"] as? String == "not_found", "\(path)")
            expectSyncHeaders(response)
        }
        // 405 with Allow for another method, no CORS preflight either
        for method in ["GET", "PUT", "DELETE", "OPTIONS", "HEAD"] {
            let (response, json) = harness.send("/sync/v1/push", Data(), method: method)
            #expect(response.status == 405 && json["error"] as? String == "method_not_allowed")
            #expect(response.headers["Allow"] == "POST")
            expectSyncHeaders(response)
        }
        // The path never reaches the log unless it is a route
        #expect(!harness.loggedText.contains("pkd_secret"))
    }

    @Test func malformedBodiesAreBadRequests() throws {
        // Given
        let harness = try Harness()
        let token = try harness.pairedToken()
        let bodies: [Data] = [
            Data(), Data("{".utf8), Data("[]".utf8), Data("null".utf8), Data("\"push\"".utf8),
            Data([0xff, 0xfe, 0x00]),
            Data(#"{"protocol":1,"schema":1,"clientID":"c_0123456789abcdef0123456789abcdef"}"#.utf8),
            Data(#"{"protocol":"1","schema":1,"clientID":"c_0123456789abcdef0123456789abcdef","mutations":[]}"#.utf8),
            Data(
                #"{"protocol":1,"schema":1,"clientID":"c_0123456789abcdef0123456789abcdef","mutations":[{"id":1}]}"#
                    .utf8),
            Data(
                #"{"protocol":1,"schema":1,"clientID":"c_0123456789abcdef0123456789abcdef","mutations":[{"id":1,"collection":"log","key":"2026-12-01/fajr","op":"put","hlc":"bad"}]}"#
                    .utf8),
            Data(
                #"{"protocol":1,"schema":1,"clientID":"c_0123456789abcdef0123456789abcdef","mutations":[{"id":1.5,"collection":"log","key":"k","op":"put","hlc":"x"}]}"#
                    .utf8),
            Data(#"{"protocol":1,"schema":1,"clientID":"c_XYZ","mutations":[]}"#.utf8),
            // A name twice: one of the two values would be read silently.
            Data(
                #"{"protocol":1,"schema":1,"schema":2,"clientID":"c_0123456789abcdef0123456789abcdef","mutations":[]}"#
                    .utf8),
        ]
        // Then: each is 400 bad_request, with a message
        for body in bodies {
            let (response, json) = harness.send("/sync/v1/push", body, token: token)
            #expect(
                response.status == 400 && json["error"] as? String == "bad_request",
                "\(String(decoding: body, as: UTF8.self))")
            #expect((json["message"] as? String)?.isEmpty == false)
            expectSyncHeaders(response)
        }
        for path in ["/sync/v1/pull", "/sync/v1/devices"] {
            #expect(harness.send(path, Data("{\"cursor\":".utf8), token: token).response.status == 400)
        }
    }

    // MARK: - Tokens

    @Test func missingUnknownMalformedAndRevokedTokensAre401() throws {
        // Given
        let harness = try Harness()
        let token = try harness.pairedToken()
        let pull = SyncAPI.PullRequest(clientID: Self.client, cursor: "0")
        let body = try JSONEncoder().encode(pull)
        var answers: [Data] = []
        // When: no header, another scheme, an empty token, an unknown one, one cut short
        let attempts: [ServerAPI.Fields] = [
            [:], ["Authorization": "Basic \(token)"], ["Authorization": "Bearer "], ["Authorization": token],
            ["Authorization": "Bearer pkd_" + String(repeating: "A", count: 43)],
            ["Authorization": "Bearer " + token.dropLast()],
        ]
        for headers in attempts {
            let (response, json) = harness.send("/sync/v1/pull", body, headers: headers)
            #expect(response.status == 401 && json["error"] as? String == "unauthorized")
            #expect(response.headers["WWW-Authenticate"] == "Bearer")
            answers.append(response.body)
        }
        // A token in the body or the URL is never taken
        var withToken = try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
        withToken["token"] = token
        #expect(try harness.send("/sync/v1/pull", json: withToken).response.status == 401)
        #expect(harness.send("/sync/v1/pull?token=\(token)&access_token=\(token)", body).response.status == 401)
        // The token works, the scheme in any case; revoked, it gets the same answer as the rest
        #expect(
            harness.send("/sync/v1/pull", body, headers: ["Authorization": "bearer \(token)"]).response.status == 200)
        try harness.store.revokeDevice(try #require(harness.store.devices().first).id, now: Self.now)
        let (revoked, _) = harness.send("/sync/v1/pull", body, token: token)
        #expect(revoked.status == 401)
        answers.append(revoked.body)
        #expect(Set(answers).count == 1)
    }

    @Test func tokensAndCodesNeverReachTheLog() throws {
        // Given
        let harness = try Harness(limits: SyncStoreLimits(maximumPairingFailuresPerAddress: 2))
        let code = try harness.store.addUser(named: "amina", now: Self.now)
        let (paired, json) = try harness.send("/sync/v1/devices", json: ["code": code.code, "deviceName": "phone"])
        let token = try #require(json["token"] as? String)
        #expect(paired.status == 201)
        // When: requests of every kind, good and bad, with the token and codes in every place
        _ = try harness.send(
            "/sync/v1/push", SyncAPI.PushRequest(clientID: Self.client, mutations: [try Self.put(1)]), token: token)
        _ = try harness.send("/sync/v1/pull", SyncAPI.PullRequest(clientID: Self.client, cursor: "0"), token: token)
        _ = try harness.send("/sync/v1/pull", json: ["clientID": token, "cursor": token], token: token)
        _ = harness.send("/sync/v1/push", Data(token.utf8), token: token)
        _ = harness.send("/sync/v1/push", Data(), token: token + "x")
        _ = harness.send("/sync/v1/\(token)", Data(), token: token)
        _ = try harness.send("/sync/v1/devices", json: ["code": code.code, "deviceName": "again"])
        _ = try harness.send("/sync/v1/devices", json: ["code": "QQQQQ-QQQQQ", "deviceName": token])
        _ = try harness.send("/sync/v1/devices", json: ["code": token, "deviceName": "x"])
        // Then: the log has each request with its device, and never a token or a code
        let logged = harness.loggedText
        #expect(harness.memory.events.count >= 9)
        #expect(logged.contains(try #require(harness.store.devices().first).id))
        #expect(!logged.contains(token) && !logged.contains(String(token.dropFirst(4).prefix(12))))
        #expect(!logged.contains(code.code) && !logged.contains(code.code.replacingOccurrences(of: "-", with: "")))
        #expect(!logged.contains("QQQQQ"))
        // Nor does any answer hold the token, but the pairing's own, even where a decoder repeats a value
        var status =
            try JSONSerialization.jsonObject(
                with: try JSONEncoder().encode(SyncAPI.PushRequest(clientID: Self.client, mutations: [try Self.put(1)]))
            )
            as? [String: Any] ?? [:]
        var mutations = status["mutations"] as? [[String: Any]] ?? []
        mutations[0]["value"] = ["status": token, "recordedAt": "2026-12-01T05:41:12.345Z"]
        status["mutations"] = mutations
        let (repeated, repeatedJSON) = try harness.send("/sync/v1/push", json: status, token: token)
        #expect(repeated.status == 400 && (repeatedJSON["message"] as? String)?.contains("pkd_…") == true)
        #expect(repeated.body.range(of: Data(token.dropFirst(4).utf8)) == nil)
        #expect(
            harness.send("/sync/v1/push", Data(token.utf8), token: token).response.body.range(of: Data(token.utf8))
                == nil)
    }

    // MARK: - Statuses

    @Test func pushStatuses() throws {
        // Given
        let harness = try Harness()
        let token = try harness.pairedToken()
        let tablet = try harness.pairedToken(name: "tablet")
        #expect(
            try harness.send(
                "/sync/v1/push", SyncAPI.PushRequest(clientID: Self.client, mutations: [try Self.put(1)]), token: token
            ).response.status == 200)
        // 403: another device's client ID
        let (forbidden, forbiddenJSON) = try harness.send(
            "/sync/v1/push", SyncAPI.PushRequest(clientID: Self.client, mutations: []), token: tablet)
        #expect(forbidden.status == 403 && forbiddenJSON["error"] as? String == "forbidden")
        // 409 mutation_gap, with the last the server has
        let (gap, gapJSON) = try harness.send(
            "/sync/v1/push", SyncAPI.PushRequest(clientID: Self.client, mutations: [try Self.put(3)]), token: token)
        #expect(
            gap.status == 409 && gapJSON["error"] as? String == "mutation_gap" && gapJSON["lastMutationID"] as? Int == 1
        )
        // 409 clock_ahead, with the server's time
        let ahead = try Self.put(2, at: SyncAPI.maximumClockLead + 1)
        let (clock, clockJSON) = try harness.send(
            "/sync/v1/push", SyncAPI.PushRequest(clientID: Self.client, mutations: [ahead]), token: token)
        #expect(clock.status == 409 && clockJSON["error"] as? String == "clock_ahead")
        #expect(clockJSON["serverTime"] as? String == "2026-11-29T12:00:00.000Z")
        // 409 client_id_conflict
        let reused = try Self.put(1, note: "another payload")
        let (conflict, conflictJSON) = try harness.send(
            "/sync/v1/push", SyncAPI.PushRequest(clientID: Self.client, mutations: [reused]), token: token)
        #expect(conflict.status == 409 && conflictJSON["error"] as? String == "client_id_conflict")
        // 426: a newer schema
        var newer = SyncAPI.PushRequest(clientID: Self.client, mutations: [])
        newer.schema = SyncAPI.schemaVersion + 1
        let (upgrade, upgradeJSON) = try harness.send("/sync/v1/push", newer, token: token)
        #expect(upgrade.status == 426 && upgradeJSON["error"] as? String == "upgrade_required")
        // 413: more than 500 mutations
        let many = try (2...502).map { try Self.put($0) }
        #expect(
            try harness.send("/sync/v1/push", SyncAPI.PushRequest(clientID: Self.client, mutations: many), token: token)
                .response.status == 413)
        // Every refusal is JSON, not cached, and the server still has 1
        for response in [forbidden, gap, clock, conflict, upgrade] { expectSyncHeaders(response) }
        let pull = try harness.send(
            "/sync/v1/pull", SyncAPI.PullRequest(clientID: Self.client, cursor: "0"), token: token)
        #expect(pull.json["lastMutationID"] as? Int == 1)
    }

    @Test func aLogKeyForAPrayerThatDoesNotExistIsRejected() throws {
        // Given
        let harness = try Harness()
        let token = try harness.pairedToken()
        // When
        let mutations = [try Self.put(1, "2026-12-01/tahajjud"), try Self.put(2, "2026-12-01/duha"), try Self.put(3)]
        let (response, json) = try harness.send(
            "/sync/v1/push", SyncAPI.PushRequest(clientID: Self.client, mutations: mutations), token: token)
        // Then: 200, both rejected with a reason, the queue moves on
        #expect(response.status == 200 && json["lastMutationID"] as? Int == 3)
        let rejected = try #require(json["rejected"] as? [[String: Any]])
        #expect(rejected.map { $0["id"] as? Int } == [1, 2])
        #expect(rejected.allSatisfy { ($0["reason"] as? String)?.contains("fajr") == true })
    }

    @Test func aNoteOfTenMegabytesIsTooLarge() throws {
        // Given: a push whose note has 10 MB
        let harness = try Harness()
        let token = try harness.pairedToken()
        let body = try JSONEncoder().encode(
            SyncAPI.PushRequest(
                clientID: Self.client, mutations: [try Self.put(1, note: String(repeating: "n", count: 10_000_000))]))
        // When
        let (response, json) = harness.send("/sync/v1/push", body, token: token)
        // Then: 413 before anything is read, and nothing stored
        #expect(response.status == 413 && json["error"] as? String == "too_large")
        expectSyncHeaders(response)
        #expect(try harness.store.users()[0].rowCount == 0)
        // A body just at the cap is read (and refused for what it says, not its size)
        let padded = Data(repeating: UInt8(ascii: " "), count: SyncAPI.maximumBodyBytes - 2) + Data("{}".utf8)
        #expect(harness.send("/sync/v1/push", padded, token: token).response.status == 400)
    }

    @Test func aCursorFromAnotherServerHasExpired() throws {
        // Given: two servers, each with a row
        let harness = try Harness()
        let other = try Harness()
        var cursors: [String] = []
        for server in [harness, other] {
            let token = try server.pairedToken()
            _ = try server.send(
                "/sync/v1/push", SyncAPI.PushRequest(clientID: Self.client, mutations: [try Self.put(1)]), token: token)
            let (_, json) = try server.send(
                "/sync/v1/pull", SyncAPI.PullRequest(clientID: Self.client, cursor: "0"), token: token)
            cursors.append(json["cursor"] as? String ?? "")
        }
        // When: the first server is given the second's cursor
        let token = try harness.pairedToken(name: "tablet")
        let (response, json) = try harness.send(
            "/sync/v1/pull", SyncAPI.PullRequest(clientID: Self.otherClient, cursor: cursors[1]), token: token)
        // Then: 410 cursor_expired; a malformed cursor is 400; its own works
        #expect(response.status == 410 && json["error"] as? String == "cursor_expired")
        expectSyncHeaders(response)
        #expect(
            try harness.send(
                "/sync/v1/pull", SyncAPI.PullRequest(clientID: Self.otherClient, cursor: "seven"), token: token
            ).response.status == 400)
        #expect(
            try harness.send(
                "/sync/v1/pull", SyncAPI.PullRequest(clientID: Self.otherClient, cursor: cursors[0]), token: token
            ).response.status == 200)
    }

    @Test func aPairingCodeUsedTwice() throws {
        // Given
        let harness = try Harness()
        let code = try harness.store.addUser(named: "amina", now: Self.now)
        let first = try harness.send("/sync/v1/devices", json: ["code": code.code, "deviceName": "phone"])
        #expect(first.response.status == 201)
        // When: the same code again
        let (second, json) = try harness.send("/sync/v1/devices", json: ["code": code.code, "deviceName": "tablet"])
        // Then: 401, the same answer as a wrong code; a device token cannot pair either
        #expect(second.status == 401 && json["error"] as? String == "unauthorized")
        let wrong = try harness.send("/sync/v1/devices", json: ["code": "ABCDE-FGHJK", "deviceName": "tablet"])
        #expect(wrong.response.body == second.body)
        let token = first.json["token"] as? String ?? ""
        let withToken = try harness.send(
            "/sync/v1/devices", json: ["code": token, "deviceName": "tablet"], token: token)
        #expect(withToken.response.status == 401)
        #expect(try harness.store.devices().count == 1)
        // A missing device name is a bad request
        #expect(try harness.send("/sync/v1/devices", json: ["code": code.code]).response.status == 400)
    }

    @Test func rateLimitsCarryRetryAfter() throws {
        // Given: 3 requests a minute per device, 2 wrong codes per address
        let harness = try Harness(limits: SyncStoreLimits(maximumPairingFailuresPerAddress: 2), requestsPerMinute: 3)
        let token = try harness.pairedToken()
        let pull = SyncAPI.PullRequest(clientID: Self.client, cursor: "0")
        for _ in 0..<3 { #expect(try harness.send("/sync/v1/pull", pull, token: token).response.status == 200) }
        // Then: the fourth waits for the minute to end
        let (limited, json) = try harness.send("/sync/v1/pull", pull, token: token)
        #expect(limited.status == 429 && json["error"] as? String == "rate_limited")
        #expect(limited.headers["Retry-After"] == "60")
        expectSyncHeaders(limited)
        harness.clock.advance(by: 45)
        #expect(try harness.send("/sync/v1/pull", pull, token: token).response.headers["Retry-After"] == "15")
        harness.clock.advance(by: 15)
        #expect(try harness.send("/sync/v1/pull", pull, token: token).response.status == 200)
        // Wrong pairing codes: the third attempt from the address is refused with Retry-After
        for _ in 0..<2 {
            #expect(
                try harness.send(
                    "/sync/v1/devices", json: ["code": "ABCDE-FGHJK", "deviceName": "x"], address: "203.0.113.5"
                ).response.status == 401)
        }
        let (refused, _) = try harness.send(
            "/sync/v1/devices", json: ["code": "ABCDE-FGHJK", "deviceName": "x"], address: "203.0.113.5")
        #expect(refused.status == 429 && Int(refused.headers["Retry-After"] ?? "") == 15 * 60)
    }

    @Test func storeFailuresAre503Or500WithoutDetails() throws {
        // Given: a store that is busy, then one that fails
        let busyStore = SyncStoreMock()
        busyStore.onAuthenticate { _, _, _ in throw StorageError(kind: .busy, message: "database is locked") }
        let brokenStore = SyncStoreMock()
        brokenStore.onAuthenticate { _, _, _ in throw StorageError(kind: .corrupt, message: "secret SQL detail") }
        let request = ServerAPI.Request(
            method: "POST", path: "/sync/v1/pull", headers: ["Authorization": "Bearer pkd_x"])
        // Then: 503 with Retry-After, or 500 that says nothing of the store
        let busy = SyncRoutes(store: busyStore, clock: PrayClockFake(), log: .silent)
        let unavailable = busy.respond(to: request, body: Data("{}".utf8), remoteAddress: "x")
        #expect(unavailable.status == 503 && unavailable.headers["Retry-After"] == "1")
        expectSyncHeaders(unavailable)
        // A database that cannot be reached (PostgreSQL failing over) is 503 too, with a longer wait
        let awayStore = SyncStoreMock()
        awayStore.onAuthenticate { _, _, _ in
            throw StorageError(kind: .unavailable, message: "PostgreSQL: cannot connect: secret host")
        }
        let away = SyncRoutes(store: awayStore, clock: PrayClockFake(), log: .silent)
            .respond(to: request, body: Data("{}".utf8), remoteAddress: "x")
        #expect(away.status == 503 && away.headers["Retry-After"] == "5")
        #expect(!String(decoding: away.body, as: UTF8.self).contains("secret"))
        expectSyncHeaders(away)
        let broken = SyncRoutes(store: brokenStore, clock: PrayClockFake(), log: .silent)
        let failed = broken.respond(to: request, body: Data("{}".utf8), remoteAddress: "x")
        #expect(failed.status == 500 && !String(decoding: failed.body, as: UTF8.self).contains("secret"))
    }

    @Test func theUserAlwaysComesFromTheToken() throws {
        // Given: a store that knows one token
        let store = SyncStoreMock()
        let amina = SyncDeviceIdentity(user: "amina", deviceID: "d_1")
        store.onAuthenticate { _, _, _ in amina }
        store.onPull { request, _, _ in
            SyncAPI.PullResponse(cursor: request.cursor, hasMore: false, lastMutationID: 0, serverTime: "", rows: [])
        }
        let routes = SyncRoutes(store: store, clock: PrayClockFake(now: Self.now), log: .silent)
        // When: a pull whose body names another user and device
        var body =
            try JSONSerialization.jsonObject(
                with: try JSONEncoder().encode(SyncAPI.PullRequest(clientID: Self.client, cursor: "0")))
            as? [String: Any] ?? [:]
        body["user"] = "zaid"
        body["deviceID"] = "d_2"
        let response = routes.respond(
            to: ServerAPI.Request(method: "POST", path: "/sync/v1/pull", headers: ["Authorization": "Bearer pkd_abc"]),
            body: try JSONSerialization.data(withJSONObject: body), remoteAddress: "198.51.100.4")
        // Then: the store was asked for the token's device, with the address and the clock's time
        #expect(response.status == 200)
        #expect(store.authenticateCalls.map(\.token) == ["pkd_abc"])
        #expect(store.authenticateCalls.map(\.address) == ["198.51.100.4"])
        #expect(store.pullCalls.map(\.device) == [amina] && store.pullCalls.map(\.now) == [Self.now])
        // A body over the cap never reaches the store
        let large = routes.respond(
            to: ServerAPI.Request(method: "POST", path: "/sync/v1/push", headers: ["Authorization": "Bearer pkd_abc"]),
            body: Data(count: SyncAPI.maximumBodyBytes + 1), remoteAddress: "198.51.100.4")
        #expect(large.status == 413 && store.authenticateCalls.count == 1)
    }

    // MARK: - Fuzzing

    @Test func mutatedBodiesNeverTrapAndAnswer2xxOr4xx() throws {
        // Given: valid bodies of each route, mutated by a seeded generator
        let harness = try Harness()
        let token = try harness.pairedToken()
        let code = try harness.store.newPairingCode(forUser: "amina", now: Self.now)
        let seed = SeededGenerator.seed(default: 2_112)
        var random = SeededGenerator(seed: seed)
        let push = try JSONEncoder().encode(
            SyncAPI.PushRequest(
                clientID: Self.client,
                mutations: [
                    try Self.put(1, note: "n"), try Self.put(2, "2026-12-01/isha"),
                    SyncAPI.Mutation(
                        id: 3, collection: .place, key: "current", op: .put,
                        hlc: try HLC(milliseconds: 1_795_953_600_002, counter: 0, clientID: Self.client),
                        value: .place(
                            SyncPlaceValue(
                                name: "Makkah", latitude: 21.4, longitude: 39.8, elevation: 277, timeZone: "Asia/Riyadh"
                            ))),
                    SyncAPI.Mutation(
                        id: 4, collection: .pref, key: "method", op: .put,
                        hlc: try HLC(milliseconds: 1_795_953_600_003, counter: 0, clientID: Self.client),
                        value: .pref(SyncPrefValue(value: "umm-al-qura"))),
                ]))
        let pull = try JSONEncoder().encode(SyncAPI.PullRequest(clientID: Self.client, cursor: "0", limit: 2))
        let pair = try JSONEncoder().encode(SyncAPI.PairRequest(code: code.code, deviceName: "fuzz"))
        let seeds: [(String, Data)] = [("/sync/v1/push", push), ("/sync/v1/pull", pull), ("/sync/v1/devices", pair)]
        let pieces = [
            "{", "}", "[", "]", ",", ":", "\"", "null", "-1", "1e999", "9223372036854775808", "true", "\\u0000",
            "\u{202E}", "é", "0.5",
        ]
        var statuses: [Int: Int] = [:]
        // When: 1,500 mutated bodies
        for round in 0..<1_500 {
            let (path, original) = seeds[round % seeds.count]
            var bytes = [UInt8](original)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &random)
                case 1 where !bytes.isEmpty: bytes.remove(at: position)
                case 2:
                    bytes.insert(
                        contentsOf: Array(pieces[Int.random(in: 0..<pieces.count, using: &random)].utf8), at: position)
                case 3: bytes = Array(bytes.prefix(position))
                default:
                    let end = min(bytes.count, position + Int.random(in: 1...20, using: &random))
                    bytes.insert(contentsOf: bytes[position..<end], at: position)
                }
            }
            let (response, json) = harness.send(path, Data(bytes), token: token)
            statuses[response.status, default: 0] += 1
            // Then: a 2xx or a 4xx, always JSON; a refusal always names its error
            #expect(
                (200..<500).contains(response.status),
                "seed \(seed), round \(round): \(String(decoding: bytes, as: UTF8.self))")
            if response.status >= 400 { #expect(json["error"] is String, "seed \(seed), round \(round)") }
        }
        #expect(statuses[400, default: 0] > 0 && statuses.keys.contains { (200..<300).contains($0) })
        // And the store still answers a plain pull
        #expect(
            try harness.send(
                "/sync/v1/pull", SyncAPI.PullRequest(clientID: Self.otherClient, cursor: "0"), token: token
            ).response.status == 200)
    }
}
