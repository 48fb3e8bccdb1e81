import PrayCore
import Synchronization

/// A ``FastStore`` in memory that never fails: it keeps every fast recorded into it, one per day.
///
/// ```swift
/// let store = FastStoreFake()
/// try store.record([try FastEntry(date: day, status: .fasted, recordedAt: .now)])
/// ```
public final class FastStoreFake: FastStore {
    private let stored = Mutex<[CivilDate: FastEntry]>([:])

    /// Creates a store holding `entries`.
    public init(_ entries: [FastEntry] = []) {
        stored.withLock { table in for entry in entries { table[entry.date] = entry } }
    }

    /// Keeps `entries`, each replacing the fast of its day.
    public func record(_ entries: [FastEntry]) {
        stored.withLock { table in for entry in entries { table[entry.date] = entry } }
    }

    /// The kept entries from `start` through `end`, by date.
    public func entries(from start: CivilDate, through end: CivilDate) -> [FastEntry] {
        stored.withLock { table in
            table.values.filter { $0.date >= start && $0.date <= end }.sorted { $0.date < $1.date }
        }
    }

    /// Removes and returns the fast of `date`.
    @discardableResult
    public func delete(on date: CivilDate) -> FastEntry? {
        stored.withLock { $0.removeValue(forKey: date) }
    }
}
