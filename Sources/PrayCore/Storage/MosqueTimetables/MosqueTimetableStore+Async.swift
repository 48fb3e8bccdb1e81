// MARK: - The async view

extension MosqueTimetableStore {
    /// ``WorkQueue/shared``: a store that has no queue of its own runs its `async` calls there.
    public var workQueue: WorkQueue { .shared }

    /// This store's methods as `async` functions that run on ``workQueue`` while the caller is
    /// suspended — for the main actor and any code that must not wait for the database.
    public var async: AsyncMosqueTimetableStore { AsyncMosqueTimetableStore(store: self) }
}

/// The `async` counterparts of a ``MosqueTimetableStore``'s methods, with the same names: each runs
/// the synchronous method on the store's ``MosqueTimetableStore/workQueue``, off the caller's actor.
/// Get it from ``MosqueTimetableStore/async``.
///
/// ```swift
/// let mosques = try await dependency.mosqueTimetables().async.mosques()
/// ```
public struct AsyncMosqueTimetableStore: Sendable {
    /// The store whose methods run.
    public let store: any MosqueTimetableStore

    /// Stores `timetable`, replacing the mosque of that name and all its days, in one transaction.
    /// - Throws: ``StorageError``.
    public func replace(_ timetable: MosqueTimetable) async throws {
        try await store.workQueue.run { [store] in try store.replace(timetable) }
    }

    /// The mosques kept, by name.
    /// - Throws: ``StorageError``.
    public func mosques() async throws -> [MosqueSummary] {
        try await store.workQueue.run { [store] in try store.mosques() }
    }

    /// The mosque named `name` with its days from `first` through `last`.
    /// - Throws: ``StorageError``.
    public func timetable(named name: String, from first: CivilDate, through last: CivilDate) async throws
        -> MosqueTimetable?
    {
        try await store.workQueue.run { [store] in try store.timetable(named: name, from: first, through: last) }
    }

    /// Removes the mosque named `name` and its days; whether there was one.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func remove(named name: String) async throws -> Bool {
        try await store.workQueue.run { [store] in try store.remove(named: name) }
    }

    /// The settings of the mosque `name`.
    /// - Throws: ``StorageError``.
    public func settings(of name: String) async throws -> SyncMosqueSettingsValue? {
        try await store.workQueue.run { [store] in try store.settings(of: name) }
    }

    /// Sets the settings of the mosque `name`.
    /// - Throws: ``ValidationError``, ``SyncError``, ``StorageError``.
    public func setSettings(_ settings: SyncMosqueSettingsValue?, of name: String) async throws {
        try await store.workQueue.run { [store] in try store.setSettings(settings, of: name) }
    }

    /// The month starts the mosque `name` announced.
    /// - Throws: ``StorageError``.
    public func hijriMonthStarts(of name: String) async throws -> HijriMonthStarts {
        try await store.workQueue.run { [store] in try store.hijriMonthStarts(of: name) }
    }

    /// Sets (or removes) the first day of `month` as the mosque `name` announces it.
    /// - Throws: ``ValidationError``, ``SyncError``, ``StorageError``.
    public func setHijriMonthStart(_ start: CivilDate?, for month: HijriMonthStarts.Month, of name: String)
        async throws
    {
        try await store.workQueue.run { [store] in try store.setHijriMonthStart(start, for: month, of: name) }
    }

    /// The notices of the mosque `name`.
    /// - Throws: ``StorageError``.
    public func notices(of name: String) async throws -> [MosqueNotice] {
        try await store.workQueue.run { [store] in try store.notices(of: name) }
    }

    /// Adds or replaces a notice of the mosque `name`.
    /// - Throws: ``ValidationError``, ``SyncError``, ``StorageError``.
    public func putNotice(_ notice: MosqueNotice, of name: String) async throws {
        try await store.workQueue.run { [store] in try store.putNotice(notice, of: name) }
    }

    /// Removes a notice of the mosque `name`; whether there was one.
    /// - Throws: ``SyncError``, ``StorageError``.
    @discardableResult
    public func removeNotice(id: String, of name: String) async throws -> Bool {
        try await store.workQueue.run { [store] in try store.removeNotice(id: id, of: name) }
    }
}
