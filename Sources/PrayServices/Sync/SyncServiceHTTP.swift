import Foundation
import PrayCore
import Synchronization

/// ``SyncService`` over the `/sync/v1/` protocol of SYNC.md, speaking to `praykit serve` through a
/// ``NetworkService``, with the outbox, the stamps and the state in the SQLite database.
///
/// A cycle pushes the outbox in batches of at most 500 (each push is idempotent, so a retry after a
/// lost answer changes nothing twice), then pulls pages until the server has no more, applying each
/// page and acknowledging the outbox in one transaction. One cycle runs at a time in a process; two
/// processes syncing at once only repeat each other's idempotent work.
public final class SyncServiceHTTP: SyncService {
    private let database: SQLiteDatabase
    private let network: any NetworkService
    private let clock: any PrayClock
    private let log: LogManager
    private let journal: SyncJournal
    private let gate = CycleGate()
    private let local = Mutex(LocalState())
    /// How long ``triggerSync()`` waits, so that several changes go together, seconds.
    public let triggerDelay: TimeInterval
    /// How often ``runScheduler()`` syncs when nothing happens, seconds.
    public let interval: TimeInterval

    /// The most history entries kept.
    static let historyLimit = 100
    /// Requests tried after a write must never hold the person up: one attempt of a few seconds.
    static let quickTimeout: TimeInterval = 4

    private struct LocalState {
        var syncing = false
        var triggered = false
        var lastYielded: SyncStatus?
        var lastObserver = 0
        var observers: [Int: @Sendable () -> Void] = [:]
    }

    /// Creates the service.
    /// - Parameters:
    ///   - database: The database whose log and settings sync.
    ///   - network: The HTTP client.
    ///   - clock: The clock: stamps, the server's offset, and the scheduler's waits.
    ///   - log: The logger; tokens and codes never reach it.
    ///   - journal: Sync's journal (the machine identity that tells a copied database).
    ///   - triggerDelay: How long ``triggerSync()`` waits before a cycle, seconds.
    ///   - interval: How often ``runScheduler()`` syncs when nothing happens, seconds.
    public init(
        database: SQLiteDatabase, network: any NetworkService, clock: any PrayClock, log: LogManager,
        journal: SyncJournal = SyncJournal(), triggerDelay: TimeInterval = 5, interval: TimeInterval = 30 * 60
    ) {
        self.database = database
        self.network = network
        self.clock = clock
        self.log = log
        self.journal = journal
        self.triggerDelay = triggerDelay
        self.interval = interval
    }

    /// The file that keeps this device's token.
    public var tokenPath: String { SyncJournal.tokenPath(forDatabase: database.path) }
}

// MARK: - Status

extension SyncServiceHTTP {
    /// The status now, then after every change of it, deduplicated, until the task is cancelled.
    public func status() -> AsyncStream<SyncStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncStatus.self, bufferingPolicy: .bufferingNewest(1))
        let last = Mutex<SyncStatus?>(nil)
        let queue = database.workQueue
        let emit: @Sendable () -> Void = { [self] in
            queue.submit {
                let status: SyncStatus
                do {
                    status = try self.currentStatus()
                } catch {
                    // Nothing to yield; the next change reads again. Said, so that a status stream that
                    // seems stuck can be explained.
                    self.log.warning("Sync status read failed", metadata: ["error": "\(error)"])
                    return
                }
                let changed = last.withLock { last in
                    defer { last = status }
                    return last != status
                }
                if changed { continuation.yield(status) }
            }
        }
        let databaseToken = database.addObserver(emit)
        let localToken = local.withLock { state in
            state.lastObserver += 1
            state.observers[state.lastObserver] = emit
            return state.lastObserver
        }
        continuation.onTermination = { [self] _ in
            database.removeObserver(databaseToken)
            _ = local.withLock { $0.observers.removeValue(forKey: localToken) }
        }
        emit()
        return stream
    }

    /// The status now, from the database and the cycle running in this process.
    /// - Throws: ``StorageError``.
    public func currentStatus() throws -> SyncStatus {
        guard database.exists else { return .off }
        let syncing = local.withLock { $0.syncing }
        return try database.read { [journal] connection in
            guard try SyncJournal.isOn(connection) else { return SyncStatus.off }
            let state = try Self.state(connection)
            let pending = try SyncJournal.pendingSummary(connection)
            let failed = Int(try connection.integer("SELECT count(*) FROM sync_failed") ?? 0)
            let copied =
                state[.loggedOut] == SyncJournal.LoggedOut.copied.rawValue || state[.machine] != journal.machine
            let phase: SyncStatus.Phase =
                copied
                ? .needsLogin
                : state[.loggedOut] != nil
                    ? .loggedOut : syncing ? .syncing : state[.lastError] != nil ? .offline : .idle
            var status = SyncStatus(
                phase: phase, server: state[.server], deviceName: state[.deviceName],
                lastSynced: state[.lastSynced].flatMap(Int64.init).map {
                    Date(timeIntervalSince1970: Double($0) / 1000)
                },
                unsyncedCount: pending.count, oldestUnsynced: pending.oldest, failedCount: failed,
                lastError: state[.lastError])
            status.deviceID = state[.deviceID]
            status.user = state[.user]
            if copied {
                status.lastError = "this database was copied from another machine; log in again (praykit sync login)"
            }
            return status
        }
    }

    /// How many local changes the server has not acknowledged.
    /// - Throws: ``StorageError``.
    public func unsyncedCount() throws -> Int {
        guard database.exists else { return 0 }
        return try database.read { connection in try SyncJournal.pendingSummary(connection).count }
    }

    /// The latest cycles, newest first.
    /// - Throws: ``StorageError``.
    public func history(limit: Int) throws -> [SyncHistoryEntry] {
        guard database.exists else { return [] }
        return try database.read { connection in
            let statement = try connection.prepare(
                "SELECT at, succeeded, pushed, pulled, rejected, message FROM sync_history ORDER BY id DESC LIMIT ?")
            try statement.bind([.integer(Int64(max(0, limit)))])
            var entries: [SyncHistoryEntry] = []
            while try statement.step() {
                entries.append(
                    SyncHistoryEntry(
                        at: Date(timeIntervalSince1970: Double(statement.int64(0)) / 1000),
                        succeeded: statement.int64(1) == 1,
                        report: SyncReport(
                            pushed: Int(statement.int64(2)), pulled: Int(statement.int64(3)),
                            rejected: Int(statement.int64(4))),
                        message: statement.text(5)))
            }
            return entries
        }
    }

    /// The changes the server refused, oldest first.
    /// - Throws: ``StorageError``.
    public func failedChanges() throws -> [SyncFailedChange] {
        guard database.exists else { return [] }
        return try database.read { connection in
            let statement = try connection.prepare(
                "SELECT collection, key, op, reason, failed_at FROM sync_failed ORDER BY mutation_id")
            var changes: [SyncFailedChange] = []
            while try statement.step() {
                guard let collection = statement.text(0).flatMap(SyncCollection.init(rawValue:)),
                    let operation = statement.text(2).flatMap(SyncAPI.Operation.init(rawValue:))
                else { continue }
                changes.append(
                    SyncFailedChange(
                        collection: collection, key: statement.text(1) ?? "", operation: operation,
                        reason: statement.text(3) ?? "",
                        failedAt: Date(timeIntervalSince1970: Double(statement.int64(4)) / 1000)))
            }
            return changes
        }
    }
}

