// MARK: - The async view

extension SyncService {
    /// ``WorkQueue/shared``: a service that has no queue of its own runs its `async` calls there.
    public var workQueue: WorkQueue { .shared }

    /// This service's synchronous methods as `async` functions that run on ``workQueue`` while the
    /// caller is suspended: the status and the lists read the database, which may wait for another
    /// process's write (an app and its widget share it), so the main actor calls these.
    public var async: AsyncSyncService { AsyncSyncService(service: self) }
}

/// The `async` counterparts of a ``SyncService``'s synchronous methods, with the same names: each runs
/// on the service's ``SyncService/workQueue``, off the caller's actor. Get it from
/// ``SyncService/async``; the cycles (``SyncService/syncNow()``, ``SyncService/login(_:)``) are `async`
/// already.
///
/// ```swift
/// let status = try await dependency.syncService().async.currentStatus()
/// ```
public struct AsyncSyncService: Sendable {
    /// The service whose methods run.
    public let service: any SyncService

    /// The status now.
    /// - Throws: ``StorageError``.
    public func currentStatus() async throws -> SyncStatus {
        try await service.workQueue.run { [service] in try service.currentStatus() }
    }

    /// How many local changes the server has not acknowledged yet.
    /// - Throws: ``StorageError``.
    public func unsyncedCount() async throws -> Int {
        try await service.workQueue.run { [service] in try service.unsyncedCount() }
    }

    /// The latest cycles, newest first.
    /// - Throws: ``StorageError``.
    public func history(limit: Int) async throws -> [SyncHistoryEntry] {
        try await service.workQueue.run { [service] in try service.history(limit: limit) }
    }

    /// The changes the server refused, oldest first.
    /// - Throws: ``StorageError``.
    public func failedChanges() async throws -> [SyncFailedChange] {
        try await service.workQueue.run { [service] in try service.failedChanges() }
    }

    /// Turns sync off on this device; how many unsynced changes were dropped.
    /// - Throws: ``SyncError``, ``StorageError``.
    @discardableResult
    public func logout(force: Bool) async throws -> Int {
        try await service.workQueue.run { [service] in try service.logout(force: force) }
    }

    /// Forgets how far this device has pulled.
    /// - Throws: ``SyncError``, ``StorageError``.
    public func reset() async throws {
        try await service.workQueue.run { [service] in try service.reset() }
    }

    /// Queues the refused changes again; how many.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func retryFailed() async throws -> Int {
        try await service.workQueue.run { [service] in try service.retryFailed() }
    }

    /// Forgets the refused changes; how many.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func dropFailed() async throws -> Int {
        try await service.workQueue.run { [service] in try service.dropFailed() }
    }

    /// The local values a pulled row replaced, oldest first.
    /// - Throws: ``StorageError``.
    public func conflicts() async throws -> [SyncConflict] {
        try await service.workQueue.run { [service] in try service.conflicts() }
    }

    /// Makes a conflict's local value the row's value again.
    /// - Throws: ``SyncError``, ``StorageError``, ``ValidationError``.
    public func keepConflict(id: Int) async throws {
        try await service.workQueue.run { [service] in try service.keepConflict(id: id) }
    }

    /// Forgets a conflict.
    /// - Throws: ``StorageError``, ``ValidationError``.
    public func dismissConflict(id: Int) async throws {
        try await service.workQueue.run { [service] in try service.dismissConflict(id: id) }
    }

    /// The mosque spaces this device follows.
    /// - Throws: ``StorageError``.
    public func spaces() async throws -> [SyncSpaceInfo] {
        try await service.workQueue.run { [service] in try service.spaces() }
    }
}
