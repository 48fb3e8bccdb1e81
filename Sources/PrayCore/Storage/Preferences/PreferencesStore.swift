/// Keeps the user's ``Preferences``.
///
/// The methods are synchronous, for servers, tools and the command line. Code on the main actor (an
/// app's views and models) calls them through ``async`` instead, which runs them on ``workQueue`` and
/// never makes its actor wait for the database:
///
/// ```swift
/// let saved = try await dependency.preferences().async.preferences()
/// ```
public protocol PreferencesStore: Sendable {
    /// The stored preferences (empty when none were ever saved).
    /// - Throws: ``StorageError``.
    func preferences() throws -> Preferences

    /// Changes the preferences in one transaction: `change` sees the current values, and what it
    /// leaves is saved, or nothing is if it throws.
    /// - Returns: The saved preferences.
    /// - Throws: What `change` throws, or ``StorageError``.
    @discardableResult
    func update(_ change: (inout Preferences) throws -> Void) throws -> Preferences

    /// The current preferences at once, then again after every committed change, until the task is
    /// cancelled or the loop ends.
    func preferencesSequence() -> AsyncStream<Preferences>

    /// Where ``async`` runs this store's methods: ``WorkQueue/shared`` unless the store has a queue
    /// of its own (the SQLite store runs on its database's).
    var workQueue: WorkQueue { get }
}
