import Foundation
import PrayCore
import PrayMocks
import PrayServer
import PrayServices
import Synchronization

/// A sync server and its devices in one process, without sockets: the real `SyncStoreSQLite` and
/// `SyncRoutes`, and for each device a real database with its stores and a `SyncServiceHTTP` whose
/// network hands each request to the routes — through a fault plan that can lose a request before the
/// server sees it, or lose the answer after the server acted. Every clock is a fake one.
final class SyncWorld: Sendable {
    /// 2026-11-29 12:00:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_795_953_600)
    static let serverURL = URL(string: "http://127.0.0.1:8080")!

    let folder: URL
    let store: SyncStoreSQLite
    let serverClock = PrayClockFake(now: SyncWorld.start)
    let memory = LogServiceMemory()
    let routes: SyncRoutes
    /// The answers the routes gave, by path, and the requests lost.
    let traffic = Mutex<(requests: Int, lostBefore: Int, lostAfter: Int)>((0, 0, 0))

    init() throws {
        folder = try TemporaryFolders.make("praykit-world")
        let log = LogManager(services: [memory], minLevel: .debug)
        store = SyncStoreSQLite(path: folder.appendingPathComponent("server/sync.sqlite").path, log: log)
        routes = SyncRoutes(store: store, clock: serverClock, log: log, requestsPerMinute: 1_000_000)
    }

    // A device's database may make its folder again after this; the process's exit removes it then.
    deinit { TemporaryFolders.remove(folder) }

    /// A new device with an empty database, not logged in.
    func device(_ name: String, clockOffset: TimeInterval = 0) -> Device {
        Device(world: self, name: name, clockOffset: clockOffset)
    }

    /// A pairing code for `user` (made on first use).
    func code(for user: String = "amina") throws -> String {
        if try store.users().contains(where: { $0.name == user }) {
            return try store.newPairingCode(forUser: user, now: serverClock.now()).code
        }
        return try store.addUser(named: user, now: serverClock.now()).code
    }

    /// Every row the server holds for `user`, by collection and key, read with a pull from a fresh
    /// client of a device of that user.
    func serverRows(user: String = "amina") throws -> [String: SyncRow] {
        let paired = try store.pair(
            SyncAPI.PairRequest(code: try code(for: user), deviceName: "inspector"), address: "127.0.0.1",
            now: serverClock.now())
        let identity = try store.authenticate(token: paired.token, address: "127.0.0.1", now: serverClock.now())
        var rows: [String: SyncRow] = [:]
        var cursor = "0"
        while true {
            let page = try store.pull(
                SyncAPI.PullRequest(clientID: SyncID.newClientID(), cursor: cursor), from: identity,
                now: serverClock.now())
            for pulled in page.rows { rows["\(pulled.row.collection)/\(pulled.row.key)"] = pulled.row }
            cursor = page.cursor
            if !page.hasMore { break }
        }
        try store.revokeDevice(paired.deviceID, now: serverClock.now())
        return rows
    }

    /// Hands a request to the routes, as the server would.
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        traffic.withLock { $0.requests += 1 }
        let target = request.url.path
        let answer = routes.respond(
            to: ServerAPI.Request(
                method: request.method.rawValue, target: target, headers: ServerAPI.Fields(request.headers)),
            body: request.body ?? Data(), remoteAddress: "127.0.0.1")
        return HTTPResponse(
            status: answer.status,
            headers: Dictionary(answer.headers.map { ($0.key.lowercased(), $0.value) }) {
                $1
            }, body: answer.body, url: request.url, duration: 0)
    }
}

/// What a device's network does to the next requests.
enum NetworkFault: Sendable, Equatable {
    /// The request never reaches the server.
    case loseRequest
    /// The server acts on the request; the answer is lost.
    case loseAnswer
}

/// A device of the world: a database, its stores, and sync.
final class Device: Sendable {
    let name: String
    let folder: URL
    let database: SQLiteDatabase
    let clock: PrayClockFake
    let log: PrayerLogStoreSQLite
    let preferences: PreferencesStoreSQLite
    let backup: BackupServiceSQLite
    let mosques: MosqueTimetableStoreSQLite
    let qada: QadaStoreSQLite
    let fasts: FastStoreSQLite
    let sync: SyncServiceHTTP
    let network: LoopbackNetwork
    let machine: Machine
    let journal: SyncJournal

    fileprivate init(world: SyncWorld, name: String, clockOffset: TimeInterval) {
        self.name = name
        folder = world.folder.appendingPathComponent(name)
        database = SQLiteDatabase(path: folder.appendingPathComponent("praykit.sqlite").path, log: .silent)
        let clock = PrayClockFake(now: SyncWorld.start.addingTimeInterval(clockOffset))
        self.clock = clock
        let machine = Machine("machine-\(name)")
        self.machine = machine
        let journal = SyncJournal(machineIdentity: { machine.identity })
        self.journal = journal
        log = PrayerLogStoreSQLite(database: database, log: .silent, clock: clock, journal: journal)
        preferences = PreferencesStoreSQLite(database: database, log: .silent, clock: clock, journal: journal)
        backup = BackupServiceSQLite(database: database, log: .silent, clock: clock, journal: journal)
        mosques = MosqueTimetableStoreSQLite(database: database, log: .silent, clock: clock, journal: journal)
        qada = QadaStoreSQLite(database: database, log: .silent, clock: clock, journal: journal)
        fasts = FastStoreSQLite(database: database, log: .silent, clock: clock, journal: journal)
        network = LoopbackNetwork(world: world)
        sync = SyncServiceHTTP(database: database, network: network, clock: clock, log: .silent, journal: journal)
    }

