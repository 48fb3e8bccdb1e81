import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayServer

// The PostgreSQL store (libpq) and a cluster of PostgreSQL's own: Linux only.
#if os(Linux)
    /// Event streams of two servers on one PostgreSQL database (SYNC.md §9, "Several servers"): the
    /// routes of two servers in one process, each with its own store handle and so its own `LISTEN`.
    /// A push on server A reaches a stream held by server B; the operator's revocation (a third handle,
    /// as `serve sync devices revoke` is) ends the device's stream on B at once — the pings are an hour
    /// apart, so nothing else can end it — and B answers its next request 401; PostgreSQL stopped and
    /// started while B's stream is open loses nothing: B listens again and the push made meanwhile
    /// reaches the stream. Order of events, never durations.
    @Suite(.tags(.postgres, .concurrency), .needsPostgreSQL)
    struct SyncEventsPostgresTests {
        /// One server's routes over its own handle on the database.
        struct Server {
            let store: SyncStorePostgres
            let routes: SyncRoutes

            init(url: String, log: LogManager = .silent) {
                store = SyncStorePostgres(url: url, connections: 2, log: log)
                routes = SyncRoutes(
                    store: store, clock: PrayClockSystem(), log: log, requestsPerMinute: 100_000, pingInterval: 3600)
            }

            func send(_ method: String, _ path: String, _ body: Data = Data("{}".utf8), token: String)
                -> ServerAPI.Response
            {
                routes.respond(
                    to: ServerAPI.Request(
                        method: method, path: path, query: [:], headers: ["authorization": "Bearer \(token)"],
                        body: body, remoteAddress: "127.0.0.1"))
            }

            /// Opens an event stream for the device of `token`, kept as it is written.
            func stream(token: String) throws -> RecordedStream {
                let response = send("GET", "/sync/v1/events", token: token)
                return RecordedStream(try #require(response.stream, "status \(response.status)"))
            }

            /// Pushes one log record as the device of `token`; the status.
            func push(token: String, id: Int) throws -> Int {
                let body = try JSONEncoder().encode(
                    SyncAPI.PushRequest(
                        clientID: SyncRoutesTests.client,
                        mutations: [try SyncRoutesTests.put(id, "2026-11-\(10 + id)/fajr", at: Int64(id))]))
                return send("POST", "/sync/v1/push", body, token: token).status
            }
        }

        /// Pairs `count` devices of amina through `store`; their tokens.
        static func devices(_ count: Int, store: SyncStorePostgres) throws -> [String] {
            var code = try store.addUser(named: "amina", now: Date()).code
            var tokens: [String] = []
            for index in 0..<count {
                if index > 0 { code = try store.newPairingCode(forUser: "amina", now: Date()).code }
                tokens.append(
                    try store.pair(
                        SyncAPI.PairRequest(code: code, deviceName: "device \(index)"), address: "127.0.0.1",
                        now: Date()
                    ).token)
            }
            return tokens
        }

        @Test func aPushOnOneServerReachesAStreamOnAnotherAndARevocationEndsItAtOnce() async throws {
            try await PostgresCluster.with { cluster in
                // Given: servers A and B on one database; the laptop's stream on B
                let url = try cluster.newDatabase()
                let a = Server(url: url)
                let b = Server(url: url)
                let tokens = try Self.devices(2, store: a.store)
                let (phone, laptop) = (tokens[0], tokens[1])
                let stream = try b.stream(token: laptop)
                let first = try #require(stream.text.firstMatch(of: /"version":"([0-9a-f]+)\.0"/)).1
                // When: the phone pushes through A (B may not listen yet: a listener that begins reads the
                // versions again, so either way the stream hears it)
                #expect(try a.push(token: phone, id: 1) == 200)
                _ = try await stream.read { $0.contains("\(first).1") }
                // Then: B's stream hears the new version of the personal space
                #expect(stream.text.contains("\(first).1"), "\(stream.text)")
                #expect(!stream.text.contains("pkd_"))
                // When: the operator revokes the laptop with a store handle of its own (another process)
                let devices = try a.store.devices()
                let device = try #require(devices.first { $0.name == "device 1" })
                try SyncStorePostgres(url: url, connections: 1, log: .silent).revokeDevice(device.id, now: Date())
                // Then: its stream on B ends (the next ping is an hour away), and B refuses the token
                #expect(try await stream.waitUntilEnded())
                #expect(b.send("GET", "/sync/v1/events", token: laptop).status == 401)
                #expect(b.routes.openStreams == 0)
            }
        }

        @Test func aPushOnOneServerReachesAPublishedPageOnAnotherBetweenItsPolls() async throws {
            try await PostgresCluster.with { cluster in
                // Given: servers A and B on one database; a mosque published through A; its page's
                // stream held by B, whose look at the store is an hour apart
                let url = try cluster.newDatabase()
                let a = Server(url: url)
                let b = Server(url: url)
                let now = Date()
                let code = try a.store.addUser(named: "amina", now: now).code
                let token = try a.store.pair(.init(code: code, deviceName: "laptop"), address: "127.0.0.1", now: now)
                    .token
                let owner = try a.store.authenticate(token: token, address: "127.0.0.1", now: now)
                guard
                    case .space(let space) = try a.store.space(
                        .create(.init(name: "East London Mosque")), from: owner, address: "127.0.0.1", now: now)
                else { throw PublishedFixtureError() }
                func push(_ id: Int, isha: String) throws -> Data {
                    var settings = PublishedFixture.settings
                    settings.iqama["isha"] = isha
                    let hlc = try HLC(
                        milliseconds: Int64(now.timeIntervalSince1970 * 1000) + Int64(id), counter: 0,
                        clientID: SyncRoutesTests.client)
                    return try JSONEncoder().encode(
                        SyncAPI.PushRequest(
                            clientID: SyncRoutesTests.client,
                            mutations: [
                                SyncAPI.Mutation(
                                    id: id, collection: .mosqueSettings, key: "settings", op: .put, hlc: hlc,
                                    value: .mosqueSettings(settings), space: space.id)
                            ]))
                }
                #expect(a.send("POST", "/sync/v1/push", try push(1, isha: "+15"), token: token).status == 200)
                _ = try a.store.space(
                    .publish(.init(space: space.id, slug: "elm")), from: owner, address: "127.0.0.1", now: now)
                let prayers = PrayerServiceAstronomical(log: .silent)
                let pages = PageRoutes(
                    store: b.store, screen: nil, calculator: prayers,
                    hijri: HijriServiceUmmAlQura(prayerService: prayers, log: .silent),
                    mosques: MosqueTimetableStoreFake(), preferences: PreferencesStoreFake(), country: { _ in "GB" },
                    clock: PrayClockSystem(), log: .silent, pollInterval: 3600)
                let reader = StreamReader()
                try #require(pages.respond(to: ServerAPI.Request(target: "/m/elm/events")).stream).attach(reader)
                let first = try #require(try b.store.published(slug: "elm", rows: false)?.version)
                try await reader.wait { $0.contains("data: {\"version\":\"\(first)\"}") }
                // When: the owner moves an iqama through A
                #expect(a.send("POST", "/sync/v1/push", try push(2, isha: "+20"), token: token).status == 200)
                // Then: B's page hears it through the store's LISTEN, not at its next poll (a listener
                // that begins late reads the version again: the order of events, not a race)
                try await reader.wait { $0.contains("data: {\"version\":\"\(first + 1)\"}") }
                pages.endStreams()
            }
        }

        @Test func postgreSQLStoppedAndStartedWhileAStreamIsOpenLosesNothing() async throws {
            // Given: a cluster of this test's own, servers A and B, the laptop's stream on B, heard once
            let cluster = try PostgresCluster.privateCluster()
            defer { cluster.remove() }
            let url = try cluster.newDatabase()
            let memory = LogServiceMemory()
            let a = Server(url: url)
            let b = Server(url: url, log: LogManager(services: [memory], minLevel: .info))
            let tokens = try Self.devices(2, store: a.store)
            let (phone, laptop) = (tokens[0], tokens[1])
            let stream = try b.stream(token: laptop)
            let first = try #require(stream.text.firstMatch(of: /"version":"([0-9a-f]+)\.0"/)).1
            #expect(try a.push(token: phone, id: 1) == 200)
            #expect(try await stream.read { $0.contains("\(first).1") }, "\(stream.text)")
            // When: PostgreSQL stops and starts again (every connection ended, B's listener too), and the
            // phone pushes as soon as it is back, likely before B listens again
            try cluster.stopServer()
            try cluster.startServer()
            #expect(try a.push(token: phone, id: 2) == 200)
            // Then: the stream, still open, hears the version pushed, whether B's listener heard the
            // notice or read the versions again when it listened again; and B said it listened again
            #expect(try await stream.read { $0.contains("\(first).2") }, "\(stream.text)")
            #expect(!stream.isEnded)
            #expect(memory.events.contains { $0.message == "Event listener lost its connection" })
            // And later pushes still reach it.
            #expect(try a.push(token: phone, id: 3) == 200)
            #expect(try await stream.read { $0.contains("\(first).3") }, "\(stream.text)")
            // (The laptop logs out: its stream ends, and B's thread with it, before the cluster goes.)
            #expect(b.send("POST", "/sync/v1/devices/retire", token: laptop).status == 200)
            #expect(try await stream.waitUntilEnded())
        }
    }
#endif
