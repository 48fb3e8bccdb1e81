// MARK: - The async view

extension BackupService {
    /// ``WorkQueue/shared``: a service that has no queue of its own runs its `async` calls there.
    public var workQueue: WorkQueue { .shared }

    /// This service's methods as `async` functions that run on ``workQueue`` while the caller is
    /// suspended — for the main actor and any code that must not wait for the database. The
    /// synchronous methods stay for servers, tools and the command line.
    public var async: AsyncBackupService { AsyncBackupService(service: self) }
}

/// The `async` counterparts of a ``BackupService``'s methods, with the same names: each runs the
/// synchronous method on the service's ``BackupService/workQueue``, off the caller's actor. Get it
/// from ``BackupService/async``.
///
/// ```swift
/// let file = try await dependency.backup().async.exportData().encoded()
/// ```
public struct AsyncBackupService: Sendable {
    /// The service whose methods run.
    public let service: any BackupService

    /// Everything stored.
    /// - Throws: ``StorageError``.
    public func exportData() async throws -> UserData {
        try await service.workQueue.run { [service] in try service.exportData() }
    }

    /// Replaces everything stored with `data`, in one transaction: all of it, or (on any failure)
    /// nothing.
    /// - Throws: ``StorageError``.
    public func importData(_ data: UserData) async throws {
        try await service.workQueue.run { [service] in try service.importData(data) }
    }

    /// Replaces everything stored with `data`, in one transaction, except the settings in `kept`,
    /// which stay as they are (see ``BackupService/importData(_:keeping:)``).
    /// - Throws: ``StorageError``.
    public func importData(_ data: UserData, keeping kept: Set<Preferences.Key>) async throws {
        try await service.workQueue.run { [service] in try service.importData(data, keeping: kept) }
    }
}
