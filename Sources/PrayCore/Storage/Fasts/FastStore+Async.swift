// MARK: - The async view

extension FastStore {
    /// ``WorkQueue/shared``: a store that has no queue of its own runs its `async` calls there.
    public var workQueue: WorkQueue { .shared }

    /// This store's methods as `async` functions that run on ``workQueue`` while the caller is
    /// suspended — for the main actor and any code that must not wait for the database.
    public var async: AsyncFastStore { AsyncFastStore(store: self) }
}

/// The `async` counterparts of a ``FastStore``'s methods, with the same names: each runs the
/// synchronous method on the store's ``FastStore/workQueue``, off the caller's actor. Get it from
/// ``FastStore/async``.
///
/// ```swift
/// let ramadan = try await dependency.fasts().async.entries(from: first, through: last)
/// ```
public struct AsyncFastStore: Sendable {
    /// The store whose methods run.
    public let store: any FastStore

    /// Records entries in one transaction, each replacing the fast of its day.
    /// - Throws: ``StorageError``.
    public func record(_ entries: [FastEntry]) async throws {
        try await store.workQueue.run { [store] in try store.record(entries) }
    }

    /// The entries from `start` through `end`, by date.
    /// - Throws: ``StorageError``.
    public func entries(from start: CivilDate, through end: CivilDate) async throws -> [FastEntry] {
        try await store.workQueue.run { [store] in try store.entries(from: start, through: end) }
    }

    /// Removes the fast of `date`, returning it.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func delete(on date: CivilDate) async throws -> FastEntry? {
        try await store.workQueue.run { [store] in try store.delete(on: date) }
    }
}
