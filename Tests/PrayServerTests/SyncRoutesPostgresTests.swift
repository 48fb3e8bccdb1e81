import Foundation
import PrayCore
import PrayMocks
import PrayServer
import Testing

// The PostgreSQL store (libpq) and a cluster of PostgreSQL's own: Linux only.
#if os(Linux)
    /// The sync routes over a PostgreSQL store whose server goes away and comes back (a restart, a
    /// failover): devices get 503 with `Retry-After` meanwhile, a push refused then is applied whole
    /// when sent again, and nothing is applied twice or half.
    @Suite(.tags(.postgres, .concurrency), .needsPostgreSQL)
    struct SyncRoutesPostgresTests {
        @Test func aDatabaseAwayGives503WithRetryAfterAndThePushIsAppliedOnceWhenItIsBack() throws {
            // Given: routes over a store in a cluster of this test's own, a paired device, one push applied
            let cluster = try PostgresCluster.privateCluster()
            defer { cluster.remove() }
            let memory = LogServiceMemory()
            let log = LogManager(services: [memory], minLevel: .trace)
            let store = SyncStorePostgres(url: try cluster.newDatabase(), connections: 2, log: log)
            let routes = SyncRoutes(store: store, clock: PrayClockFake(now: SyncRoutesTests.now), log: log)
            func send(_ path: String, _ body: Data, token: String? = nil) -> (ServerAPI.Response, [String: Any]) {
                let response = routes.respond(
                    to: ServerAPI.Request(
                        method: "POST", target: path,
                        headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:]),
                    body: body, remoteAddress: "192.0.2.7")
                return (response, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
            }
            let code = try store.addUser(named: "amina", now: SyncRoutesTests.now)
            let (paired, pairJSON) = send(
                "/sync/v1/devices", try JSONEncoder().encode(SyncAPI.PairRequest(code: code.code, deviceName: "phone")))
            #expect(paired.status == 201)
            let token = try #require(pairJSON["token"] as? String)
            func push(_ ids: ClosedRange<Int>) throws -> Data {
                try JSONEncoder().encode(
                    SyncAPI.PushRequest(
                        clientID: SyncRoutesTests.client,
                        mutations: try ids.map { try SyncRoutesTests.put($0, "2026-11-2\($0)/fajr", at: Int64($0)) }))
            }
            #expect(send("/sync/v1/push", try push(1...1), token: token).0.status == 200)
            // When: PostgreSQL stops (its connections are ended) and a push and a pull come
            try cluster.stopServer()
            let (refused, refusal) = send("/sync/v1/push", try push(2...3), token: token)
            let (refusedPull, _) = send(
                "/sync/v1/pull",
                try JSONEncoder().encode(SyncAPI.PullRequest(clientID: SyncRoutesTests.client, cursor: "0")),
                token: token)
            // Then: 503 with Retry-After and the protocol's code, nothing of the database in the answer
            #expect(refused.status == 503 && refused.headers["Retry-After"] == "5", "\(refusal)")
            #expect(refusal["error"] as? String == "unavailable" && refusedPull.status == 503, "\(refusal)")
            #expect(!String(decoding: refused.body, as: UTF8.self).contains("PostgreSQL"))
            // And the log says why, naming the database without a password
            #expect(memory.events.contains { $0.message == "Sync store unavailable" })
            // When: PostgreSQL is back and the device sends the same push again (its outbox kept it)
            try cluster.startServer()
            let (applied, appliedJSON) = send("/sync/v1/push", try push(2...3), token: token)
            let (again, againJSON) = send("/sync/v1/push", try push(2...3), token: token)
            // Then: applied once: the retry is acknowledged and changes nothing
            #expect(applied.status == 200 && appliedJSON["lastMutationID"] as? Int == 3, "\(appliedJSON)")
            #expect(again.status == 200 && againJSON["lastMutationID"] as? Int == 3, "\(againJSON)")
            let (pulled, page) = send(
                "/sync/v1/pull",
                try JSONEncoder().encode(SyncAPI.PullRequest(clientID: SyncRoutesTests.client, cursor: "0")),
                token: token)
            let rows = page["rows"] as? [[String: Any]] ?? []
            #expect(pulled.status == 200 && rows.count == 3, "\(page)")
            #expect(try store.users().first?.version == 2)
        }
    }
#endif
