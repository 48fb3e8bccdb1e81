import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
            status.conflictCount = Int(try connection.integer("SELECT count(*) FROM sync_conflicts") ?? 0)
            if phase == .offline {
                status.offlineReason =
                    state[.lastErrorKind].flatMap(SyncStatus.OfflineReason.init(rawValue:)) ?? .failed
            }
            status.deviceID = state[.deviceID]
            status.liveSince = Self.liveSince(state[.live])
            status.liveError = status.liveSince == nil ? state[.liveError] : nil
            status.user = state[.user]
            status.spacesNoLongerUpdated = try SyncSpaces.all(connection).filter(\.isGone).map(\.localName)
            if copied {
                status.lastError = "this database was copied from another machine; log in again"
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