// MARK: - Login, logout, repair

extension SyncServiceHTTP {
    /// Pairs this device and turns sync on; see ``SyncService/login(_:)``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    @discardableResult
    public func login(_ login: SyncLogin) async throws -> SyncStatus {
        let server = try Self.checkServer(login.server)
        let code = login.code.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = login.deviceName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !code.isEmpty, code.utf8.count <= 64 else {
            throw SyncError(.pairingRefused, message: "the pairing code is empty or too long")
        }
        guard !name.isEmpty, name.count <= 100 else {
            throw SyncError(.invalidServer, message: "the device name must have 1 to 100 characters")
        }
        let body = try JSONEncoder().encode(SyncAPI.PairRequest(code: code, deviceName: name))
        let response = try await send(server, path: "devices", body: body, token: nil, quick: false)
        guard response.status == 201 || response.status == 200 else {
            let error = Self.errorBody(response)
            switch response.status {
            case 400, 401, 403, 404, 410:
                throw SyncError(
                    .pairingRefused,
                    message: "the server refused the pairing code (wrong, already used or expired): "
                        + (error?.message ?? "status \(response.status)")
                        + "; ask for a new one with `praykit serve sync pair <user>`")
            default: throw Self.unexpected(response, error)
            }
        }
        let paired: SyncAPI.PairResponse
        do {
            paired = try JSONDecoder().decode(SyncAPI.PairResponse.self, from: response.body)
        } catch {
            throw SyncError(.protocolViolation, message: "the server's answer to pairing is not what SYNC.md says")
        }
        guard paired.token.hasPrefix("pkd_"), paired.token.utf8.count <= 200 else {
            throw SyncError(.protocolViolation, message: "the server sent a token of the wrong shape")
        }
        // The database (and its folder) first, so that the token has a place and a failure to open
        // leaves no token behind.
        try database.read { _ in () }
        try writeToken(paired.token)
        let now = clock.now()
        do {
            try database.write { [journal] connection in
                let wasOn = try SyncJournal.isOn(connection)
                let clientID = SyncID.newClientID()
                let values: [(SyncJournal.Key, String?)] = [
                    (.enabled, "1"), (.server, server.absoluteString), (.user, paired.user),
                    (.deviceID, paired.deviceID), (.deviceName, name), (.clientID, clientID),
                    (.machine, journal.machine), (.cursor, "0"), (.schema, String(SyncAPI.schemaVersion)),
                    (.loggedOut, nil), (.lastError, nil),
                ]
                for (key, value) in values { try SyncJournal.set(key, value, connection) }
                if wasOn {
                    // Logged in again (revoked, copied): every change that waits goes under the new ID.
                    try SyncJournal.renumber(from: 1, connection)
                    return
                }
                try connection.execute(
                    "DELETE FROM sync_outbox; DELETE FROM sync_rows; DELETE FROM sync_failed; DELETE FROM sync_history")
                try SyncJournal.set(.nextMutationID, "1", connection)
                try SyncJournal.set(.clockOffset, "0", connection)
                try Self.enqueueExisting(
                    prefer: login.prefer, now: now, journal: journal, clientID: clientID, connection)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: tokenPath)
            throw error
        }
        log.notice("Sync login", metadata: ["sync.server": server.absoluteString, "sync.device": paired.deviceID])
        notifyLocal()
        do {
            try await syncNow()
        } catch {
            log.warning("First sync failed", metadata: ["error": "\(error)"])
        }
        return try currentStatus()
    }

