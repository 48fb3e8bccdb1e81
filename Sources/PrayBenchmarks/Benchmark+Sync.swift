import Foundation
import PrayCore
import PrayServer
import PrayServices
import Synchronization

// MARK: - Sync

extension Benchmark {
    /// How many runs each sync figure is the median of, and their sizes.
    enum SyncSizes {
        /// Runs of each push measurement (the median is reported).
        static let pushRounds = 3
        /// Pushes of one mutation in each run.
        static let singlePushes = 300
        /// Pushes of ``SyncAPI/maximumMutationsPerPush`` mutations in each run.
        static let batchPushes = 10
        /// Rows of the pull, and its runs.
        static let pullRows = 10_000
        static let pullRounds = 5
        /// Runs of each client scenario.
        static let clientRounds = 3
        /// The year of a device: five prayers a day.
        static let yearDays = 365
    }

    /// The figures of `praykit-bench --sync`: medians over runs.
    struct SyncTimes {
        var storeSinglePushesPerSecond = 0.0
        var storeBatchMutationsPerSecond = 0.0
        var storeBatchPushMilliseconds = 0.0
        var routesSinglePushesPerSecond = 0.0
        var routesBatchMutationsPerSecond = 0.0
        var routesBatchPushMilliseconds = 0.0
        var storePullMilliseconds = 0.0
        var routesPullMilliseconds = 0.0
        var catchUpSeconds = 0.0
        var catchUpRows = 0
        var offlinePushSeconds = 0.0
        var offlineEntries = 0
        var offlinePulledBack = 0
        /// A mosque's followers pulling a change (issue 36).
        var followers = FollowerTimes()
        /// What the server's store is, for the first line of the text.
        var storeDescription = "SQLite store, WAL, synchronous=FULL, in a temporary folder"

        var json: String { "{" + members().joined(separator: ",") + "}" }

