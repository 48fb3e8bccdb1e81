import Foundation
import PrayCore
import Synchronization

/// A ``PreferencesStore`` in memory, recording every update.
public final class PreferencesStoreMock: PreferencesStore {
    private let state = Mutex<(preferences: Preferences, updates: Int, error: StorageError?)>((Preferences(), 0, nil))

    /// Creates a store holding `preferences`.
    public init(_ preferences: Preferences = Preferences()) {
        state.withLock { $0.preferences = preferences }
    }

    /// How many updates were saved.
    public var updates: Int { state.withLock { $0.updates } }

    /// When set, every call throws it.
    public var error: StorageError? {
        get { state.withLock { $0.error } }
        set { state.withLock { $0.error = newValue } }
    }

    /// The stored preferences.
    /// - Throws: ``error`` when set.
    public func preferences() throws -> Preferences {
        try state.withLock { state throws(StorageError) in
            if let error = state.error { throw error }
            return state.preferences
        }
    }

    /// Applies `change` and saves the result.
    /// - Throws: ``error`` when set, or what `change` throws.
    @discardableResult
    public func update(_ change: (inout Preferences) throws -> Void) throws -> Preferences {
        var preferences = try self.preferences()
        try change(&preferences)
        let saved = preferences
        state.withLock { state in
            state.preferences = saved
            state.updates += 1
        }
        return saved
    }

    /// The current preferences once (the mock does not observe changes).
    public func preferencesSequence() -> AsyncStream<Preferences> {
        let current = try? preferences()
        return AsyncStream { continuation in
            if let current { continuation.yield(current) }
            continuation.finish()
        }
    }
}

/// A ``PrayerLogStore`` in memory, stamping entries with a fixed clock.
public final class PrayerLogStoreMock: PrayerLogStore {
    private let state = Mutex<[PrayerLogEntry]>([])
    private let now: @Sendable () -> Date

    /// Creates an empty log.
    public init(now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_953_600) }) {
        self.now = now
    }

    /// Every entry, by date and prayer.
    public var allEntries: [PrayerLogEntry] { state.withLock { $0 } }

    /// Records or replaces an entry.
    /// - Throws: ``ValidationError`` for a prayer that is not one of the five.
    @discardableResult
    public func record(_ status: PrayerStatus, for prayer: Prayer, on date: CivilDate) throws -> PrayerLogEntry {
        let entry = try PrayerLogEntry(date: date, prayer: prayer, status: status, recordedAt: now())
        try record([entry])
        return entry
    }

    /// Records or replaces entries.
    public func record(_ entries: [PrayerLogEntry]) throws {
        state.withLock { stored in
            for entry in entries {
                stored.removeAll { $0.date == entry.date && $0.prayer == entry.prayer }
                stored.append(entry)
            }
            stored.sort { ($0.date, $0.prayer.ordinal) < ($1.date, $1.prayer.ordinal) }
        }
    }

    /// The entries in the range.
    public func entries(from start: CivilDate, through end: CivilDate) throws -> [PrayerLogEntry] {
        allEntries.filter { (start...end).contains($0.date) }
    }

    /// The statistics of every entry.
    public func statistics(today: CivilDate) throws -> PrayerLogStatistics {
        PrayerLogStatistics(entries: allEntries, today: today)
    }

    /// The entries in the range once (the mock does not observe changes).
    public func entriesSequence(from start: CivilDate, through end: CivilDate) -> AsyncStream<[PrayerLogEntry]> {
        let entries = (try? entries(from: start, through: end)) ?? []
        return AsyncStream { continuation in
            continuation.yield(entries)
            continuation.finish()
        }
    }
}

/// A ``BackupService`` over in-memory stores.
public struct BackupServiceMock: BackupService {
    /// The preferences it exports and imports into.
    public let preferences: PreferencesStoreMock
    /// The log it exports and imports into.
    public let prayerLog: PrayerLogStoreMock

    /// Creates a backup service over the two mocks.
    public init(
        preferences: PreferencesStoreMock = PreferencesStoreMock(), prayerLog: PrayerLogStoreMock = PrayerLogStoreMock()
    ) {
        self.preferences = preferences
        self.prayerLog = prayerLog
    }

    /// The two stores' contents.
    public func exportData() throws -> UserData {
        UserData(preferences: try preferences.preferences(), prayerLog: prayerLog.allEntries)
    }

    /// Replaces the two stores' contents.
    public func importData(_ data: UserData) throws {
        try preferences.update { $0 = data.preferences }
        try prayerLog.record(data.prayerLog)
    }
}
