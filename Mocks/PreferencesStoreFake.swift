import PrayCore
import Synchronization

/// A ``PreferencesStore`` in memory that never fails: it starts with the preferences the test gives
/// and keeps every update.
///
/// ```swift
/// let preferences = PreferencesStoreFake(saved)
/// … run the code …
/// #expect(preferences.preferences()[.method] == "muslim-world-league")
/// ```
public final class PreferencesStoreFake: PreferencesStore {
    private let stored: Mutex<Preferences>
    private let observers = ChangeObservers()

    /// Creates a store holding `preferences`.
    public init(_ preferences: Preferences = Preferences()) {
        stored = Mutex(preferences)
    }

    /// The stored preferences.
    public func preferences() -> Preferences {
        stored.withLock { $0 }
    }

    /// Applies `change` and keeps the result, all at once: `change` runs while the store is locked,
    /// so it must not use the store.
    /// - Throws: What `change` throws (nothing is kept).
    @discardableResult
    public func update(_ change: (inout Preferences) throws -> Void) rethrows -> Preferences {
        let saved = try stored.withLock { stored in
            var changed = stored
            try change(&changed)
            stored = changed
            return changed
        }
        observers.changed()
        return saved
    }

    /// The preferences now, then after every update.
    public func preferencesSequence() -> AsyncStream<Preferences> {
        observers.stream { [unowned self] in preferences() }
    }
}