    /// Turns sync off; see ``SyncService/logout(force:)``.
    /// - Throws: ``SyncError``, ``StorageError``.
    @discardableResult
    public func logout(force: Bool) throws -> Int {
        guard database.exists else { return 0 }
        let dropped = try database.write { connection -> Int in
            guard try SyncJournal.isOn(connection) else { return 0 }
            let pending = try SyncJournal.pendingSummary(connection).count
            if pending > 0, !force {
                throw SyncError(
                    .unsyncedChanges,
                    message: "\(pending) change\(pending == 1 ? "" : "s") not yet synced would be lost; "
                        + "run `praykit sync now` first, or log out with --force to drop \(pending == 1 ? "it" : "them")"
                )
            }
            try connection.execute(
                "DELETE FROM sync_outbox; DELETE FROM sync_rows; DELETE FROM sync_failed; DELETE FROM sync_state; "
                    + "DELETE FROM sync_history")
            return pending
        }
        try? FileManager.default.removeItem(atPath: tokenPath)
        log.notice("Sync logout", metadata: ["sync.dropped": "\(dropped)"])
        notifyLocal()
        return dropped
    }

    /// Forgets the pull cursor; see ``SyncService/reset()``.
    /// - Throws: ``SyncError`` (`notLoggedIn`), ``StorageError``.
    public func reset() throws {
        try database.write { connection in
            guard try SyncJournal.isOn(connection) else {
                throw SyncError(.notLoggedIn, message: "sync is not set up on this device; run `praykit sync login`")
            }
            try SyncJournal.set(.cursor, "0", connection)
        }
    }

    /// Queues the refused changes again with new stamps.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func retryFailed() throws -> Int {
        guard database.exists else { return 0 }
        let now = clock.now()
        return try database.write { [journal] connection in
            let statement = try connection.prepare(
                "SELECT mutation_id, collection, key, op, hlc, value, failed_at FROM sync_failed ORDER BY mutation_id")
            var failed: [SyncJournal.Pending] = []
            while try statement.step() { failed.append(try SyncJournal.pending(statement, connection)) }
            for change in failed {
                try journal.append(
                    change.mutation.collection, change.mutation.key, value: change.mutation.value, now: now, connection)
            }
            try connection.execute("DELETE FROM sync_failed")
            return failed.count
        }
    }

    /// Forgets the refused changes and pulls everything again at the next cycle.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func dropFailed() throws -> Int {
        guard database.exists else { return 0 }
        return try database.write { connection in
            let count = Int(try connection.integer("SELECT count(*) FROM sync_failed") ?? 0)
            guard count > 0 else { return 0 }
            // The server's values replace the refused ones: their rows lose their local stamps.
            try connection.execute(
                "DELETE FROM sync_rows WHERE (collection, key) IN (SELECT collection, key FROM sync_failed); "
                    + "DELETE FROM sync_failed")
            try SyncJournal.set(.cursor, "0", connection)
            return count
        }
    }
}

// MARK: - Cycles

extension SyncServiceHTTP {
    /// Runs one cycle now; see ``SyncService/syncNow()``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    @discardableResult
    public func syncNow() async throws -> SyncReport {
        try await cycle(quick: false)
    }

    /// A cycle of one short attempt per request, for after a write: it never holds the person up for
    /// long, and its failure is only recorded.
    /// - Returns: What it did, or `nil` when sync is off or the cycle failed.
    @discardableResult
    public func syncAfterWrite() async -> SyncReport? {
        CrashPoint.reach(.clientWriteCommitted)
        let phase = try? currentStatus().phase
        guard phase == .idle || phase == .offline else { return nil }
        return try? await cycle(quick: true)
    }

    /// Asks for a cycle a few seconds from now; several calls in that time make one cycle.
    public func triggerSync() {
        let first = local.withLock { state in
            defer { state.triggered = true }
            return !state.triggered
        }
        guard first else { return }
        Task { [self] in
            try? await clock.sleep(for: triggerDelay)
            local.withLock { $0.triggered = false }
            _ = try? await syncNow()
        }
    }

    /// Runs cycles until the task is cancelled: every ``interval``, a few seconds after a change in
    /// this process, and, checked every minute, whenever changes wait (a write by another process);
    /// after a failure it waits 1, 2, 4… minutes (or what the server asked), at most ``interval``.
    public func runScheduler() async {
        let token = database.addObserver { [self] in
            if (try? unsyncedCount()) ?? 0 > 0 { triggerSync() }
        }
        defer { database.removeObserver(token) }
        var nextDue = clock.now()
        var failures = 0
        while !Task.isCancelled {
            let now = clock.now()
            let waiting = ((try? unsyncedCount()) ?? 0) > 0
            if now >= nextDue || (waiting && failures == 0) {
                do {
                    try await syncNow()
                    failures = 0
                    nextDue = clock.now().addingTimeInterval(interval)
                } catch let error as SyncError where error.kind != .rateLimited {
                    // Not logged in, logged out, copied: nothing to retry until the person acts.
                    nextDue = clock.now().addingTimeInterval(interval)
                } catch {
                    failures += 1
                    var wait = min(interval, 60 * pow(2, Double(min(failures - 1, 10))))
                    if let network = error as? NetworkError, let after = network.retryAfter { wait = max(wait, after) }
                    nextDue = clock.now().addingTimeInterval(wait)
                }
            }
            do {
                try await clock.sleep(for: 60)
            } catch {
                return
            }
        }
    }

