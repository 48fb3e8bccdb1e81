import PrayCore
import Synchronization

/// A ``QadaStore`` in memory that never fails: it keeps every entry saved into it, by id.
///
/// ```swift
/// let store = QadaStoreFake()
/// try store.save([opening])
/// #expect(store.entries() == [opening])
/// ```
public final class QadaStoreFake: QadaStore {
    private let stored = Mutex<[String: QadaEntry]>([:])

    /// Creates a store holding `entries`.
    public init(_ entries: [QadaEntry] = []) {
        stored.withLock { table in for entry in entries { table[entry.id] = entry } }
    }

    /// Every entry, by `recordedAt` then id.
    public func entries() -> [QadaEntry] {
        stored.withLock { table in
            table.values.sorted { ($0.recordedAt, $0.id) < ($1.recordedAt, $1.id) }
        }
    }

    /// Keeps `entries`, each replacing the entry of the same id.
    public func save(_ entries: [QadaEntry]) {
        stored.withLock { table in for entry in entries { table[entry.id] = entry } }
    }

    /// Removes the entry with `id`, returning it.
    @discardableResult
    public func remove(id: String) -> QadaEntry? {
        stored.withLock { $0.removeValue(forKey: id) }
    }
}
