/// Keeps the user's ``Preferences``.
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
}