    /// One cycle: push until the outbox is empty, pull until the server has no more, and push again
    /// what became pending meanwhile (the first login's settings).
    private func cycle(quick: Bool) async throws -> SyncReport {
        await gate.lock()
        do {
            let report = try await cycleAlone(quick: quick)
            await gate.unlock()
            return report
        } catch {
            await gate.unlock()
            throw error
        }
    }

    private func cycleAlone(quick: Bool) async throws -> SyncReport {
        let session = try openSession()
        setSyncing(true)
        defer { setSyncing(false) }
        var report = SyncReport()
        do {
            var session = session
            try await pushAll(&session, report: &report, quick: quick)
            try await pullAll(&session, report: &report, quick: quick)
            if try afterFirstPull() || unsyncedCount() > 0 {
                try await pushAll(&session, report: &report, quick: quick)
            }
            try finish(report, error: nil)
            log.info(
                "Sync cycle",
                metadata: [
                    "sync.pushed": "\(report.pushed)", "sync.pulled": "\(report.pulled)",
                    "sync.rejected": "\(report.rejected)",
                ])
            return report
        } catch {
            try? finish(report, error: error)
            log.warning("Sync cycle failed", metadata: ["error": "\(error)"])
            throw error
        }
    }

    /// What a cycle needs: the server, the token and the client ID.
    struct Session {
        var server: URL
        var token: String
        var clientID: String
        var batchSize = SyncAPI.maximumMutationsPerPush
        var conflicts = 0
    }

    /// A device that last synced with an older row schema (it logged in before this version): the
    /// data of the newer collections it already kept — the announced month starts and the mosques'
    /// timetables — is queued, and everything is pulled again, since the server left out the rows the
    /// older schema did not know and the cursor has passed them.
    static func upgradeSchema(journal: SyncJournal, now: Date, _ connection: SQLiteConnection) throws {
        guard Int(try SyncJournal.get(.schema, connection) ?? "1") ?? 1 < SyncAPI.schemaVersion else { return }
        try SyncJournal.set(.cursor, "0", connection)
        var rows: [(collection: SyncCollection, key: String, value: SyncValue?)] = []
        let starts = (try? PreferencesStoreSQLite.load(connection))?.hijriMonthStarts ?? HijriMonthStarts()
        for (month, start) in starts.sorted {
            rows.append((.hijriStart, month.description, .hijriStart(SyncHijriStartValue(start: start))))
        }
        for row in try MosqueTimetableStoreSQLite.syncRows(connection) { rows.append((.mosque, row.key, row.value)) }
        for row in rows where try SyncJournal.rowStamp(row.collection, row.key, connection) == nil {
            try journal.append(row.collection, row.key, value: row.value, now: now, connection)
        }
        try SyncJournal.set(.schema, String(SyncAPI.schemaVersion), connection)
    }

    private func openSession() throws -> Session {
        guard database.exists else {
            throw SyncError(.notLoggedIn, message: "sync is not set up on this device; run `praykit sync login`")
        }
        let state = try database.write { [journal, clock] connection -> [SyncJournal.Key: String]? in
            guard try SyncJournal.isOn(connection) else { return nil }
            try journal.detectCopy(connection)
            try Self.upgradeSchema(journal: journal, now: clock.now(), connection)
            return try Self.state(connection)
        }
        guard let state else {
            throw SyncError(.notLoggedIn, message: "sync is not set up on this device; run `praykit sync login`")
        }
        switch state[.loggedOut].flatMap(SyncJournal.LoggedOut.init(rawValue:)) {
        case .copied?:
            throw SyncError(
                .copiedDatabase,
                message: "this database was copied from another machine; its changes are kept: log in again "
                    + "with `praykit sync login` to sync them")
        case .unauthorized?:
            throw SyncError(
                .unauthorized,
                message: "the server no longer accepts this device (revoked or unknown); changes are kept: "
                    + "log in again with `praykit sync login`")
        case nil: break
        }
        guard let serverText = state[.server], let server = URL(string: serverText), let clientID = state[.clientID]
        else {
            throw SyncError(.notLoggedIn, message: "sync is not set up on this device; run `praykit sync login`")
        }
        guard let token = readToken() else {
            throw SyncError(
                .notLoggedIn,
                message: "this device's token is missing (\(tokenPath)); log in again with `praykit sync login`")
        }
        return Session(server: server, token: token, clientID: clientID)
    }

