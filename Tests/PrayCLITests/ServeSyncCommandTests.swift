import Foundation
import PrayCore
import PrayMocks
import PrayServer
import PrayServices
import Synchronization
import Testing

@testable import PrayCLI

/// `praykit serve --sync-store` and `praykit serve sync …`: in-process on a real store in a temporary
/// folder, and end to end with real `praykit` processes — a server and two devices, each with a home
/// of its own.
@Suite struct ServeSyncCommandTests {
    /// The store locations the container was asked for.
    final class Locations: Sendable {
        let all = Mutex<[SyncStoreLocation]>([])
    }

    /// A dependency whose sync stores are real SQLite files at the location asked for, recording the
    /// locations.
    func storeDependency() -> (PrayDependencyMock, Locations) {
        var dependency = CLI.dependency()
        let asked = Locations()
        dependency.syncStoreAt = { location in
            asked.all.withLock { $0.append(location) }
            guard case .sqlite(let path) = location else { throw MockError(notConfigured: "a PostgreSQL store") }
            return SyncStoreSQLite(path: path, log: .silent)
        }
        return (dependency, asked)
    }

    @Test func usersAddListPairAndDevicesListAndRevokeOnTheDefaultStore() async throws {
        // Given: an empty data folder, so that the default store is inside it
        let folder = try TestFolder("serve-sync-admin")
        let (dependency, asked) = storeDependency()
        let environment = ["TZ": "UTC", "XDG_DATA_HOME": folder.path("data")]
        func run(_ words: [String]) async -> CLI.Result {
            await CLI.run(["serve", "sync"] + words, dependency: dependency, environment: environment)
        }
        // When: a user is added
        let added = await run(["users", "add", "amina", "--server", "https://pray.example.org"])
        // Then: the code and the exact login line, on the default store
        #expect(added.status == 0, "\(added.stderr)")
        let login = try #require(
            added.stdout.firstMatch(of: /Pairing code for amina: ([A-Z0-9-]+) \(works/), "\(added.stdout)")
        #expect(added.stdout.hasPrefix("Added amina.\nPairing code for amina: \(login.output.1) "))
        // The login line keeps the code out of argv: the device asks for it.
        #expect(added.stdout.contains("  praykit sync login --server https://pray.example.org\n"))
        #expect(!added.stdout.contains("--code \(login.output.1)"))
        #expect(asked.all.withLock { $0 } == [.sqlite(path: folder.path("data/praykit/sync-server.sqlite"))])
        // When: a device pairs with the code (as the server would), and another code is made
        let store = SyncStoreSQLite(path: folder.path("data/praykit/sync-server.sqlite"), log: .silent)
        let phone = try store.pair(
            SyncAPI.PairRequest(code: String(login.output.1), deviceName: "phone"), address: "127.0.0.1", now: CLI.now)
        let paired = await run(["pair", "amina"])
        let users = await run(["users", "list"])
        let devices = await run(["devices", "list", "--format", "json"])
        let revoked = await run(["devices", "revoke", phone.deviceID])
        let afterwards = await run(["devices", "list"])
        // Then
        #expect(
            paired.status == 0 && paired.stdout.contains("praykit sync login --server http://127.0.0.1:8080\n"))
        #expect(!paired.stdout.contains(String(login.output.1)))
        #expect(users.status == 0 && users.stdout.hasPrefix("USER   DEVICES  ROWS  ADDED\namina  1        0     "))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [String: Any], "\(devices.stdout)")
        let listed = try #require((json["devices"] as? [[String: Any]])?.first)
        #expect(listed["id"] as? String == phone.deviceID && listed["user"] as? String == "amina")
        #expect(listed["name"] as? String == "phone" && listed["revoked"] as? Bool == false)
        #expect(revoked.status == 0 && revoked.stdout.contains("Revoked \(phone.deviceID)"))
        #expect(afterwards.stdout.contains("phone") && afterwards.stdout.contains("yes, "))
        #expect(try store.devices().first?.isRevoked == true)
    }

    @Test func unknownUsersDevicesAndTakenNamesAreClearErrors() async throws {
        let folder = try TestFolder("serve-sync-errors")
        let (dependency, _) = storeDependency()
        let store = ["--sync-store", "sqlite:" + folder.path("sync.sqlite")]
        func run(_ words: [String]) async -> CLI.Result {
            await CLI.run(["serve", "sync"] + words + store, dependency: dependency)
        }
        #expect(await run(["users", "add", "amina"]).status == 0)
        let taken = await run(["users", "add", "amina"])
        let unknownUser = await run(["pair", "bilal"])
        let unknownDevice = await run(["devices", "revoke", "d_0000"])
        let badName = await run(["users", "add", "a b"])
        #expect(taken.status == 1 && taken.stderr.hasPrefix("Error: a user named amina exists already"))
        // A person adding an existing user wants a code for another device: the error says how
        #expect(taken.stderr.contains("praykit serve sync pair amina"), "\(taken.stderr)")
        #expect(unknownUser.status == 1 && unknownUser.stderr.hasPrefix("Error: no user named bilal"))
        #expect(unknownDevice.status == 1 && unknownDevice.stderr.hasPrefix("Error: no device d_0000"))
        #expect(badName.status == 64 && badName.stderr.hasPrefix("Error: "), "\(badName.stderr)")
    }

    @Test func serveWithAStoreAnswersSyncWithTheSyncBodyLimit() async throws {
        // Given
        let folder = try TestFolder("serve-sync-start")
        var (dependency, _) = storeDependency()
        let servers = ServerServiceMock()
        servers.onStart { configuration, _ in RunningServerFake(host: configuration.host, port: 40123, isStopped: true)
        }
        dependency.server = servers
        let path = folder.path("store/sync.sqlite")
        // When
        let result = await CLI.run(["serve", "--port", "0", "--sync-store", "sqlite:" + path], dependency: dependency)
        // Then: the store was opened before the server started, the body limit is 2 MiB, /sync/ pairs
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "Listening on http://127.0.0.1:40123\nSync at http://127.0.0.1:40123/sync/v1/ from sqlite:\(path)\n")
        #expect(FileManager.default.fileExists(atPath: path))
        let call = try #require(servers.startCalls.first)
        #expect(call.configuration.maximumRequestBodyBytes == SyncAPI.maximumBodyBytes)
        let code = try SyncStoreSQLite(path: path, log: .silent).addUser(named: "amina", now: CLI.now)
        let paired = call.handler(
            ServerAPI.Request(
                method: "POST", target: "/sync/v1/devices",
                body: Data(#"{"code": "\#(code.code)", "deviceName": "phone"}"#.utf8), remoteAddress: "127.0.0.1"))
        #expect(paired.status == 201)
        #expect(call.handler(ServerAPI.Request(target: "/status")).status == 200)
    }

    @Test func serveWithoutAStoreAnswersSyncWith404() async throws {
        let (dependency, servers) = ServeCommandTests().dependency()
        let result = await CLI.run(["serve"], dependency: dependency)
        let call = try #require(servers.startCalls.first)
        let response = call.handler(ServerAPI.Request(method: "POST", target: "/sync/v1/push"))
        #expect(result.status == 0 && result.stdout == "Listening on http://127.0.0.1:40123\n")
        #expect(response.status == 404 && String(decoding: response.body, as: UTF8.self).contains(#""not_found""#))
    }

    @Test func syncOnAnAddressOthersReachNeedsInsecureHTTP() async throws {
        let folder = try TestFolder("serve-sync-host")
        let store = ["--sync-store", "sqlite:" + folder.path("sync.sqlite")]
        for host in ["0.0.0.0", "::", "192.0.2.7"] {
            let (dependency, servers) = ServeCommandTests().dependency()
            let refused = await CLI.run(["serve", "--host", host] + store, dependency: dependency)
            #expect(refused.status == 64 && refused.stderr.contains("--insecure-http"), "\(host): \(refused.stderr)")
            #expect(refused.stderr.contains("plain text") && servers.startCalls.isEmpty)
        }
        for arguments in [["--host", "0.0.0.0", "--insecure-http"], ["--host", "::1"], ["--host", "127.0.0.2"]] {
            let (dependency, servers) = ServeCommandTests().dependency()
            let started = await CLI.run(["serve"] + arguments + store, dependency: dependency)
            #expect(started.status == 0 && servers.startCalls.count == 1, "\(arguments): \(started.stderr)")
        }
        // Without sync, any address serves the AlAdhan API as before
        let (dependency, servers) = ServeCommandTests().dependency()
        #expect(await CLI.run(["serve", "--host", "0.0.0.0"], dependency: dependency).status == 0)
        #expect(servers.startCalls.count == 1)
    }

    @Test func aStoreThatIsNeitherSQLiteNorPostgresIsAUsageError() async {
        for value in ["sync.sqlite", "sqlite:", "mysql://db/pray"] {
            let (dependency, servers) = ServeCommandTests().dependency()
            let result = await CLI.run(["serve", "--sync-store", value], dependency: dependency)
            #expect(result.status == 64 && result.stderr.hasPrefix("Error: --sync-store: "), "\(result.stderr)")
            #expect(servers.startCalls.isEmpty)
        }
        let admin = await CLI.run(["serve", "sync", "users", "list", "--sync-store", "x"])
        #expect(admin.status == 64)
    }

    @Test func theStoreComesFromAFileOfYourOwnOrTheEnvironmentAndAPasswordIsNeverShown() async throws {
        let folder = try TestFolder("serve-sync-credentials")
        let (dependency, asked) = storeDependency()
        func run(_ words: [String], environment: [String: String] = ["TZ": "UTC"]) async -> CLI.Result {
            await CLI.run(["serve", "sync", "users"] + words, dependency: dependency, environment: environment)
        }
        // Given: a file of this user's alone that names a store
        let file = folder.path("sync-store")
        try "sqlite:\(folder.path("from-file.sqlite"))\n".write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        // Then: --sync-store-file names the store; so does the environment, when no option does
        let fromFile = await run(["add", "amina", "--sync-store-file", file])
        let fromEnvironment = await run(
            ["list"], environment: ["TZ": "UTC", "PRAYKIT_SYNC_DATABASE_URL": "sqlite:" + folder.path("env.sqlite")])
        let optionFirst = await run(
            ["list", "--sync-store", "sqlite:" + folder.path("option.sqlite")],
            environment: ["TZ": "UTC", "PRAYKIT_SYNC_DATABASE_URL": "sqlite:" + folder.path("env.sqlite")])
        #expect(fromFile.status == 0 && fromEnvironment.status == 0 && optionFirst.status == 0, "\(fromFile.stderr)")
        #expect(
            asked.all.withLock { $0 } == [
                .sqlite(path: folder.path("from-file.sqlite")), .sqlite(path: folder.path("env.sqlite")),
                .sqlite(path: folder.path("option.sqlite")),
            ])
        // Both options at once: a usage error
        let both = await run(["list", "--sync-store", "sqlite:/x.sqlite", "--sync-store-file", file])
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.stderr)")
        // A file others can read is refused, saying how to fix it
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let shared = await run(["list", "--sync-store-file", file])
        #expect(shared.status == 1 && shared.stderr.contains("chmod 600"), "\(shared.stderr)")
        // A file or variable that names no store is an error that does not repeat its text (it may
        // hold a password behind a mistyped scheme)
        let secret = "postgress://pray:s3cret@db/pray"
        try secret.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let mistypedFile = await run(["list", "--sync-store-file", file])
        let mistypedVariable = await run(["list"], environment: ["TZ": "UTC", "PRAYKIT_SYNC_DATABASE_URL": secret])
        for result in [mistypedFile, mistypedVariable] {
            #expect(result.status == 64 && result.stderr.contains("names no sync store"), "\(result.stderr)")
            #expect(!result.stderr.contains("s3cret"))
        }
        #expect(mistypedVariable.stderr.contains("PRAYKIT_SYNC_DATABASE_URL"))
    }

    @Test func serveTakesItsStoreFromTheEnvironmentAndShowsItWithoutThePassword() async throws {
        // Given: a PostgreSQL URL with a password in the environment only
        let (dependency, servers) = ServeCommandTests().dependency()
        let result = await CLI.run(
            ["serve", "--port", "0"], dependency: dependency,
            environment: ["TZ": "UTC", "PRAYKIT_SYNC_DATABASE_URL": "postgresql://pray:s3cret@/pray?host=/run/pg"])
        // Then: the server serves sync from it, and says so without the password
        #expect(result.status == 0 && servers.startCalls.count == 1, "\(result.stderr)")
        #expect(result.stdout.contains("/sync/v1/ from postgresql://pray:…@/pray?host=/run/pg"), "\(result.stdout)")
        #expect(!(result.stdout + result.stderr).contains("s3cret"))
        #expect(servers.startCalls.first?.configuration.maximumRequestBodyBytes == SyncAPI.maximumBodyBytes)
    }

    // The real server (libmicrohttpd) and the curl client: Linux only.
    #if canImport(CCurl)
        /// The environment of a home of its own: its database, data and configuration folders.
        static func home(_ folder: TestFolder, _ name: String) -> [String: String] {
            [
                "HOME": folder.path(name), "XDG_DATA_HOME": folder.path(name + "/data"),
                "XDG_CONFIG_HOME": folder.path(name + "/config"),
                "PRAYKIT_DATABASE": folder.path(name + "/praykit.sqlite"),
            ]
        }

        @Test(.tags(.process, .binary), .needsPostgreSQL)
        func anUnreachablePostgresIsAnErrorAndAPasswordIsNeverTakenFromTheCommandLine() async throws {
            // Given: a PostgreSQL URL whose socket folder holds no server (nothing is reached)
            let result = try await PraykitProcess.run(
                ["serve", "--port", "0", "--sync-store", "postgres://pray@/pray?host=/nonexistent-praykit"])
            // Then: serve checks the store before listening, and stops, saying why
            #expect(result.status == 1 && result.stdout.isEmpty)
            #expect(
                result.stderr.contains("PostgreSQL") && result.stderr.contains("cannot connect"), "\(result.stderr)")
            // A password in the URL (argv, readable by every local user) is refused before anything runs,
            // and not repeated.
            for url in [
                "postgres://pray:s3cret@/pray?host=/nonexistent-praykit",
                "postgresql:///pray?host=/nonexistent-praykit&password=s3cret",
            ] {
                let refused = try await PraykitProcess.run(["serve", "--port", "0", "--sync-store", url])
                #expect(refused.status == 64 && refused.stderr.contains("~/.pgpass"), "\(refused.stderr)")
                #expect(!refused.stderr.contains("s3cret"))
            }
        }

        @Test(.tags(.process, .binary, .server), .needsMicroHTTPD)
        func twoDevicesConvergeThroughARealServeProcess() async throws {
            let folder = try TestFolder("serve-sync-e2e")
            try await Self.twoDevicesConverge(store: "sqlite:" + folder.path("server/sync.sqlite"), folder: folder)
        }

        @Test(.tags(.process, .binary, .server, .postgres), .needsMicroHTTPD, .needsPostgreSQL)
        func twoDevicesConvergeThroughARealServeProcessOnPostgreSQL() async throws {
            let folder = try TestFolder("serve-sync-e2e-postgres")
            try await PostgresCluster.with { cluster in
                try await Self.twoDevicesConverge(store: try cluster.newDatabase(), folder: folder)
            }
        }

        /// Two homes log in, write, sync through `praykit serve --sync-store store`, and show the same.
        static func twoDevicesConverge(store: String, folder: TestFolder) async throws {
            // Given: `praykit serve --sync-store` on a port the system chose, and a user
            let server = try PraykitProcess.Running(
                ["serve", "--port", "0", "--threads", "2", "--sync-store", store],
                environment: Self.home(folder, "server"))
            defer { server.kill() }
            let line = try await server.firstLine()
            let listening = try #require(
                line.firstMatch(of: /^Listening on (http:\/\/127\.0\.0\.1:[0-9]+)\n/), "\(line)")
            let url = String(listening.output.1)
            let added = try await PraykitProcess.run(
                ["serve", "sync", "users", "add", "amina", "--sync-store", store, "--server", url])
            let second = try await PraykitProcess.run(
                ["serve", "sync", "pair", "amina", "--sync-store", store, "--server", url])
            // When: each home runs the login line printed for it
            var homes: [[String: String]] = []
            for (name, printed) in [("laptop", added), ("desktop", second)] {
                #expect(printed.status == 0, "\(printed.stderr)")
                let login = try #require(
                    printed.stdout.firstMatch(
                        of: /Pairing code for \S+: (\S+) [\s\S]*praykit sync login --server (\S+)\n/),
                    "\(printed.stdout)")
                #expect(String(login.output.2) == url)
                let home = Self.home(folder, name)
                let result = try await PraykitProcess.run(
                    ["sync", "login", "--server", url, "--code", String(login.output.1), "--device-name", name],
                    environment: home)
                #expect(result.status == 0, "\(name): \(result.stderr)")
                homes.append(home)
            }
            // And one records a prayer while the other changes a synced setting, then both sync
            let recorded = try await PraykitProcess.run(
                ["log", "record", "--prayer", "fajr", "--status", "qada", "--date", "2026-11-28", "--tz", "UTC"],
                environment: homes[0])
            let set = try await PraykitProcess.run(["config", "set", "madhab", "hanafi"], environment: homes[1])
            #expect(recorded.status == 0 && set.status == 0, "\(recorded.stderr) \(set.stderr)")
            for _ in 0..<2 {
                for home in homes {
                    let synced = try await PraykitProcess.run(["sync", "now"], environment: home)
                    #expect(synced.status == 0, "\(synced.stderr)")
                }
            }
            // Then: the same log and the same settings in both homes
            var logs: [String] = []
            var configs: [String] = []
            for home in homes {
                let log = try await PraykitProcess.run(
                    ["log", "list", "--from", "2026-11-01", "--to", "2026-11-30", "--tz", "UTC", "--format", "json"],
                    environment: home)
                let config = try await PraykitProcess.run(["config", "list", "--format", "json"], environment: home)
                #expect(log.status == 0 && config.status == 0, "\(log.stderr) \(config.stderr)")
                logs.append(log.stdout)
                configs.append(config.stdout)
            }
            #expect(logs[0] == logs[1] && logs[0].contains("\"fajr\"") && logs[0].contains("\"qada\""), "\(logs)")
            #expect(configs[0] == configs[1] && configs[0].contains("hanafi"), "\(configs)")
            // And the server lists both devices, seen and not revoked
            let devices = try await PraykitProcess.run(
                ["serve", "sync", "devices", "list", "--format", "json", "--sync-store", store])
            let json = try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [String: Any]
            let listed = try #require(json?["devices"] as? [[String: Any]], "\(devices.stdout)")
            #expect(Set(listed.compactMap { $0["name"] as? String }) == ["laptop", "desktop"])
            #expect(listed.allSatisfy { $0["revoked"] as? Bool == false && $0["lastSeen"] is String })
        }
    #endif
}
