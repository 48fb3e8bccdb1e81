// MARK: - The async view

extension PreferencesStore {
    /// ``WorkQueue/shared``: a store that has no queue of its own runs its `async` calls there.
    public var workQueue: WorkQueue { .shared }

    /// This store's methods as `async` functions that run on ``workQueue`` while the caller is
    /// suspended — for the main actor and any code that must not wait for the database. The
    /// synchronous methods stay for servers, tools and the command line.
    public var async: AsyncPreferencesStore { AsyncPreferencesStore(store: self) }
}

/// The `async` counterparts of a ``PreferencesStore``'s methods, with the same names: each runs the
/// synchronous method on the store's ``PreferencesStore/workQueue``, off the caller's actor. Get it
/// from ``PreferencesStore/async``.
///
/// ```swift
/// let saved = try await dependency.preferences().async.update { try $0.set("isna", for: .method) }
/// ```
///
/// A separate type rather than `async` overloads of the store's own names: in an `async` function
/// Swift prefers an `async` overload, so every existing call of `preferences()` there would have
/// started to need `await` or silently changed where it runs.
public struct AsyncPreferencesStore: Sendable {
    /// The store whose methods run.
    public let store: any PreferencesStore

    /// The stored preferences (empty when none were ever saved), read on the store's queue.
    /// - Throws: ``StorageError``.
    public func preferences() async throws -> Preferences {
        try await store.workQueue.run { [store] in try store.preferences() }
    }

    /// Changes the preferences in one transaction on the store's queue: `change` sees the current
    /// values, and what it leaves is saved, or nothing is if it throws. `change` runs on that queue,
    /// so it takes only `Sendable` values.
    /// - Returns: The saved preferences.
    /// - Throws: What `change` throws, or ``StorageError``.
    @discardableResult
    public func update(_ change: @escaping @Sendable (inout Preferences) throws -> Void) async throws -> Preferences {
        try await store.workQueue.run { [store] in try store.update(change) }
    }
}
