// MARK: - The async view

extension QadaStore {
    /// ``WorkQueue/shared``: a store that has no queue of its own runs its `async` calls there.
    public var workQueue: WorkQueue { .shared }

    /// This store's methods as `async` functions that run on ``workQueue`` while the caller is
    /// suspended — for the main actor and any code that must not wait for the database.
    public var async: AsyncQadaStore { AsyncQadaStore(store: self) }
}

/// The `async` counterparts of a ``QadaStore``'s methods, with the same names: each runs the
/// synchronous method on the store's ``QadaStore/workQueue``, off the caller's actor. Get it from
/// ``QadaStore/async``.
///
/// ```swift
/// let ledger = QadaLedger(entries: try await dependency.qada().async.entries(), log: log, today: today,
///                         timeZone: zone)
/// ```
public struct AsyncQadaStore: Sendable {
    /// The store whose methods run.
    public let store: any QadaStore

    /// Every entry, by recording time then id.
    /// - Throws: ``StorageError``.
    public func entries() async throws -> [QadaEntry] {
        try await store.workQueue.run { [store] in try store.entries() }
    }

    /// Stores `entries`, each replacing the entry of the same id, in one transaction.
    /// - Throws: ``StorageError``.
    public func save(_ entries: [QadaEntry]) async throws {
        try await store.workQueue.run { [store] in try store.save(entries) }
    }

    /// Removes the entry with `id`, returning it.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func remove(id: String) async throws -> QadaEntry? {
        try await store.workQueue.run { [store] in try store.remove(id: id) }
    }
}