        /// The figures as JSON members, named `sync…`; `prefix` replaces that `sync` (the PostgreSQL
        /// store's are `syncPostgres…`).
        func members(prefix: String = "sync") -> [String] {
            func number(_ value: Double) -> String { String(format: "%.1f", value) }
            func whole(_ value: Double) -> String { "\(Int(value.rounded()))" }
            let figures: [(String, String)] = [
                ("StorePushSingleRequestsPerSecond", whole(storeSinglePushesPerSecond)),
                ("StorePushBatchMutationsPerSecond", whole(storeBatchMutationsPerSecond)),
                ("RoutesPushSingleRequestsPerSecond", whole(routesSinglePushesPerSecond)),
                ("RoutesPushBatchMutationsPerSecond", whole(routesBatchMutationsPerSecond)),
                ("StorePull10000Milliseconds", number(storePullMilliseconds)),
                ("StorePullRowsPerSecond", whole(rowsPerSecond(storePullMilliseconds))),
                ("RoutesPull10000Milliseconds", number(routesPullMilliseconds)),
                ("RoutesPullRowsPerSecond", whole(rowsPerSecond(routesPullMilliseconds))),
                ("ClientCatchUpYearSeconds", String(format: "%.3f", catchUpSeconds)),
                ("ClientPushOfflineYearSeconds", String(format: "%.3f", offlinePushSeconds)),
            ]
            return figures.map { #""\#(prefix)\#($0.0)":\#($0.1)"# } + followers.members(prefix: prefix)
        }

        /// The SQLite figures and the PostgreSQL ones on one line each, the same measurement in each.
        static func comparison(sqlite: SyncTimes, postgres: SyncTimes) -> String {
            func whole(_ value: Double) -> String { "\(Int(value.rounded()))" }
            func fixed(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
            let lines: [(String, (SyncTimes) -> String)] = [
                ("push, 1 mutation, store.push (requests/s)", { whole($0.storeSinglePushesPerSecond) }),
                ("push, 500 mutations, store.push (mutations/s)", { whole($0.storeBatchMutationsPerSecond) }),
                ("push, 1 mutation, SyncRoutes (requests/s)", { whole($0.routesSinglePushesPerSecond) }),
                ("push, 500 mutations, SyncRoutes (mutations/s)", { whole($0.routesBatchMutationsPerSecond) }),
                ("pull of 10000 rows, store.pull (ms)", { fixed($0.storePullMilliseconds) }),
                ("pull of 10000 rows, SyncRoutes (ms)", { fixed($0.routesPullMilliseconds) }),
                ("client catches up on a year (s)", { fixed($0.catchUpSeconds, 2) }),
                ("client pushes a year from offline (s)", { fixed($0.offlinePushSeconds, 2) }),
                (
                    "follower's pull of a change, 10000 followers (µs)",
                    { fixed($0.followers.pullMedianMicroseconds, 0) }
                ),
                ("CPU of this process a follower's pull (µs)", { fixed($0.followers.cpuMicrosecondsPerPull, 0) }),
            ]
            let pad = { (text: String, width: Int) in text + String(repeating: " ", count: max(0, width - text.count)) }
            var text = "side by side (same measurements):\n  \(pad("", 48))\(pad("SQLite", 12))PostgreSQL\n"
            for (label, value) in lines {
                text += "  \(pad(label, 48))\(pad(value(sqlite), 12))\(value(postgres))\n"
            }
            return text
        }

        var text: String {
            func whole(_ value: Double) -> String { "\(Int(value.rounded()))" }
            func fixed(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
            let sizes = "median of \(SyncSizes.pushRounds) runs"
            return """
                praykit-bench --sync: sync server (\(storeDescription))
                  push, 1 mutation a request, store.push (\(SyncSizes.singlePushes) requests, \(sizes)): \
                \(whole(storeSinglePushesPerSecond)) requests/s = \(whole(storeSinglePushesPerSecond)) mutations/s
                  push, 500 mutations a request, store.push (\(SyncSizes.batchPushes) requests, \(sizes)): \
                \(whole(storeBatchMutationsPerSecond)) mutations/s (\(fixed(storeBatchPushMilliseconds)) ms a push)
                  same through SyncRoutes.respond (JSON bodies, bearer token, no sockets; rate limit raised):
                    1 mutation a request: \(whole(routesSinglePushesPerSecond)) requests/s = \
                \(whole(routesSinglePushesPerSecond)) mutations/s
                    500 mutations a request: \(whole(routesBatchMutationsPerSecond)) mutations/s \
                (\(fixed(routesBatchPushMilliseconds)) ms a push)
                  pull of \(SyncSizes.pullRows) rows by a second device, pages of 1000 from cursor 0 \
                (median of \(SyncSizes.pullRounds)):
                    store.pull: \(fixed(storePullMilliseconds)) ms (\
                \(whole(rowsPerSecond(storePullMilliseconds))) rows/s)
                    SyncRoutes.respond: \(fixed(routesPullMilliseconds)) ms (\
                \(whole(rowsPerSecond(routesPullMilliseconds))) rows/s)
                sync client (SyncServiceHTTP, its own SQLite database, SyncRoutes in process; median of \
                \(SyncSizes.clientRounds)):
                  a new device logs in and pulls a year of another's (\(catchUpRows) rows): \
                \(fixed(catchUpSeconds, 2)) s
                  a device back from a year offline pushes its outbox (\(offlineEntries) entries) on syncNow(): \
                \(fixed(offlinePushSeconds, 2)) s (the same cycle then pulls \(offlinePulledBack) rows)
                mosque spaces:
                \(followers.text)
                """
        }

        private func rowsPerSecond(_ milliseconds: Double) -> Double {
            Double(SyncSizes.pullRows) / (milliseconds / 1000)
        }
    }

    /// Measures sync against the real SQLite server store in a temporary folder (issue 21): pushes of
    /// one and of 500 mutations, through the store and through the routes, a pull of 10,000 rows, and
    /// the real client catching up after a year and pushing a year recorded offline.
    ///
    /// With `postgresURL`, the same figures on a `SyncStorePostgres` over that (empty) database.
    func measureSync(postgresURL: String? = nil) throws -> SyncTimes {
        let server = try SyncBenchServer(postgresURL: postgresURL)
        defer { server.remove() }
        var times = SyncTimes()
        if postgresURL != nil {
            times.storeDescription = "PostgreSQL store, READ COMMITTED, the database of --sync-postgres"
        }
        try measureSyncPushes(server, into: &times)
        try measureSyncPull(server, into: &times)
        (times.catchUpSeconds, times.catchUpRows) = try measureCatchUp(server)
        (times.offlinePushSeconds, times.offlineEntries, times.offlinePulledBack) = try measureOfflinePush(server)
        times.followers = try measureFollowers(server)
        return times
    }
}

// MARK: - Server

extension Benchmark {
    /// Pushes through the store, then the same through the routes: each a user of its own, whose
    /// paired device pushes new log rows (no push replaces another's rows).
    private func measureSyncPushes(_ server: SyncBenchServer, into times: inout SyncTimes) throws {
        for viaRoutes in [false, true] {
            let prefix = viaRoutes ? "routes" : "store"
            for batch in [1, SyncAPI.maximumMutationsPerPush] {
                let device = try server.pairedDevice(user: "\(prefix)-\(batch)", name: "phone")
                let clientID = SyncBenchData.clientID(seed: UInt64(batch) + (viaRoutes ? 100 : 0))
                let count = batch == 1 ? SyncSizes.singlePushes : SyncSizes.batchPushes
                var nextID = 1
                var rounds: [Double] = []
                for _ in 0..<SyncSizes.pushRounds {
                    let pushes = try (0..<count).map { _ in
                        defer { nextID += batch }
                        return SyncAPI.PushRequest(
                            clientID: clientID,
                            mutations: try SyncBenchData.logMutations(
                                count: batch, firstIndex: nextID - 1, firstID: nextID, clientID: clientID))
                    }
                    let seconds =
                        try viaRoutes
                        ? server.pushThroughRoutes(pushes, device: device)
                        : server.push(
                            pushes, device: device)
                    rounds.append(seconds)
                }
                let median = Self.median(rounds)
                switch (viaRoutes, batch) {
                case (false, 1): times.storeSinglePushesPerSecond = Double(count) / median
                case (true, 1): times.routesSinglePushesPerSecond = Double(count) / median
                case (false, _):
                    times.storeBatchMutationsPerSecond = Double(count * batch) / median
                    times.storeBatchPushMilliseconds = median / Double(count) * 1000
                case (true, _):
                    times.routesBatchMutationsPerSecond = Double(count * batch) / median
                    times.routesBatchPushMilliseconds = median / Double(count) * 1000
                }
            }
        }
    }

    /// 10,000 rows pushed by one device (in pushes of 500, not measured), pulled from cursor 0 by a
    /// second device of the user, through the store and through the routes.
    private func measureSyncPull(_ server: SyncBenchServer, into times: inout SyncTimes) throws {
        let writer = try server.pairedDevice(user: "pull", name: "phone")
        let writerID = SyncBenchData.clientID(seed: 7)
        let batch = SyncAPI.maximumMutationsPerPush
        let pushes = try stride(from: 0, to: SyncSizes.pullRows, by: batch).map { first in
            SyncAPI.PushRequest(
                clientID: writerID,
                mutations: try SyncBenchData.logMutations(
                    count: batch, firstIndex: first, firstID: first + 1, clientID: writerID))
        }
        _ = try server.push(pushes, device: writer)
        let reader = try server.pairedDevice(user: "pull", name: "laptop")
        let readerID = SyncBenchData.clientID(seed: 8)
        var storeRuns: [Double] = []
        var cursors: [String] = []
        for _ in 0..<SyncSizes.pullRounds {
            let started = DispatchTime.now().uptimeNanoseconds
            cursors = try server.pullAll(clientID: readerID, device: reader.identity)
            storeRuns.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
        }
        times.storePullMilliseconds = Self.median(storeRuns)
        // The routes get the same requests; their bodies are made beforehand from the cursors the
        // store's pages gave, so that only the server's side is measured.
        let bodies = try cursors.map { cursor in
            try JSONEncoder().encode(SyncAPI.PullRequest(clientID: readerID, cursor: cursor))
        }
        var routeRuns: [Double] = []
        for _ in 0..<SyncSizes.pullRounds {
            let (seconds, rows) = try server.pullThroughRoutes(bodies, device: reader)
            routeRuns.append(seconds * 1000)
            guard rows == SyncSizes.pullRows else {
                throw PrayError(.unavailable, message: "the routes' pull gave \(rows) rows")
            }
        }
        times.routesPullMilliseconds = Self.median(routeRuns)
    }

    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}

// MARK: - Client

extension Benchmark {
    /// A new device logs in to a user whose other device wrote a year of log and a few settings
    /// changes: pairing, then the first cycle pulls every row and applies it to the device's database.
    private func measureCatchUp(_ server: SyncBenchServer) throws -> (seconds: Double, rows: Int) {
        var runs: [Double] = []
        var rows = 0
        for run in 0..<SyncSizes.clientRounds {
            let user = "year-\(run)"
            let writer = try server.pairedDevice(user: user, name: "phone")
            let writerID = SyncBenchData.clientID(seed: 20 + UInt64(run))
            let year = try SyncBenchData.year(clientID: writerID)
            let pushes = stride(from: 0, to: year.count, by: SyncAPI.maximumMutationsPerPush).map { first in
                SyncAPI.PushRequest(
                    clientID: writerID,
                    mutations: Array(year[first..<min(year.count, first + SyncAPI.maximumMutationsPerPush)]))
            }
            _ = try server.push(pushes, device: writer)
            let client = try SyncBenchClient(server: server, name: "catch-up-\(run)")
            let code = try server.code(for: user)
            let started = DispatchTime.now().uptimeNanoseconds
            let status = try blocking { [client] in try await client.sync.login(client.login(code)) }
            runs.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            let pulled = try client.sync.history(limit: 1).first?.report.pulled ?? 0
            let entries = try client.log.entries(
                from: SyncBenchData.yearStart, through: SyncBenchData.yearStart.adding(days: SyncSizes.yearDays - 1))
            // A setting changed twice is one row.
            let distinctRows = Set(year.map { "\($0.collection)/\($0.key)" }).count
            guard status.phase == .idle, status.unsyncedCount == 0, pulled == distinctRows,
                entries.count == SyncSizes.yearDays * 5
            else {
                throw PrayError(
                    .unavailable,
                    message: "the catching-up device ended \(status.phase) with \(pulled) rows pulled, "
                        + "\(entries.count) log entries")
            }
            rows = pulled
        }
        return (Self.median(runs), rows)
    }

    /// A device logged in to a user of its own records a year of log while offline (the entries wait
    /// in its outbox), then one `syncNow()` pushes them in batches of 500 and pulls what follows.
    private func measureOfflinePush(_ server: SyncBenchServer) throws -> (seconds: Double, entries: Int, pulled: Int) {
        var runs: [Double] = []
        var pulled = 0
        let entries = try SyncBenchData.yearEntries()
        for run in 0..<SyncSizes.clientRounds {
            let user = "offline-\(run)"
            let client = try SyncBenchClient(server: server, name: "offline-\(run)")
            let code = try server.code(for: user)
            _ = try blocking { [client] in try await client.sync.login(client.login(code)) }
            try client.log.record(entries)
            let waiting = try client.sync.unsyncedCount()
            let started = DispatchTime.now().uptimeNanoseconds
            let report = try blocking { [client] in try await client.sync.syncNow() }
            runs.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            let stored = try server.store.users().first { $0.name == user }?.rowCount ?? 0
            guard waiting == entries.count, report.pushed == entries.count, try client.sync.unsyncedCount() == 0,
                stored == entries.count
            else {
                throw PrayError(
                    .unavailable,
                    message: "the device back online had \(waiting) waiting, pushed \(report.pushed), "
                        + "the server holds \(stored)")
            }
            pulled = report.pulled
        }
        return (Self.median(runs), entries.count, pulled)
    }

    /// Runs async work to completion from this synchronous program: the main thread waits while the
    /// work runs on the cooperative pool. (The default run stays synchronous, as it was.)
    private func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let result = SyncBenchOutcome<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            result.value.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        guard let outcome = result.value.withLock({ $0 }) else {
            throw PrayError(.unavailable, message: "the work did not finish")
        }
        return try outcome.get()
    }
}

/// The outcome of async work, handed back to the waiting thread.
final class SyncBenchOutcome<T: Sendable>: Sendable {
    let value = Mutex<Result<T, any Error>?>(nil)
}

// MARK: - The server in a temporary folder

/// The real server store — `SyncStoreSQLite` in a temporary folder, or `SyncStorePostgres` on an
/// empty database — and `SyncRoutes` over it, on the system clock, without logging. The routes'
/// per-device rate limit is raised to a billion requests a minute: the benchmark sends thousands a
/// second from one device, which the standard 120 would refuse. The clients' databases are in the
/// temporary folder either way.
final class SyncBenchServer: Sendable {
    static let url = URL(string: "http://127.0.0.1:8080")!
    let folder: URL
    let store: any SyncStore
    let routes: SyncRoutes