    private func pushAll(_ session: inout Session, report: inout SyncReport, quick: Bool) async throws {
        var rounds = 0
        while true {
            rounds += 1
            guard rounds < 10_000 else {
                throw SyncError(.protocolViolation, message: "the server keeps not acknowledging the outbox")
            }
            let batchSize = session.batchSize
            let batch = try database.read { connection in try SyncJournal.pending(limit: batchSize, connection) }
            guard let last = batch.last else { return }
            let request = SyncAPI.PushRequest(clientID: session.clientID, mutations: batch.map(\.mutation))
            let sent = clock.now()
            let response = try await send(
                session.server, path: "push", body: try JSONEncoder().encode(request), token: session.token,
                quick: quick)
            let received = clock.now()
            if response.status == 200 { CrashPoint.reach(.clientPushAnswered) }
            switch response.status {
            case 200:
                let answer: SyncAPI.PushResponse
                do {
                    answer = try JSONDecoder().decode(SyncAPI.PushResponse.self, from: response.body)
                } catch {
                    throw SyncError(
                        .protocolViolation, message: "the server's answer to a push is not what SYNC.md says")
                }
                guard answer.lastMutationID >= batch[0].mutation.id - 1 else {
                    throw SyncError(.protocolViolation, message: "the server acknowledged less than it has")
                }
                let now = clock.now()
                let acknowledged = try database.write { connection in
                    try Self.learnOffset(answer.serverTime, sent: sent, received: received, connection)
                    return try SyncJournal.acknowledge(
                        through: answer.lastMutationID, rejected: answer.rejected, now: now, connection)
                }
                let rejected = answer.rejected.filter {
                    $0.id <= answer.lastMutationID && $0.id >= batch[0].mutation.id
                }
                report.rejected += rejected.count
                report.pushed += max(0, acknowledged - rejected.count)
                for rejection in rejected {
                    log.warning(
                        "Sync change refused",
                        metadata: ["sync.id": "\(rejection.id)", "sync.reason": rejection.reason])
                }
                if answer.lastMutationID < last.mutation.id, acknowledged == 0 {
                    throw SyncError(.protocolViolation, message: "the server took none of the changes pushed")
                }
            case 409:
                try await handleConflict(response, session: &session, sent: sent, received: received)
            case 413:
                guard session.batchSize > 1 else {
                    throw SyncError(
                        .protocolViolation,
                        message: "the server refuses even one change as too large: "
                            + (Self.errorBody(response)?.message ?? ""))
                }
                session.batchSize = max(1, session.batchSize / 2)
            default:
                try handleRefusal(response)
            }
        }
    }

    /// `mutation_gap`: number the outbox on from what the server has. `clock_ahead`: learn the
    /// offset and stamp again what the server has not taken. `client_id_conflict`: a new client ID
    /// (the database was used as two devices at once), the outbox numbered from 1 again.
    private func handleConflict(_ response: HTTPResponse, session: inout Session, sent: Date, received: Date)
        async throws
    {
        let error = Self.errorBody(response)
        session.conflicts += 1
        guard session.conflicts <= 5 else { throw Self.unexpected(response, error) }
        let now = clock.now()
        switch error?.error {
        case "mutation_gap"?:
            let last = error?.lastMutationID ?? 0
            try database.write { connection in try SyncJournal.renumber(from: last + 1, connection) }
            log.warning("Sync outbox renumbered", metadata: ["sync.last": "\(last)"])
        case "clock_ahead"?:
            let serverTime = error?.serverTime ?? ""
            let taken = error?.lastMutationID ?? 0
            try database.write { [journal] connection in
                try Self.learnOffset(serverTime, sent: sent, received: received, connection)
                // Stamps too far ahead are brought back to the server's time: the floor falls to it.
                try SyncJournal.set(.lastHLC, nil, connection)
                let pending = try SyncJournal.pending(limit: .max, connection).filter { $0.mutation.id > taken }
                let update = try connection.prepare("UPDATE sync_outbox SET hlc = ? WHERE mutation_id = ?")
                for entry in pending {
                    let stamp = try journal.stamp(now: now, connection)
                    try update.run([.text(stamp.description), .integer(Int64(entry.mutation.id))])
                    try SyncJournal.setRowStamp(
                        entry.mutation.collection, entry.mutation.key, hlc: stamp,
                        deleted: entry.mutation.op == .delete,
                        connection)
                }
            }
            log.warning("Sync clock corrected", metadata: ["sync.serverTime": serverTime])
        case "client_id_conflict"?:
            let clientID = SyncID.newClientID()
            try database.write { connection in
                try SyncJournal.set(.clientID, clientID, connection)
                try SyncJournal.renumber(from: 1, connection)
            }
            session.clientID = clientID
            log.warning("Sync client ID replaced", metadata: [:])
        default:
            throw Self.unexpected(response, error)
        }
    }

    private func pullAll(_ session: inout Session, report: inout SyncReport, quick: Bool) async throws {
        var restarted = false
        while true {
            let cursor = try database.read { connection in try SyncJournal.get(.cursor, connection) ?? "0" }
            let request = SyncAPI.PullRequest(clientID: session.clientID, cursor: cursor)
            let sent = clock.now()
            let response = try await send(
                session.server, path: "pull", body: try JSONEncoder().encode(request), token: session.token,
                quick: quick)
            let received = clock.now()
            if response.status == 410, !restarted {
                restarted = true
                try database.write { connection in try SyncJournal.set(.cursor, "0", connection) }
                log.notice("Sync cursor expired; pulling everything again", metadata: [:])
                continue
            }
            guard response.status == 200 else {
                if response.status == 409 {
                    try await handleConflict(response, session: &session, sent: sent, received: received)
                    continue
                }
                try handleRefusal(response)
                return
            }
            let page: SyncAPI.PullResponse
            do {
                page = try JSONDecoder().decode(SyncAPI.PullResponse.self, from: response.body)
            } catch {
                throw SyncError(.protocolViolation, message: "the server's answer to a pull is not what SYNC.md says")
            }
            CrashPoint.reach(.clientPullReceived)
            let now = clock.now()
            let applied = try database.write { connection in
                try Self.learnOffset(page.serverTime, sent: sent, received: received, connection)
                let applied = try Self.apply(page.rows.map(\.row), connection, log: log)
                CrashPoint.reach(.clientPullApplying)
                _ = try SyncJournal.acknowledge(through: page.lastMutationID, rejected: [], now: now, connection)
                try SyncJournal.set(.cursor, page.cursor, connection)
                return applied
            }
            report.pulled += applied
            if !page.hasMore { return }
            guard page.cursor != cursor || !page.rows.isEmpty else {
                throw SyncError(.protocolViolation, message: "the server's pull does not move on")
            }
        }
    }

