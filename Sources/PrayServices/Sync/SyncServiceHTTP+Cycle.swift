import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Cycles

extension SyncServiceHTTP {
    /// Runs one cycle now; see ``SyncService/syncNow()``.
    /// - Throws: ``SyncError``, ``NetworkError``, ``StorageError``.
    @discardableResult
    public func syncNow() async throws -> SyncReport {
        try await cycle(quick: false)
    }

    /// A cycle of one short attempt per request, for after a write: it never holds the person up for
    /// long, and its failure is only recorded. Nothing happens (and `nil` comes back at once) unless a
    /// store sharing this service's journal wrote an outbox entry since this process's last cycle
    /// (``needsSyncAfterWrite``).
    /// - Returns: What it did, or `nil` when nothing waits, sync is off or the cycle failed.
    @discardableResult
    public func syncAfterWrite() async -> SyncReport? {
        CrashPoint.reach(.clientWriteCommitted)
        guard needsSyncAfterWrite else { return nil }
        let phase = try? currentStatus().phase
        guard phase == .idle || phase == .offline else { return nil }
        return try? await cycle(quick: true)
    }

    /// A quick cycle before an edit of a whole synced record; see ``SyncService/syncBeforeEdit()``.
    /// - Returns: What it did, or `nil` when sync is off, logged out or the cycle failed.
    @discardableResult
    public func syncBeforeEdit() async -> SyncReport? {
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
    /// after a failure it waits 1, 2, 4… minutes (or what the server asked), at most ``interval``. Beside
    /// them it holds the live updates (``live()``): a pull whenever the server says another device
    /// changed something.
    public func runScheduler() async {
        let token = database.addObserver { [self] in
            if (try? unsyncedCount()) ?? 0 > 0 { triggerSync() }
        }
        defer { database.removeObserver(token) }
        // The live updates beside the cycles: a change elsewhere arrives in about a second.
        let live = Task { [self] in await runLive { _ in } }
        defer { live.cancel() }
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
                } catch let error as SyncError where Self.waitsForThePerson(error.kind) {
                    // Not logged in, logged out, copied: nothing to retry until the person acts.
                    nextDue = clock.now().addingTimeInterval(interval)
                } catch {
                    failures += 1
                    var wait = min(interval, 60 * pow(2, Double(min(failures - 1, 10))))
                    if let after = local.withLock({ $0.retryAfter }) { wait = max(wait, min(after, interval)) }
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

    /// Whether a failure of this kind waits for the person (a login, an update) rather than for time.
    static func waitsForThePerson(_ kind: SyncErrorKind) -> Bool {
        switch kind {
        case .notLoggedIn, .unauthorized, .forbidden, .copiedDatabase, .upgradeRequired, .invalidServer,
            .pairingRefused, .unsyncedChanges, .notAMember, .readOnly:
            true
        case .protocolViolation, .rateLimited, .serverUnavailable, .cycleTooLong: false
        }
    }

    /// One cycle: push until the outbox is empty, pull until the server has no more, and push again
    /// what became pending meanwhile (the first login's settings).
    func cycle(quick: Bool) async throws -> SyncReport {
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

    func cycleAlone(quick: Bool) async throws -> SyncReport {
        let session = try openSession()
        let written = journal.writes.total
        local.withLock { $0.writesAtLastCycle = written }
        setSyncing(true)
        defer { setSyncing(false) }
        var report = SyncReport()
        do {
            var session = session
            session.budget = CycleBudget(limits: quick ? .afterWrite : .full, started: clock.now())
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
            // Said once per state: a device that stays offline does not warn at every write.
            let changed = (try? finish(report, error: error)) ?? true
            if changed {
                log.warning("Sync cycle failed", metadata: ["error": "\(error)"])
            } else {
                log.debug("Sync cycle failed again", metadata: ["error": "\(error)"])
            }
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
        /// What the cycle may still spend.
        var budget: CycleBudget
    }

    /// A device that last synced with an older row schema (it logged in before this version): the
    /// rows of the newer collections it already kept without a stamp (the announced month starts and
    /// the mosques' timetables of schema 2) are queued, and everything is pulled again, since the server
    /// left out the rows the older schema did not know and the cursor has passed them.
    static func upgradeSchema(journal: SyncJournal, now: Date, _ connection: SQLiteConnection) throws {
        let schema = Int(try SyncJournal.get(.schema, connection) ?? "1") ?? 1
        guard schema < SyncAPI.schemaVersion else { return }
        try SyncJournal.set(.cursor, "0", connection)
        for home in SyncedCollections.all where home.collections.contains(where: { $0.schema > schema }) {
            // A collection whose stored data no longer reads is left for its own error, not this upgrade's.
            for row in (try? home.rows(connection)) ?? []
            where try row.collection.schema > schema && SyncJournal.rowStamp(row.collection, row.key, connection) == nil
            {
                try journal.append(row.collection, row.key, value: row.value, now: now, connection)
            }
        }
        try SyncJournal.set(.schema, String(SyncAPI.schemaVersion), connection)
    }

    func openSession() throws -> Session {
        guard database.exists else {
            throw SyncError(.notLoggedIn, message: "sync is not set up on this device: log in first")
        }
        let state = try database.write { [journal, clock] connection -> [SyncJournal.Key: String]? in
            guard try SyncJournal.isOn(connection) else { return nil }
            try journal.detectCopy(connection)
            try Self.upgradeSchema(journal: journal, now: clock.now(), connection)
            return try Self.state(connection)
        }
        guard let state else {
            throw SyncError(.notLoggedIn, message: "sync is not set up on this device: log in first")
        }
        switch state[.loggedOut].flatMap(SyncJournal.LoggedOut.init(rawValue:)) {
        case .copied?:
            throw SyncError(
                .copiedDatabase,
                message:
                    "this database was copied from another machine; its changes are kept: log in again to sync them")
        case .unauthorized?:
            throw SyncError(
                .unauthorized,
                message: "the server no longer accepts this device (revoked or unknown); changes are kept: log in again"
            )
        case nil: break
        }
        guard let serverText = state[.server], let server = URL(string: serverText), let clientID = state[.clientID]
        else {
            throw SyncError(.notLoggedIn, message: "sync is not set up on this device: log in first")
        }
        guard let token = tokenFile.read() else {
            throw SyncError(
                .notLoggedIn,
                message: "this device's token is missing (\(tokenPath)); log in again")
        }
        return Session(
            server: server, token: token, clientID: clientID, budget: CycleBudget(limits: .full, started: clock.now()))
    }

    /// After the first complete pull of a login that prefers the server's settings: the settings and
    /// the place the server did not have are queued from this device.
    func afterFirstPull() throws -> Bool {
        let now = clock.now()
        return try database.write { [journal] connection -> Bool in
            guard try SyncJournal.get(.preferServer, connection) == "1" else { return false }
            try SyncJournal.set(.preferServer, nil, connection)
            var queued = false
            for home in SyncedCollections.all where home.followsLoginPreference {
                for row in try home.rows(connection)
                where try SyncJournal.rowStamp(row.collection, row.key, connection) == nil {
                    try journal.append(row.collection, row.key, value: row.value, now: now, connection)
                    queued = true
                }
            }
            return queued
        }
    }

    /// Records the cycle in the history and the state.
    /// - Returns: Whether the failure differs from the last one (a success after a failure too).
    @discardableResult
    func finish(_ report: SyncReport, error: (any Error)?) throws -> Bool {
        let now = PrayerLogEntry.milliseconds(clock.now())
        let message = error.map(Self.describe)
        return try database.write { connection -> Bool in
            guard try SyncJournal.isOn(connection) else { return true }
            try connection.prepare(
                "INSERT INTO sync_history (at, succeeded, pushed, pulled, rejected, message) VALUES (?, ?, ?, ?, ?, ?)"
            ).run([
                .integer(now), .integer(error == nil ? 1 : 0), .integer(Int64(report.pushed)),
                .integer(Int64(report.pulled)), .integer(Int64(report.rejected)), message.map { .text($0) } ?? .null,
            ])
            try connection.prepare(
                "DELETE FROM sync_history WHERE id <= (SELECT max(id) FROM sync_history) - ?"
            ).run([.integer(Int64(Self.historyLimit))])
            let before = try SyncJournal.get(.lastError, connection)
            if let error {
                try SyncJournal.set(.lastError, message, connection)
                try SyncJournal.set(.lastErrorKind, Self.offlineReason(error).rawValue, connection)
            } else {
                try SyncJournal.set(.lastSynced, String(now), connection)
                try SyncJournal.set(.lastError, nil, connection)
                try SyncJournal.set(.lastErrorKind, nil, connection)
            }
            return before != message
        }
    }

    /// What a failure says of the server: not reached, up but unable, asking to wait, or else.
    static func offlineReason(_ error: any Error) -> SyncStatus.OfflineReason {
        switch error {
        case let error as NetworkError where error.kind == .connection || error.kind == .timeout: .unreachable
        case let error as SyncError where error.kind == .serverUnavailable: .serverUnavailable
        case let error as SyncError where error.kind == .rateLimited: .rateLimited
        default: .failed
        }
    }
}
