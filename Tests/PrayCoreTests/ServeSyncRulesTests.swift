import Foundation
import PrayCore
import PrayMocks
import Testing

/// The pure rules behind `praykit serve --sync-store`: reading a store's location, deciding whether
/// an address is loopback, and sending `/sync/` and the rest to their routes.
@Suite struct ServeSyncRulesTests {
    static let environment = ["HOME": "/home/amina"]

    // MARK: - SyncStoreLocation

    @Test func sqliteLocationsBecomeAbsolutePaths() throws {
        func parse(_ text: String) throws -> SyncStoreLocation {
            try SyncStoreLocation(parsing: text, environment: Self.environment, currentDirectory: "/srv/pray")
        }
        #expect(try parse("sqlite:/var/lib/praykit/sync.sqlite") == .sqlite(path: "/var/lib/praykit/sync.sqlite"))
        #expect(try parse("sqlite:~/sync/server.sqlite") == .sqlite(path: "/home/amina/sync/server.sqlite"))
        #expect(try parse("sqlite:data/../sync.sqlite") == .sqlite(path: "/srv/pray/sync.sqlite"))
        #expect(try parse("SQLite:store.sqlite") == .sqlite(path: "/srv/pray/store.sqlite"))
        #expect(try parse("sqlite:/a/b.sqlite").description == "sqlite:/a/b.sqlite")
    }

    @Test func postgresURLsAreKeptAndShownWithoutTheirPassword() throws {
        let location = try SyncStoreLocation(parsing: "postgres://pray:s3cret@db.example.org/pray")
        #expect(location == .postgreSQL(url: "postgres://pray:s3cret@db.example.org/pray"))
        #expect(location.description == "postgres://pray:…@db.example.org/pray")
        #expect(!"\(location)".contains("s3cret"))
        #expect(try SyncStoreLocation(parsing: "postgresql://db/pray") == .postgreSQL(url: "postgresql://db/pray"))
        // A password in the query (libpq's form), in any case, and several hosts: all hidden
        let cases = [
            "postgresql:///pray?host=/run/pg&password=s3cret": "postgresql:///pray?host=/run/pg&password=…",
            "postgresql://pray@/pray?PASSWORD=s3cret&user=x": "postgresql://pray@/pray?password=…&user=x",
            "postgresql://pray:s3cret@db1,db2:5433/pray?target_session_attrs=read-write":
                "postgresql://pray:…@db1,db2:5433/pray?target_session_attrs=read-write",
            "postgres://pray:s3cret@db": "postgres://pray:…@db",
            "postgres://db/pray?sslmode=require": "postgres://db/pray?sslmode=require",
        ]
        for (url, shown) in cases {
            #expect(try SyncStoreLocation(parsing: url).description == shown, "\(url)")
        }
    }

    @Test func anythingElseIsAnInvalidLocation() {
        for text in ["", "sync.sqlite", "sqlite:", "sqlite://host/x", "mysql://db", "file:/x.sqlite", "/x.sqlite"] {
            #expect(throws: SyncStoreError.self, "\(text)") { try SyncStoreLocation(parsing: text) }
            do {
                _ = try SyncStoreLocation(parsing: text)
            } catch {
                #expect(error.kind == .invalidLocation)
            }
        }
    }

    @Test func theDefaultStoreFollowsXDGDataHome() {
        #expect(
            SyncStoreLocation.defaultLocation(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/amina"])
                == .sqlite(path: "/data/praykit/sync-server.sqlite"))
        // A relative XDG_DATA_HOME is ignored, as the specification says
        #expect(
            SyncStoreLocation.defaultLocation(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/amina"])
                == .sqlite(path: "/home/amina/.local/share/praykit/sync-server.sqlite"))
    }

    // MARK: - Loopback

    @Test func loopbackIsDecidedOnTheAddress() {
        for host in ["127.0.0.1", "127.8.9.10", "localhost", "::1", "[::1]", "0:0:0:0:0:0:0:1", "0::1", "LOCALHOST"] {
            #expect(ServerAPI.Configuration(host: host).listensOnLoopbackOnly, "\(host)")
        }
        for host in [
            "0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "::2", "1::1", "127.evil.example", "127.1", "0127.0.0.1",
            "128.0.0.1", "::ffff:127.0.0.1", "example.com", "", "1:2:3:4:5:6:7:8:9",
        ] {
            #expect(!ServerAPI.Configuration(host: host).listensOnLoopbackOnly, "\(host)")
        }
    }

    // MARK: - ServerRoutesCombined