    /// After the first complete pull of a login that prefers the server's settings: the settings and
    /// the place the server did not have are queued from this device.
    private func afterFirstPull() throws -> Bool {
        let now = clock.now()
        return try database.write { [journal] connection -> Bool in
            guard try SyncJournal.get(.preferServer, connection) == "1" else { return false }
            try SyncJournal.set(.preferServer, nil, connection)
            let preferences = try PreferencesStoreSQLite.load(connection)
            var queued = false
            for key in SyncRules.syncedPreferenceKeys.sorted(by: { $0.rawValue < $1.rawValue }) {
                guard let value = preferences[key], try SyncJournal.rowStamp(.pref, key.rawValue, connection) == nil
                else { continue }
                try journal.append(.pref, key.rawValue, value: .pref(SyncPrefValue(value: value)), now: now, connection)
                queued = true
            }
            if let place = SyncJournal.place(in: preferences),
                try SyncJournal.rowStamp(.place, "current", connection) == nil
            {
                try journal.append(.place, "current", value: .place(place), now: now, connection)
                queued = true
            }
            for (month, start) in preferences.hijriMonthStarts.sorted
            where try SyncJournal.rowStamp(.hijriStart, month.description, connection) == nil {
                try journal.append(
                    .hijriStart, month.description, value: .hijriStart(SyncHijriStartValue(start: start)), now: now,
                    connection)
                queued = true
            }
            return queued
        }
    }

    private func finish(_ report: SyncReport, error: (any Error)?) throws {
        let now = PrayerLogEntry.milliseconds(clock.now())
        let message = error.map(Self.describe)
        try database.write { connection in
            guard try SyncJournal.isOn(connection) else { return }
            try connection.prepare(
                "INSERT INTO sync_history (at, succeeded, pushed, pulled, rejected, message) VALUES (?, ?, ?, ?, ?, ?)"
            ).run([
                .integer(now), .integer(error == nil ? 1 : 0), .integer(Int64(report.pushed)),
                .integer(Int64(report.pulled)), .integer(Int64(report.rejected)), message.map { .text($0) } ?? .null,
            ])
            try connection.prepare(
                "DELETE FROM sync_history WHERE id <= (SELECT max(id) FROM sync_history) - ?"
            ).run([.integer(Int64(Self.historyLimit))])
            if error == nil {
                try SyncJournal.set(.lastSynced, String(now), connection)
                try SyncJournal.set(.lastError, nil, connection)
            } else {
                try SyncJournal.set(.lastError, message, connection)
            }
        }
    }
}

// MARK: - Helpers

extension SyncServiceHTTP {
    /// Every key of `sync_state`.
    static func state(_ connection: SQLiteConnection) throws -> [SyncJournal.Key: String] {
        let statement = try connection.prepare("SELECT key, value FROM sync_state")
        var state: [SyncJournal.Key: String] = [:]
        while try statement.step() {
            if let key = statement.text(0).flatMap(SyncJournal.Key.init(rawValue:)) { state[key] = statement.text(1) }
        }
        return state
    }

    /// On the first login: every log entry, qada entry and fast queued with a stamp of when it was
    /// recorded (so that an older one never replaces a newer one the server has), the mosques'
    /// timetables with a stamp of now, and the settings and place now (`local`) or after the first
    /// pull where the server has none (`server`).
    static func enqueueExisting(
        prefer: SyncLogin.Preference, now: Date, journal: SyncJournal, clientID: String, _ connection: SQLiteConnection
    ) throws {
        var rows: [(collection: SyncCollection, key: String, value: SyncValue, recordedAt: Date)] = []
        for entry in try PrayerLogStoreSQLite.load(connection, "", []) {
            let value = SyncLogValue(status: entry.status, recordedAt: entry.recordedAt, note: entry.note)
            rows.append((.log, SyncRules.logKey(date: entry.date, prayer: entry.prayer), .log(value), entry.recordedAt))
        }
        for entry in try QadaStoreSQLite.load(connection) {
            rows.append((.qada, entry.id, .qada(SyncQadaValue(entry)), entry.recordedAt))
        }
        for entry in try FastStoreSQLite.load(connection) {
            rows.append((.fast, entry.date.description, .fast(SyncFastValue(entry)), entry.recordedAt))
        }
        var highest: HLC?
        for row in rows {
            let stamp = try HLC(
                milliseconds: max(0, PrayerLogEntry.milliseconds(row.recordedAt)), counter: 0, clientID: clientID)
            try journal.append(row.collection, row.key, value: row.value, now: now, connection, stamp: stamp)
            if highest.map({ stamp > $0 }) ?? true { highest = stamp }
        }
        if let highest { try SyncJournal.observe(highest, connection) }
        try journal.changed(.mosque, try MosqueTimetableStoreSQLite.syncRows(connection), now: now, connection)
        switch prefer {
        case .local:
            try journal.preferencesChanged(
                from: Preferences(), to: try PreferencesStoreSQLite.load(connection), all: true, now: now, connection)
        case .server:
            try SyncJournal.set(.preferServer, "1", connection)
        }
    }