    /// Logs in to the world's server with a new code.
    @discardableResult
    func login(_ world: SyncWorld, user: String = "amina", prefer: SyncLogin.Preference = .server) async throws
        -> SyncStatus
    {
        try await sync.login(
            SyncLogin(server: SyncWorld.serverURL, code: try world.code(for: user), deviceName: name, prefer: prefer))
    }

    /// The synced rows of this device, as the server would hold them: the log and the synced settings
    /// and place, read from the stores.
    func syncedRows() throws -> [String: String] {
        var rows: [String: String] = [:]
        for entry in try log.entries(from: CivilDate(daysSince1970: 0), through: CivilDate(daysSince1970: 100_000)) {
            rows["log/\(SyncRules.logKey(date: entry.date, prayer: entry.prayer))"] =
                "\(entry.status)|\(PrayerLogEntry.timestamp(entry.recordedAt))|\(entry.note ?? "")"
        }
        let saved = try preferences.preferences()
        for key in SyncRules.syncedPreferenceKeys { if let value = saved[key] { rows["pref/\(key.rawValue)"] = value } }
        for key in [Preferences.Key.latitude, .longitude, .elevation, .timeZone, .placeName] {
            if let value = saved[key] { rows["place/\(key.rawValue)"] = value }
        }
        for (month, start) in saved.hijriMonthStarts.sorted { rows["hijri-start/\(month)"] = start.description }
        for summary in try mosques.mosques() {
            guard let timetable = try mosques.timetable(named: summary.name, from: summary.first, through: summary.last)
            else { continue }
            for (month, days) in Dictionary(grouping: timetable.days, by: { String($0.date.description.prefix(7)) }) {
                let place = timetable.coordinates
                rows["mosque/\(timetable.name)/\(month)"] = try Self.text(
                    .mosque(
                        SyncMosqueValue(
                            latitude: place.latitude, longitude: place.longitude, elevation: place.elevation,
                            timeZone: timetable.timeZone, days: days.sorted { $0.date < $1.date })))
            }
        }
        for entry in try qada.entries() { rows["qada/\(entry.id)"] = try Self.text(.qada(SyncQadaValue(entry))) }
        for entry in try fasts.entries(from: CivilDate(daysSince1970: 0), through: CivilDate(daysSince1970: 100_000)) {
            rows["fast/\(entry.date)"] = try Self.text(.fast(SyncFastValue(entry)))
        }
        return rows
    }

    /// A value as the server's view of it is compared: its canonical JSON.
    static func text(_ value: SyncValue) throws -> String { String(decoding: try value.jsonData(), as: UTF8.self) }
}

/// The identity of a device's machine, which a test changes to play a database copied elsewhere.
final class Machine: Sendable {
    private let state: Mutex<String>

    init(_ identity: String) { state = Mutex(identity) }

    /// The identity now.
    var identity: String {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

/// A ``NetworkService`` that hands requests to the world's routes, with faults the test scripts.
final class LoopbackNetwork: NetworkService {
    private let world: SyncWorld
    private let faults = Mutex<(next: [NetworkFault], partitioned: Bool)>(([], false))

    init(world: SyncWorld) {
        self.world = world
    }

    /// Faults for the next requests, in order.
    func fail(_ next: NetworkFault...) { faults.withLock { $0.next += next } }

    /// Cuts the device off (every request lost before the server) or joins it again.
    func setPartitioned(_ partitioned: Bool) { faults.withLock { $0.partitioned = partitioned } }

    /// Joins the device again and forgets the faults still planned.
    func heal() { faults.withLock { $0 = ([], false) } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let fault = faults.withLock { state -> NetworkFault? in
            if state.partitioned { return .loseRequest }
            return state.next.isEmpty ? nil : state.next.removeFirst()
        }
        if fault == .loseRequest {
            world.traffic.withLock { $0.lostBefore += 1 }
            throw NetworkError(kind: .connection, url: request.url, message: "connection refused (test)")
        }
        let response = world.handle(request)
        if fault == .loseAnswer {
            world.traffic.withLock { $0.lostAfter += 1 }
            throw NetworkError(kind: .connection, url: request.url, message: "connection reset (test)")
        }
        guard request.acceptedStatuses.contains(response.status) else {
            throw NetworkError(
                kind: .status, url: request.url, status: response.status, message: "status \(response.status)",
                retryAfter: response.headers["retry-after"].flatMap(TimeInterval.init))
        }
        return response
    }
}