    @Test func syncPathsGoToSyncAndTheRestToTheAPI() {
        // Given
        let api = ServerRoutesMock()
        api.onRespond { _ in ServerAPI.Response(status: 200, body: Data("api".utf8)) }
        let sync = ServerRoutesMock()
        sync.onRespond { request in ServerAPI.Response(status: 201, body: request.body) }
        let routes = ServerRoutesCombined(api: api, sync: sync)
        // When
        let pushed = routes.respond(
            to: ServerAPI.Request(method: "POST", target: "/sync/v1/push", body: Data("{}".utf8), remoteAddress: "::1"))
        let timings = routes.respond(to: ServerAPI.Request(target: "/v1/timings"))
        let lookalike = routes.respond(to: ServerAPI.Request(target: "/synced"))
        // Then: the sync routes get the body and the address as the server read them
        #expect(pushed.status == 201 && pushed.body == Data("{}".utf8))
        #expect(sync.respondCalls.map(\.path) == ["/sync/v1/push"])
        #expect(sync.respondCalls.first?.remoteAddress == "::1")
        #expect(timings.status == 200 && lookalike.status == 200)
        #expect(api.respondCalls.map(\.path) == ["/v1/timings", "/synced"])
        // A browser's request for the icon gets no error (its console would show one on every page)
        let icon = routes.respond(to: ServerAPI.Request(target: "/favicon.ico"))
        #expect(icon.status == 204 && icon.body.isEmpty && api.respondCalls.count == 2)
    }

    @Test func aSuccessfulWriteThroughSyncTellsThePages() {
        // Given: sync routes that accept a push, refuse a stranger's and answer pulls, beside the pages
        let sync = ServerRoutesMock()
        sync.onRespond { request in
            ServerAPI.Response(status: request.headers["authorization"] == nil ? 401 : 200)
        }
        let pages = ServerRoutesMock()
        let routes = ServerRoutesCombined(api: ServerRoutesMock(), sync: sync, pages: pages)
        func post(_ path: String, signed: Bool = true) {
            _ = routes.respond(
                to: ServerAPI.Request(
                    method: "POST", target: path, headers: signed ? ["authorization": "Bearer t"] : [:]))
        }
        // When: reads, a refused push, then a push and a change of a space's members
        post("/sync/v1/pull")
        post("/sync/v1/devices")
        post("/sync/v1/push", signed: false)
        _ = routes.respond(to: ServerAPI.Request(target: "/sync/v1/events", headers: ["authorization": "Bearer t"]))
        #expect(pages.storeChangedCalls == 0)
        post("/sync/v1/push")
        post("/sync/v1/spaces/members/remove")
        // Then: the pages heard of the two writes only
        #expect(pages.storeChangedCalls == 2 && pages.respondCalls.isEmpty)
    }

    @Test func withoutSyncTheSyncPathsAnswer404InJSON() throws {
        // Given
        let api = ServerRoutesMock()
        let routes = ServerRoutesCombined(api: api, sync: nil)
        // When
        let response = routes.respond(to: ServerAPI.Request(method: "POST", target: "/sync/v1/pull"))
        let refused = routes.respond(
            to: ServerAPI.Request(
                method: "POST", path: "/sync/v1/push", refusal: .init(status: 413, message: "The body is too large.")))
        // Then
        #expect(response.status == 404 && response.headers["Content-Type"] == "application/json")
        let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: String])
        #expect(json["error"] == "not_found")
        #expect(json["message"]?.contains("does not sync") == true)
        #expect(refused.status == 413)
        #expect(api.respondCalls.isEmpty)
    }

    @Test func onlyATrustedProxysLastForwardedAddressIsTheClient() {
        var configuration = ServerAPI.Configuration()
        // No proxy trusted: always the peer
        #expect(configuration.clientAddress(peer: "127.0.0.1", forwardedFor: "203.0.113.9") == "127.0.0.1")
        configuration.trustedProxies = ["127.0.0.1", "::1"]
        #expect(
            configuration.clientAddress(peer: "127.0.0.1", forwardedFor: "198.51.100.1, 203.0.113.9") == "203.0.113.9")
        // The proxy's address in any spelling, the client's IPv6 with spaces around it
        #expect(configuration.clientAddress(peer: "::ffff:127.0.0.1", forwardedFor: "203.0.113.9") == "203.0.113.9")
        #expect(configuration.clientAddress(peer: "0:0::1", forwardedFor: " 2001:db8::7 ") == "2001:db8::7")
        // Another peer, no field, or a last entry that is no address: the peer
        #expect(configuration.clientAddress(peer: "192.0.2.50", forwardedFor: "203.0.113.9") == "192.0.2.50")
        #expect(configuration.clientAddress(peer: "127.0.0.1", forwardedFor: nil) == "127.0.0.1")
        #expect(configuration.clientAddress(peer: "127.0.0.1", forwardedFor: "203.0.113.9, unknown") == "127.0.0.1")
        // A proxy must be an IP address
        configuration.trustedProxies = ["proxy.example"]
        #expect(throws: ServerError.self) { try configuration.validate() }
    }
}