    /// Applies pulled rows by the merge rule, in the caller's transaction: a row replaces the local
    /// one only when its stamp is greater (a change waiting in the outbox has its own, newer stamp,
    /// so it keeps showing until the server has it). Rows that fail the validators are skipped.
    /// - Returns: How many rows changed something here.
    static func apply(_ rows: [SyncRow], _ connection: SQLiteConnection, log: LogManager) throws -> Int {
        var applied = 0
        for row in rows {
            do {
                try SyncRules.validate(collection: row.collection, key: row.key, value: row.value)
            } catch {
                log.warning(
                    "Sync row skipped", metadata: ["sync.collection": "\(row.collection)", "error": error.message])
                continue
            }
            if !row.deleted, row.value == nil { continue }
            try SyncJournal.observe(row.hlc, connection)
            if let local = try SyncJournal.rowStamp(row.collection, row.key, connection), local >= row.hlc { continue }
            try writeRow(row, connection)
            try SyncJournal.setRowStamp(row.collection, row.key, hlc: row.hlc, deleted: row.deleted, connection)
            applied += 1
        }
        return applied
    }

    /// Writes a pulled row into the log or the settings.
    private static func writeRow(_ row: SyncRow, _ connection: SQLiteConnection) throws {
        switch (row.collection, row.value) {
        case (.log, let value):
            let (date, prayer) = try SyncRules.parseLogKey(row.key)
            if case .log(let entry)? = value {
                try PrayerLogStoreSQLite.upsert(
                    [
                        try PrayerLogEntry(
                            date: date, prayer: prayer, status: entry.status, recordedAt: entry.recordedAt,
                            note: entry.note)
                    ], connection)
            } else {
                try connection.prepare("DELETE FROM prayer_log WHERE day = ? AND prayer = ?").run([
                    .integer(Int64(date.daysSince1970)), .text(prayer.rawValue),
                ])
            }
        case (.pref, let value):
            guard let key = Preferences.Key(rawValue: row.key) else { return }
            if case .pref(let pref)? = value {
                try setPreference(key, try key.normalized(pref.value), connection)
            } else {
                try setPreference(key, nil, connection)
            }
        case (.hijriStart, let value):
            let month = try HijriMonthStarts.Month(parsing: row.key)
            let stored = try connection.prepare("SELECT value FROM preferences WHERE key = ?")
            try stored.bind([.text(Preferences.Key.hijriStarts.rawValue)])
            var starts = HijriMonthStarts()
            if try stored.step(), let text = stored.text(0), let parsed = try? HijriMonthStarts(parsing: text) {
                starts = parsed
            }
            starts[month] = if case .hijriStart(let start)? = value { start.start } else { nil }
            try setPreference(.hijriStarts, starts.isEmpty ? nil : starts.description, connection)
        case (.qada, let value):
            if case .qada(let qada)? = value {
                try QadaStoreSQLite.upsert([try QadaEntry(key: row.key, qada)], connection)
            } else {
                try QadaStoreSQLite.delete(ids: [row.key], connection)
            }
        case (.fast, let value):
            let date = try CivilDate(parsing: row.key)
            if case .fast(let fast)? = value {
                try FastStoreSQLite.upsert([try FastEntry(date: date, fast)], connection)
            } else {
                _ = try FastStoreSQLite.delete(days: [date], connection)
            }
        case (.mosque, let value):
            let (name, year, month) = try SyncRules.parseMosqueKey(row.key)
            let mosque: SyncMosqueValue? = if case .mosque(let mosque)? = value { mosque } else { nil }
            try MosqueTimetableStoreSQLite.applyMonth(
                name: name, year: year, month: month, mosque, importedAt: row.hlc.milliseconds, connection)
        case (.place, let value):
            let place: SyncPlaceValue? = if case .place(let place)? = value { place } else { nil }
            try setPreference(.latitude, place.map { $0.latitude.formattedCompactly }, connection)
            try setPreference(.longitude, place.map { $0.longitude.formattedCompactly }, connection)
            try setPreference(.elevation, place?.elevation.map(\.formattedCompactly), connection)
            try setPreference(.timeZone, place?.timeZone, connection)
            try setPreference(.placeName, place?.name, connection)
        }
    }

    private static func setPreference(_ key: Preferences.Key, _ value: String?, _ connection: SQLiteConnection) throws {
        if let value {
            try connection.prepare(
                "INSERT INTO preferences (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
            ).run([.text(key.rawValue), .text(value)])
        } else {
            try connection.prepare("DELETE FROM preferences WHERE key = ?").run([.text(key.rawValue)])
        }
    }

