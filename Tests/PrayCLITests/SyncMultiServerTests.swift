import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

// Real `praykit serve` processes, a real HAProxy and a throwaway PostgreSQL cluster: Linux only.
#if canImport(CCurl) && canImport(CPostgres)
    /// Why the multi-server suite cannot run here, or `nil` (libmicrohttpd and PostgreSQL have traits of
    /// their own); HAProxy, like the server, is required where `PRAYKIT_REQUIRE_SERVER=1`.
    private let multiServerMissing: String? =
        HAProxy.executable == nil && !TestRequirement.isRequired("PRAYKIT_REQUIRE_SERVER") ? HAProxy.missing : nil

    /// Several servers on one PostgreSQL store (SYNC.md §5, issue 22 "Several servers"): three `praykit
    /// serve --sync-store postgresql:…` behind a real HAProxy (round robin per request, health checks,
    /// retries of requests that never got an answer, sent to another server), five devices of one
    /// user, each behind a fault proxy of its own, random writes and syncs, partitions, servers
    /// killed (SIGKILL, also inside and just after a push) and restarted, and PostgreSQL away for a
    /// moment (503 with Retry-After). After healing, the five
    /// homes show the same log and settings as the server's rows, every change a device was told was
    /// acknowledged is there (or a later write replaced it), no change reached the rows twice, and the
    /// requests were spread over the servers. Nothing here measures time: processes, ports and files
    /// are waited for.
    @Suite(
        .tags(.process), .serialized, .needsMicroHTTPD, .needsPostgreSQL,
        .enabled(if: multiServerMissing == nil, Comment(rawValue: multiServerMissing ?? "")))
    struct SyncMultiServerTests {
        @Test(.tags(.binary, .server, .postgres))
        func fiveDevicesThroughHAProxyOnThreeServersLoseNothingAndConverge() async throws {
            let seed = SeededGenerator.seed(default: 0x22_5E_4E)
            let started = ContinuousClock.now
            // A cluster of this test's own: its server is stopped and started again midway.
            let cluster = try PostgresCluster.privateCluster()
            defer { cluster.remove() }
            let fleet = try await Fleet.start(cluster: cluster, seed: seed)
            defer { fleet.stop() }
            for step in 0..<60 {
                if step == 30 { try await fleet.databaseAway() }
                try await fleet.disturb()
                try await fleet.act(step)
            }
            try await fleet.heal()
            try await fleet.checkConvergence()
            try await fleet.checkNothingLostOrDoubled()
            try fleet.checkSpread()
            print("SyncMultiServerTests: seed \(seed), \(started.duration(to: .now)), \(fleet.summary)")
        }

        @Test(.tags(.binary, .server, .postgres), arguments: ["server-push-committed", "server-push-applying"])
        func aPushWhoseServerDiesIsSentAgainByHAProxyAndAppliedOnce(crashPoint: String) async throws {
            try await PostgresCluster.with { cluster in
                // Given: two servers on one database behind HAProxy; one armed to die in its next push,
                // after its COMMIT (before it answers) or before it (the transaction rolls back).
                let database = try cluster.newDatabase()
                let steady = try await SyncServer.start(store: database)
                defer { steady.stop() }
                let doomed = try await SyncServer.start(store: database)
                defer { doomed.stop() }
                _ = try steady.code()
                try cluster.execute(Fleet.audit, in: database)
                let haproxy = try await HAProxy.start(backends: [steady.port, doomed.port])
                defer { haproxy.stop() }
                let phone = try Home("phone")
                try await phone.login(steady, url: haproxy.url)
                try await doomed.restart(crashPoint: crashPoint)
                // When: the phone records until a push of it reached the armed server. (Each record
                // pushes, then pulls: strict round robin over two servers would send every push to the
                // same one, so a request for /status before each record moves the next push along.)
                var writes = 0
                while doomed.isRunning, writes < 100 {
                    _ = try await haproxy.forwards()
                    let day = Fleet.days[writes % Fleet.days.count]
                    let prayer = Prayer.obligatory[writes / Fleet.days.count % Prayer.obligatory.count].rawValue
                    let record = try await phone.run([
                        "log", "record", "--prayer", prayer, "--status", "prayed", "--date", day, "--note", "\(writes)",
                    ])
                    #expect(record.status == 0, "\(record.stderr)")
                    writes += 1
                }
                #expect(!doomed.isRunning, "the armed server was never sent a push")
                // Then: HAProxy sent that push again, to the other server, which skipped what was applied
                // or applied what was rolled back; the phone was answered, and nothing reached a row twice.
                let log = try haproxy.log()
                let retried = log.filter {
                    $0.firstMatch(of: /^praykit\/s1 200 \+?[1-9][0-9]* POST \/sync\/v1\/push$/) != nil
                }
                #expect(!retried.isEmpty, "\(log)")
                #expect(try await phone.syncNow() == 0)
                #expect(try phone.query("SELECT count(*) FROM sync_outbox") == ["0"])
                let twice = try cluster.execute(
                    "SELECT collection, key, hlc FROM test_audit GROUP BY 1, 2, 3 HAVING count(*) > 1", in: database)
                #expect(twice.isEmpty, "applied twice: \(twice)")
                let rows = try cluster.execute("SELECT count(*) FROM sync_rows WHERE collection = 'log'", in: database)
                #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "\(min(writes, 15))")
            }
        }

        @Test func theSampleHAProxyConfigurationIsValid() async throws {
            // Given: Scripts/deploy/haproxy.cfg with a test certificate's path for the production one.
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let sample = try String(
                contentsOf: root.appendingPathComponent("Scripts/deploy/haproxy.cfg"), encoding: .utf8)
            #expect(sample.contains("crt /etc/haproxy/certs/praykit.pem"))
            let folder = try TestFolder("haproxy-sample")
            let certificate = folder.path("praykit.pem")
            try Data(Self.testCertificate.utf8).write(to: URL(fileURLWithPath: certificate))
            let file = folder.path("haproxy.cfg")
            try Data(sample.replacingOccurrences(of: "/etc/haproxy/certs/praykit.pem", with: certificate).utf8)
                .write(to: URL(fileURLWithPath: file))
            // When / Then: HAProxy accepts it.
            let problem = try await HAProxy.check(file)
            #expect(problem == nil, "\(problem ?? "")")
        }

        /// A self-signed certificate and its key, for `praykit-test.invalid`, made for this test only
        /// (`openssl req -x509 -newkey ec …`): HAProxy reads the certificate file while checking.
        static let testCertificate = """
            -----BEGIN CERTIFICATE-----
            MIIBlDCCATugAwIBAgIURpGDmlsNnGolILva2iDDEXtI5pMwCgYIKoZIzj0EAwIw
            HzEdMBsGA1UEAwwUcHJheWtpdC10ZXN0LmludmFsaWQwIBcNMjYxMjAxMTY0OTM1
            WhgPMjEyNjExMDcxNjQ5MzVaMB8xHTAbBgNVBAMMFHByYXlraXQtdGVzdC5pbnZh
            bGlkMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEPJiSOvoAMBBE77XgGxDDFF7m
            7mFsleUYlE2urXfnYoHCua3jSo7zATZqSCBh/M9fXohQT8l9Qyoc+zo4gQ4Q3qNT
            MFEwHQYDVR0OBBYEFDjQ5fq4KoZnlqw9LLKihyUCaI9KMB8GA1UdIwQYMBaAFDjQ
            5fq4KoZnlqw9LLKihyUCaI9KMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwID
            RwAwRAIgUeXBuu5hRxqU46+QQgQonRqER/8j2GBUgN2g3z4a5rcCIAJ56Ie7tu1p
            xGe6twNkFVxlYzmaiPkNTE2hxE9Fon+o
            -----END CERTIFICATE-----
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgI06lmEX3r/GMKnUR
            PPY78VDJAr5jR6XrEWle4fpcniKhRANCAAQ8mJI6+gAwEETvteAbEMMUXubuYWyV
            5RiUTa6td+digcK5reNKjvMBNmpIIGH8z19eiFBPyX1DKhz7OjiBDhDe
            -----END PRIVATE KEY-----
            """
    }

    /// Five devices, three servers, HAProxy and PostgreSQL, and what the test has seen of them.
    private final class Fleet {
        let cluster: PostgresCluster
        let database: String
        let seed: UInt64
        let servers: [SyncServer]
        let haproxy: HAProxy
        let homes: [Home]
        let proxies: [FaultProxy]
        var random: SeededGenerator
        /// Writes of each device since its outbox was last seen empty: key and the row's stamp after it.
        var pending: [[Written]]
        /// Writes made before a device's outbox was seen empty: the server acknowledged them.
        var acknowledged: [Written] = []
        /// Servers restarted with a crash point that has not fired yet.
        var armed: Set<Int> = []
        var outputs: [String] = []
        var kills = 0
        var clientKills = 0
        var crashPointDeaths = 0
        /// Sync requests answered 503 by a server while PostgreSQL was away.
        var unavailable = 0

        /// A write, by the key it changed and the stamp that key had on the device just after it.
        struct Written: Hashable {
            let device: Int
            let row: String
            let hlc: String
        }

        static let days = (24...26).map { "2026-11-\($0)" }

        private init(
            cluster: PostgresCluster, database: String, seed: UInt64, servers: [SyncServer], haproxy: HAProxy,
            homes: [Home], proxies: [FaultProxy]
        ) {
            self.cluster = cluster
            self.database = database
            self.seed = seed
            self.servers = servers
            self.haproxy = haproxy
            self.homes = homes
            self.proxies = proxies
            random = SeededGenerator(seed: seed)
            pending = Array(repeating: [], count: homes.count)
        }

        /// A new database, three servers on it, HAProxy in front of them, and five devices logged in
        /// through their proxies and HAProxy.
        static func start(cluster: PostgresCluster, seed: UInt64) async throws -> Fleet {
            let database = try cluster.newDatabase()
            var servers: [SyncServer] = []
            for _ in 0..<3 { servers.append(try await SyncServer.start(store: database)) }
            // The first code creates the schema; then every change to a row is recorded, to find any
            // mutation applied twice.
            _ = try servers[0].code()
            try cluster.execute(audit, in: database)
            let haproxy = try await HAProxy.start(backends: servers.map(\.port))
            var homes: [Home] = []
            var proxies: [FaultProxy] = []
            for index in 0..<5 {
                let home = try Home("device\(index)")
                let proxy = try FaultProxy(upstream: haproxy.port, seed: seed &+ UInt64(index))
                try await home.login(servers[0], url: proxy.url.absoluteString)
                homes.append(home)
                proxies.append(proxy)
            }
            return Fleet(
                cluster: cluster, database: database, seed: seed, servers: servers, haproxy: haproxy, homes: homes,
                proxies: proxies)
        }

        /// Every insert and update of a row, in a table of the test's own.
        static let audit = """
            CREATE TABLE test_audit (collection TEXT, key TEXT, hlc TEXT);
            CREATE FUNCTION test_audit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO test_audit (collection, key, hlc) VALUES (NEW.collection, NEW.key, NEW.hlc);
                RETURN NEW;
            END $$;
            CREATE TRIGGER test_audit AFTER INSERT OR UPDATE ON sync_rows
                FOR EACH ROW EXECUTE FUNCTION test_audit();
            """

        func stop() {
            for proxy in proxies { proxy.stop() }
            haproxy.stop()
            for server in servers { server.stop() }
        }

        // MARK: - Faults

        /// Maybe kills a server, restarts one (sometimes armed to die inside or just after its next
        /// push), or changes one device's network.
        func disturb() async throws {
            for index in armed where !servers[index].isRunning {
                armed.remove(index)
                crashPointDeaths += 1
            }
            let running = servers.indices.filter { servers[$0].isRunning }
            let stopped = servers.indices.filter { !servers[$0].isRunning }
            switch Int.random(in: 0..<10, using: &random) {
            case 0 where !running.isEmpty:
                let index = running.randomElement(using: &random)!
                try await servers[index].crash()
                kills += 1
            case 1...2 where !stopped.isEmpty:
                let index = stopped.randomElement(using: &random)!
                let point = ["server-push-applying", "server-push-committed", nil, nil].randomElement(using: &random)!
                try await servers[index].restart(crashPoint: point)
                if point != nil { armed.insert(index) } else { armed.remove(index) }
            case 3...4:
                let proxy = proxies.randomElement(using: &random)!
                switch Int.random(in: 0..<3, using: &random) {
                case 0: proxy.setPartitioned(true)
                case 1:
                    proxy.setPartitioned(false)
                    proxy.setFaults([.resetBeforeForwarding: 0.1, .delay: 0.1, .dropAnswer: 0.15, .forwardTwice: 0.15])
                default: proxy.heal()
                }
            default: break
            }
        }

        /// One command on a random device: a write (its short sync included), `sync now`, or `sync now`
        /// killed just after the server answered a push.
        func act(_ step: Int) async throws {
            let device = Int.random(in: 0..<homes.count, using: &random)
            let home = homes[device]
            let day = Self.days.randomElement(using: &random)!
            let prayer = Prayer.obligatory.randomElement(using: &random)!.rawValue
            let (arguments, row): ([String], String?)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let status = ["prayed", "late", "missed", "qada"].randomElement(using: &random)!
                arguments = [
                    "log", "record", "--prayer", prayer, "--status", status, "--date", day, "--note",
                    "\(home.name) step \(step)",
                ]
                row = "log \(day)/\(prayer)"
            case 4..<6:
                (arguments, row) = (["log", "delete", "--prayer", prayer, "--date", day], "log \(day)/\(prayer)")
            case 6..<8:
                let method = ["umm-al-qura", "mwl", "egyptian", "isna", "karachi"].randomElement(using: &random)!
                (arguments, row) = (["config", "set", "method", method], "pref method")
            case 8: (arguments, row) = (["sync", "now"], nil)
            default:
                if try await home.runKilled(["sync", "now"], crashPoint: "client-push-answered") { clientKills += 1 }
                try noteAcknowledged(device)
                return
            }
            let result = try await home.run(arguments)
            outputs += [result.stdout, result.stderr]
            // A write succeeds whatever the network does; `sync now` may fail, never crash.
            #expect(
                result.status == 0 || (row == nil && result.status == 1), "\(arguments): \(result.stderr), seed \(seed)"
            )
            if let row, result.status == 0, let hlc = try home.stamps()[row] {
                pending[device].append(Written(device: device, row: row, hlc: hlc))
            }
            try noteAcknowledged(device)
        }

        /// Once a device's outbox is empty, the server acknowledged every write it made.
        func noteAcknowledged(_ device: Int) throws {
            guard try homes[device].query("SELECT count(*) FROM sync_outbox") == ["0"] else { return }
            acknowledged += pending[device]
            pending[device] = []
        }

        // MARK: - PostgreSQL away

        /// PostgreSQL away for a moment, as while a standby is promoted: its server stopped (every
        /// connection ended, none answered). A device's write is kept, and the sync after it reaches a
        /// server, which answers 503 with Retry-After (HAProxy does not send a 503 elsewhere).
        func databaseAway() async throws {
            // (A server starting checks its store, and exits when it cannot be reached: start them first.)
            proxies[0].heal()
            for index in servers.indices where !servers[index].isRunning || armed.contains(index) {
                try await servers[index].restart()
                armed.remove(index)
            }
            try await waitUntilForwarding()
            try cluster.stopServer()
            let seen = try haproxy.log().count
            let result = try await homes[0].run([
                "log", "record", "--prayer", "fajr", "--status", "qada", "--date", Self.days[0], "--note", "away",
            ])
            #expect(result.status == 0, "\(result.stderr), seed \(seed)")
            if let hlc = try homes[0].stamps()["log \(Self.days[0])/fajr"] {
                pending[0].append(Written(device: 0, row: "log \(Self.days[0])/fajr", hlc: hlc))
            }
            // (Should the short sync after the write have given up before sending on a busy machine,
            // `sync now` sends, and fails after its retries.)
            if try await answeredUnavailable(after: seen, wait: 5) == 0 {
                #expect(try await homes[0].syncNow() != 0, "seed \(seed)")
            }
            unavailable = try await answeredUnavailable(after: seen, wait: 30)
            #expect(unavailable > 0, "no server answered 503 while PostgreSQL was away; seed \(seed)")
            try cluster.startServer()
        }

        /// The sync requests that servers answered with 503 in HAProxy's log after its first `seen` lines,
        /// waiting up to `wait` seconds for the first (HAProxy writes a line once the exchange ended).
        private func answeredUnavailable(after seen: Int, wait: Int) async throws -> Int {
            let deadline = ContinuousClock.now + .seconds(wait)
            while true {
                let count = try haproxy.log().dropFirst(seen).filter {
                    $0.firstMatch(of: /^praykit\/s[0-9]+ 503 0 POST \/sync\/v1\/(push|pull)$/) != nil
                }.count
                if count > 0 || ContinuousClock.now >= deadline { return count }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        // MARK: - Healing

        /// Heals every network, restarts every server unarmed, waits until HAProxy forwards again, and
        /// runs rounds of `sync now` on every device until every outbox is empty and a whole round
        /// succeeded, then one more so that each device pulls what the last ones pushed.
        func heal() async throws {
            for proxy in proxies { proxy.heal() }
            for index in servers.indices where !servers[index].isRunning || armed.contains(index) {
                try await servers[index].restart()
            }
            armed = []
            try await waitUntilForwarding()
            var settled = false
            for _ in 0..<6 where !settled {
                var succeeded = true
                for (device, home) in homes.enumerated() {
                    let result = try await home.run(["sync", "now"])
                    outputs += [result.stdout, result.stderr]
                    succeeded = succeeded && result.status == 0
                    try noteAcknowledged(device)
                }
                settled = succeeded && pending.allSatisfy(\.isEmpty)
            }
            #expect(settled, "the outboxes did not drain: \(pending), seed \(seed)")
            for home in homes {
                let result = try await home.run(["sync", "now"])
                #expect(result.status == 0, "\(home.name): \(result.stderr), seed \(seed)")
            }
        }

        /// Waits until a request through HAProxy reaches a server (HAProxy has seen one up again).
        private func waitUntilForwarding() async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if try await haproxy.forwards() { return }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw TestFailure("HAProxy forwarded nothing within 60 s after the servers restarted")
        }

        // MARK: - Checks

        /// The five homes show the same log and settings, and hold exactly the server's rows and stamps.
        func checkConvergence() async throws {
            let state = try await homes[0].syncedState()
            #expect(state.log.contains("\"prayer\""), "the plan left entries to compare: \(state.log)")
            let serverRows = try cluster.execute(
                "SELECT collection || ' ' || key || ' ' || hlc || ' ' || deleted FROM sync_rows", in: database
            ).split(separator: "\n").map(String.init).sorted()
            for home in homes {
                #expect(try await home.syncedState() == state, "\(home.name), seed \(seed)")
                let rows = try home.query(
                    "SELECT collection || ' ' || key || ' ' || hlc || ' ' || deleted FROM sync_rows")
                #expect(rows.sorted() == serverRows, "\(home.name), seed \(seed)")
            }
        }

        /// Every acknowledged write is on the server or was replaced by a later one; no change reached
        /// a row twice; each device's last mutation ID is the server's.
        func checkNothingLostOrDoubled() async throws {
            var stamps: [String: String] = [:]
            for row in try cluster.execute("SELECT collection || ' ' || key || ' ' || hlc FROM sync_rows", in: database)
                .split(separator: "\n")
            {
                guard let space = row.lastIndex(of: " ") else { continue }
                stamps[String(row[..<space])] = String(row[row.index(after: space)...])
            }
            #expect(!acknowledged.isEmpty, "seed \(seed)")
            for write in acknowledged {
                let final = stamps[write.row] ?? ""
                #expect(final >= write.hlc, "\(write) was acknowledged, the server holds \(final); seed \(seed)")
            }
            let twice = try cluster.execute(
                "SELECT collection, key, hlc FROM test_audit GROUP BY 1, 2, 3 HAVING count(*) > 1", in: database)
            #expect(twice.isEmpty, "applied twice: \(twice), seed \(seed)")
            for home in homes {
                let state = try home.query(
                    "SELECT key || ' ' || value FROM sync_state WHERE key IN ('client_id', 'next_mutation_id')")
                let values = Dictionary(
                    state.map { (String($0.prefix { $0 != " " }), String($0.drop { $0 != " " }.dropFirst())) },
                    uniquingKeysWith: { $1 })
                let client = values["client_id"] ?? ""
                let next = Int(values["next_mutation_id"] ?? "") ?? 0
                let last = try cluster.execute(
                    "SELECT last_mutation_id FROM clients WHERE id = '\(client)'", in: database
                ).trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(Int(last) == next - 1, "\(home.name): the server has \(last), next is \(next); seed \(seed)")
            }
        }

        /// The requests were spread over more than one server, by HAProxy's log and the servers' own;
        /// no client ID was refused as reused, and no token appears in any output or log.
        func checkSpread() throws {
            let faults = proxies.map(\.counts).reduce(into: [String: Int]()) { total, counts in
                for (fault, count) in counts where fault != .none { total[fault.rawValue, default: 0] += count }
            }
            #expect(faults.values.reduce(0, +) > 0, "no request met a fault; seed \(seed)")
            let byHAProxy = try haproxy.requestsByServer()
            #expect(byHAProxy.values.filter { $0 > 0 }.count > 1, "\(byHAProxy), seed \(seed)")
            let logs = servers.map { $0.stop() }
            let byServer = logs.map { $0.components(separatedBy: "Sync request").count - 1 }
            #expect(byServer.filter { $0 > 0 }.count > 1, "\(byServer), seed \(seed)")
            #expect(!logs.contains { $0.contains("client_id_conflict") }, "seed \(seed)")
            let all = outputs + logs + [haproxy.stop()]
            #expect(!all.contains { $0.contains("pkd_") }, "a token in a log; seed \(seed)")
            summary =
                "requests by server (HAProxy's log) \(byHAProxy.sorted { $0.key < $1.key }), handled by each "
                + "server (its own log) \(byServer), retried or sent elsewhere by HAProxy \(retried), servers killed "
                + "\(kills) and at a crash point inside or after a push \(crashPointDeaths), clients killed "
                + "\(clientKills), faults met by the devices' requests \(faults), acknowledged writes checked "
                + "\(acknowledged.count), answered 503 while PostgreSQL was away \(unavailable)"
        }

        /// How many request lines of HAProxy's log show a retry.
        private var retried: Int {
            ((try? haproxy.log()) ?? []).filter { $0.firstMatch(of: /^praykit\/\S+ [0-9-]+ \+?[1-9]/) != nil }.count
        }

        /// What the test did, for its closing line.
        var summary = ""
    }

    extension Home {
        /// Rows of `sql` in this device's database, each row's columns joined by spaces.
        func query(_ sql: String) throws -> [String] {
            let handle = SQLiteDatabase(path: database, log: .silent)
            defer { handle.close() }
            return try handle.read { connection in
                let statement = try connection.prepare(sql)
                var rows: [String] = []
                while try statement.step() {
                    rows.append((0..<statement.columnCount).map { statement.text($0) ?? "NULL" }.joined(separator: " "))
                }
                return rows
            }
        }

        /// The stamp of each synced row on this device, by `collection key`.
        func stamps() throws -> [String: String] {
            var stamps: [String: String] = [:]
            for row in try query("SELECT collection || ' ' || key, hlc FROM sync_rows") {
                guard let space = row.lastIndex(of: " ") else { continue }
                stamps[String(row[..<space])] = String(row[row.index(after: space)...])
            }
            return stamps
        }
    }
#endif