    /// A server on SQLite, or on the PostgreSQL database of `postgresURL`, which must hold no user:
    /// the benchmark's users and client IDs are the same on every run.
    init(postgresURL: String? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "praykit-bench-sync-\(UUID().uuidString)")
        if let postgresURL {
            #if canImport(CPostgres)
                store = SyncStorePostgres(url: postgresURL, connections: 1, log: .silent)
            #else
                throw PrayError(.unavailable, message: "PostgreSQL sync stores need Linux (libpq)")
            #endif
            guard try store.users().isEmpty else {
                throw PrayError(
                    .unavailable,
                    message: "the PostgreSQL database of the benchmark must be empty (it already has sync users)")
            }
        } else {
            store = SyncStoreSQLite(path: folder.appendingPathComponent("server/sync.sqlite").path, log: .silent)
        }
        // After the check above, so that a refused database leaves no folder behind; the SQLite store
        // opens its file at first use.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        routes = SyncRoutes(store: store, clock: PrayClockSystem(), log: .silent, requestsPerMinute: 1_000_000_000)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// A pairing code for `user`, who is added on first use.
    func code(for user: String) throws -> String {
        if try store.users().contains(where: { $0.name == user }) {
            return try store.newPairingCode(forUser: user, now: Date()).code
        }
        return try store.addUser(named: user, now: Date()).code
    }