    /// Learns the server's clock offset from an answer's `serverTime`.
    static func learnOffset(_ serverTime: String, sent: Date, received: Date, _ connection: SQLiteConnection) throws {
        guard let server = SyncAPI.parseTimestamp(serverTime) else { return }
        let middle = sent.timeIntervalSince1970 + received.timeIntervalSince(sent) / 2
        let offset = Int64(((server.timeIntervalSince1970 - middle) * 1000).rounded())
        try SyncJournal.set(.clockOffset, String(offset), connection)
    }

    /// Sends one request under `/sync/v1/`, never following a redirect, the token in its header only.
    private func send(_ server: URL, path: String, body: Data, token: String?, quick: Bool) async throws
        -> HTTPResponse
    {
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        if let token { headers["Authorization"] = "Bearer " + token }
        let url = server.appendingPathComponent("sync/v1").appendingPathComponent(path)
        // 429 and 5xx are failures, retried with backoff and Retry-After; the other answers are read here.
        let request = HTTPRequest(
            method: .post, url: url, headers: headers, body: body, acceptedStatuses: 200..<429,
            isRetryable: path != "devices", followsRedirects: false, timeout: quick ? Self.quickTimeout : nil,
            maxAttempts: quick ? 1 : nil)
        do {
            return try await network.send(request)
        } catch let error as NetworkError where error.kind == .status {
            if let status = error.status, (300..<400).contains(status) {
                throw SyncError(
                    .invalidServer,
                    message: "the server answered \(status) (a redirect), which sync never follows: "
                        + "use the server's final URL")
            }
            if error.status == 429 || error.status == 503 {
                let wait = error.retryAfter.map { " (try again in \(Int($0.rounded(.up))) s)" } ?? ""
                throw SyncError(.rateLimited, message: "the server asked to wait\(wait)")
            }
            throw error
        }
    }

    /// The status a cycle stops at: 401 logs out (changes kept), 403 and 426 say what to do.
    private func handleRefusal(_ response: HTTPResponse) throws {
        let error = Self.errorBody(response)
        switch response.status {
        case 401:
            try database.write { connection in
                try SyncJournal.set(.loggedOut, SyncJournal.LoggedOut.unauthorized.rawValue, connection)
            }
            throw SyncError(
                .unauthorized,
                message: "the server no longer accepts this device (revoked or unknown); changes are kept: "
                    + "log in again with `praykit sync login`")
        case 403:
            throw SyncError(.forbidden, message: error?.message ?? "the server refused this client")
        case 426:
            throw SyncError(
                .upgradeRequired,
                message: "the server is older than this PrayKit and cannot take its changes; they are kept: "
                    + "update the server")
        default:
            throw Self.unexpected(response, error)
        }
    }

    static func errorBody(_ response: HTTPResponse) -> SyncAPI.ErrorBody? {
        try? JSONDecoder().decode(SyncAPI.ErrorBody.self, from: response.body)
    }

    static func unexpected(_ response: HTTPResponse, _ error: SyncAPI.ErrorBody?) -> SyncError {
        let detail = error.map { "\($0.error): \($0.message)" } ?? "status \(response.status)"
        return SyncError(.protocolViolation, message: "the server refused the request (\(detail))")
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? LocalizedError, let text = error.errorDescription { return text }
        return "\(error)"
    }

    /// `https://…`, or plain `http://` to a literal loopback address only (decided on the address, not
    /// on a name or a `127.` prefix of a name).
    static func checkServer(_ url: URL) throws -> URL {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            scheme == "https" || scheme == "http", url.query == nil, url.user == nil
        else {
            throw SyncError(
                .invalidServer,
                message: "the server must be an https:// URL without a query, such as https://pray.example.org")
        }
        if scheme == "http", !Self.isLoopbackAddress(host) {
            throw SyncError(
                .invalidServer,
                message: "plain http is used only with a loopback address (127.0.0.1, ::1); use https for \(host)")
        }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text) ?? url
    }

    /// Whether `host` is a literal IPv4 loopback address (127.0.0.0/8) or `::1`.
    static func isLoopbackAddress(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }

    /// Writes the token to its own file, 0600, never through a symbolic link.
    private func writeToken(_ token: String) throws {
        let path = tokenPath
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError(
                kind: .cannotOpen, message: "cannot create the token file: \(String(cString: strerror(errno)))",
                path: path)
        }
        defer { close(descriptor) }
        fchmod(descriptor, 0o600)
        let bytes = Array(token.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count, fsync(descriptor) == 0 else {
            throw StorageError(kind: .full, message: "cannot write the token file", path: path)
        }
    }

    /// The token, when its file is there, belongs to this user and no one else can read it.
    private func readToken() -> String? {
        let descriptor = open(tokenPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            log.warning("Sync token file refused: it must belong to this user and be private (0600)", metadata: [:])
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let token = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return token.hasPrefix("pkd_") ? token : nil
    }

    private func setSyncing(_ syncing: Bool) {
        local.withLock { $0.syncing = syncing }
        notifyLocal()
    }

    private func notifyLocal() {
        for observer in local.withLock({ Array($0.observers.values) }) { observer() }
    }
}

/// One cycle at a time in a process: the next waits for the one running (SYNC.md §4, "one request in
/// flight per device").
actor CycleGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits for the gate.
    func lock() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Lets the next one in.
    func unlock() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