    /// A device paired for `user`: its token and identity.
    func pairedDevice(user: String, name: String) throws -> (token: String, identity: SyncDeviceIdentity) {
        let paired = try store.pair(
            SyncAPI.PairRequest(code: try code(for: user), deviceName: name), address: "127.0.0.1", now: Date())
        return (paired.token, try store.authenticate(token: paired.token, address: "127.0.0.1", now: Date()))
    }

    /// Pushes through the store, each in its transaction; the seconds taken.
    func push(_ pushes: [SyncAPI.PushRequest], device: (token: String, identity: SyncDeviceIdentity)) throws
        -> Double
    {
        var last: SyncAPI.PushResponse?
        let started = DispatchTime.now().uptimeNanoseconds
        for push in pushes { last = try store.push(push, from: device.identity, now: Date()) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        try Self.check(last, pushes)
        return seconds
    }

    /// The same pushes as JSON bodies (encoded beforehand) through the routes with the device's bearer
    /// token; the seconds taken.
    func pushThroughRoutes(_ pushes: [SyncAPI.PushRequest], device: (token: String, identity: SyncDeviceIdentity))
        throws -> Double
    {
        let bodies = try pushes.map { try JSONEncoder().encode($0) }
        let request = Self.request("/sync/v1/push", token: device.token)
        var failures = 0
        var lastBody = Data()
        let started = DispatchTime.now().uptimeNanoseconds
        for body in bodies {
            let response = routes.respond(to: request, body: body, remoteAddress: "127.0.0.1")
            if response.status != 200 { failures += 1 }
            lastBody = response.body
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard failures == 0 else { throw PrayError(.unavailable, message: "\(failures) pushes were refused") }
        try Self.check(try JSONDecoder().decode(SyncAPI.PushResponse.self, from: lastBody), pushes)
        return seconds
    }

    /// Pulls every row from cursor 0 in pages of the most rows allowed; the cursors of the requests made.
    func pullAll(clientID: String, device: SyncDeviceIdentity) throws -> [String] {
        var cursors = ["0"]
        var rows = 0
        while true {
            let page = try store.pull(
                SyncAPI.PullRequest(clientID: clientID, cursor: cursors.last!), from: device, now: Date())
            rows += page.rows.count
            guard page.hasMore else { break }
            cursors.append(page.cursor)
        }
        guard rows == Benchmark.SyncSizes.pullRows else {
            throw PrayError(.unavailable, message: "the pull gave \(rows) rows")
        }
        return cursors
    }

    /// The pull's requests through the routes: the seconds taken, and the rows the answers held
    /// (decoded after the clock stopped).
    func pullThroughRoutes(_ bodies: [Data], device: (token: String, identity: SyncDeviceIdentity)) throws
        -> (seconds: Double, rows: Int)
    {
        let request = Self.request("/sync/v1/pull", token: device.token)
        var answers: [ServerAPI.Response] = []
        answers.reserveCapacity(bodies.count)
        let started = DispatchTime.now().uptimeNanoseconds
        for body in bodies { answers.append(routes.respond(to: request, body: body, remoteAddress: "127.0.0.1")) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        var rows = 0
        for (index, answer) in answers.enumerated() {
            guard answer.status == 200 else {
                throw PrayError(.unavailable, message: "a pull was answered \(answer.status)")
            }
            let page = try JSONDecoder().decode(SyncAPI.PullResponse.self, from: answer.body)
            guard page.hasMore == (index < answers.count - 1) else {
                throw PrayError(.unavailable, message: "the pull's pages did not end where the store's did")
            }
            rows += page.rows.count
        }
        return (seconds, rows)
    }

    private static func request(_ path: String, token: String) -> ServerAPI.Request {
        ServerAPI.Request(
            method: "POST", path: path,
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
    }

    private static func check(_ last: SyncAPI.PushResponse?, _ pushes: [SyncAPI.PushRequest]) throws {
        let expected = pushes.last?.mutations.last?.id ?? 0
        guard let last, last.lastMutationID == expected, last.rejected.isEmpty else {
            throw PrayError(
                .unavailable,
                message: "the server acknowledged \(last?.lastMutationID ?? 0) of \(expected) mutations, "
                    + "rejected \(last?.rejected.count ?? 0)")
        }
    }

    /// Hands a client's request to the routes, as the server would after reading it from a socket.
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let answer = routes.respond(
            to: ServerAPI.Request(
                method: request.method.rawValue, target: request.url.path, headers: ServerAPI.Fields(request.headers)),
            body: request.body ?? Data(), remoteAddress: "127.0.0.1")
        return HTTPResponse(
            status: answer.status,
            headers: Dictionary(answer.headers.map { ($0.key.lowercased(), $0.value) }) { $1 },
            body: answer.body, url: request.url, duration: 0)
    }
}

/// A ``NetworkService`` that hands each request to the routes in this process: the client's whole
/// path but the socket (as `LoopbackNetwork` in the server's tests, without faults).
final class SyncBenchNetwork: NetworkService {
    private let server: SyncBenchServer

    init(server: SyncBenchServer) {
        self.server = server
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = server.handle(request)
        guard request.acceptedStatuses.contains(response.status) else {
            throw NetworkError(
                kind: .status, url: request.url, status: response.status, message: "status \(response.status)",
                retryAfter: response.headers["retry-after"].flatMap(TimeInterval.init))
        }
        return response
    }
}

/// A device with the real client: its own database (created before any measurement), its log store
/// and `SyncServiceHTTP` talking to the server through ``SyncBenchNetwork``.
final class SyncBenchClient: Sendable {
    let log: PrayerLogStoreSQLite
    let sync: SyncServiceHTTP
    let name: String

    init(server: SyncBenchServer, name: String) throws {
        self.name = name
        let database = SQLiteDatabase(
            path: server.folder.appendingPathComponent("\(name)/praykit.sqlite").path, log: .silent)
        let journal = SyncJournal(machineIdentity: { "praykit-bench" })
        log = PrayerLogStoreSQLite(database: database, log: .silent, journal: journal)
        _ = try PreferencesStoreSQLite(database: database, log: .silent, journal: journal).update { _ in }
        sync = SyncServiceHTTP(
            database: database, network: SyncBenchNetwork(server: server), clock: PrayClockSystem(), log: .silent,
            journal: journal)
    }

    func login(_ code: String) -> SyncLogin {
        SyncLogin(server: SyncBenchServer.url, code: code, deviceName: name)
    }
}

// MARK: - Data

/// The rows of the benchmark, the same on every run: log entries for consecutive days, five prayers
/// a day, stamped when they were recorded; client IDs from fixed seeds.
enum SyncBenchData {
    /// 2000-01-01, the first day of the pushes and the pull.
    static let firstDay = CivilDate(daysSince1970: 10_957)
    /// 2025-01-01, the first day of a device's year.
    static let yearStart = CivilDate(daysSince1970: 20_089)

    static func clientID(seed: UInt64) -> String {
        var generator = SplitMix64(seed: seed)
        return "c_" + SyncID.hex(count: 16, using: &generator)
    }

    /// The day, prayer, status, note and time of entry `index` from `first`.
    static func entry(_ index: Int, from first: CivilDate) throws -> PrayerLogEntry {
        let date = first.adding(days: index / 5)
        let milliseconds = Int64(date.daysSince1970) * 86_400_000 + Int64(5 + 3 * (index % 5)) * 3_600_000
        return try PrayerLogEntry(
            date: date, prayer: Prayer.obligatory[index % 5], status: PrayerStatus.allCases[(index / 5 + index) % 4],
            recordedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
            note: index % 25 == 0 ? "at the mosque" : nil)
    }

    /// Puts of `count` log entries from `firstIndex`, numbered from `firstID`.
    static func logMutations(
        count: Int, firstIndex: Int, firstID: Int, clientID: String,
        from first: CivilDate = SyncBenchData.firstDay
    )
        throws -> [SyncAPI.Mutation]
    {
        try (0..<count).map { offset in
            let logEntry = try Self.entry(firstIndex + offset, from: first)
            let milliseconds = PrayerLogEntry.milliseconds(logEntry.recordedAt)
            return SyncAPI.Mutation(
                id: firstID + offset, collection: .log,
                key: SyncRules.logKey(date: logEntry.date, prayer: logEntry.prayer), op: .put,
                hlc: try HLC(milliseconds: milliseconds, counter: 0, clientID: clientID),
                value: .log(SyncLogValue(status: logEntry.status, recordedAt: logEntry.recordedAt, note: logEntry.note))
            )
        }
    }

    /// A device's year: 365 days of five prayers, then six settings changes and the saved place,
    /// numbered from 1.
    static func year(clientID: String) throws -> [SyncAPI.Mutation] {
        let count = Benchmark.SyncSizes.yearDays * 5
        let log = try logMutations(count: count, firstIndex: 0, firstID: 1, clientID: clientID, from: yearStart)
        let settings: [(String, String)] = [
            ("method", "umm-al-qura"), ("madhab", "hanafi"), ("hijri-offset", "1"), ("fajr-angle", "18.5"),
            ("hijri-offset", "0"), ("method", "muslim-world-league"),
        ]
        let end = Int64(yearStart.adding(days: Benchmark.SyncSizes.yearDays).daysSince1970) * 86_400_000
        var changes = try settings.enumerated().map { offset, setting in
            SyncAPI.Mutation(
                id: count + 1 + offset, collection: .pref, key: setting.0, op: .put,
                hlc: try HLC(milliseconds: end + Int64(offset), counter: 0, clientID: clientID),
                value: .pref(SyncPrefValue(value: setting.1)))
        }
        changes.append(
            SyncAPI.Mutation(
                id: count + settings.count + 1, collection: .place, key: "current", op: .put,
                hlc: try HLC(milliseconds: end + Int64(settings.count), counter: 0, clientID: clientID),
                value: .place(
                    SyncPlaceValue(
                        name: "London", latitude: 51.5074, longitude: -0.1278, elevation: 11, timeZone: "Europe/London")
                )))
        return log + changes
    }

    /// The log entries of a device's year.
    static func yearEntries() throws -> [PrayerLogEntry] {
        try (0..<Benchmark.SyncSizes.yearDays * 5).map { try entry($0, from: yearStart) }
    }
}
