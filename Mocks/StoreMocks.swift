import Foundation
import PrayCore
import Synchronization

/// A ``PreferencesStore`` in memory: it starts with the preferences the test gives, records every
/// call, and throws ``error`` when the test sets one.
public final class PreferencesStoreMock: PreferencesStore {
    private struct State {
        var preferences: Preferences
        var calls: [String] = []
        var updates = 0
        var error: StorageError?
    }

    private let state: Mutex<State>

    /// Creates a store holding `preferences`.
    public init(_ preferences: Preferences = Preferences()) {
        state = Mutex(State(preferences: preferences))
    }

    /// The names of the requirements called, oldest first (`"preferences()"`, `"update(_:)"`, …).
    public var calls: [String] { state.withLock { $0.calls } }

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
        try current(recording: "preferences()")
    }

    /// Applies `change` and saves the result.
    /// - Throws: ``error`` when set, or what `change` throws.
    @discardableResult
    public func update(_ change: (inout Preferences) throws -> Void) throws -> Preferences {
        var preferences = try current(recording: "update(_:)")
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
        let current = try? current(recording: "preferencesSequence()")
        return AsyncStream { continuation in
            if let current { continuation.yield(current) }
            continuation.finish()
        }
    }

    private func current(recording call: String) throws(StorageError) -> Preferences {
        try state.withLock { state throws(StorageError) in
            state.calls.append(call)
            if let error = state.error { throw error }
            return state.preferences
        }
    }
}

/// A ``PrayerLogStore`` in memory: it stamps entries with a fixed clock, records every call, and
/// throws ``error`` when the test sets one.
public final class PrayerLogStoreMock: PrayerLogStore {
    private struct State {
        var entries: [PrayerLogEntry] = []
        var calls: [String] = []
        var error: StorageError?
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    /// Creates an empty log.
    /// - Parameter now: The clock that stamps entries; 2026-11-29 12:00 UTC by default.
    public init(now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_953_600) }) {
        self.now = now
    }

    /// Every entry, by date and prayer.
    public var allEntries: [PrayerLogEntry] { state.withLock { $0.entries } }

    /// The names of the requirements called, oldest first (`"record(_:for:on:)"`, …).
    public var calls: [String] { state.withLock { $0.calls } }

    /// When set, every call throws it.
    public var error: StorageError? {
        get { state.withLock { $0.error } }
        set { state.withLock { $0.error = newValue } }
    }

    /// Records or replaces an entry.
    /// - Throws: ``error`` when set; ``ValidationError`` for a prayer that is not one of the five.
    @discardableResult
    public func record(_ status: PrayerStatus, for prayer: Prayer, on date: CivilDate) throws -> PrayerLogEntry {
        _ = try entries(recording: "record(_:for:on:)")
        let entry = try PrayerLogEntry(date: date, prayer: prayer, status: status, recordedAt: now())
        store([entry])
        return entry
    }

    /// Records or replaces entries.
    /// - Throws: ``error`` when set.
    public func record(_ entries: [PrayerLogEntry]) throws {
        _ = try self.entries(recording: "record(_:)")
        store(entries)
    }

    /// The entries in the range.
    /// - Throws: ``error`` when set.
    public func entries(from start: CivilDate, through end: CivilDate) throws -> [PrayerLogEntry] {
        try entries(recording: "entries(from:through:)").filter { (start...end).contains($0.date) }
    }

    /// Removes the entries of `prayers` on `date`, returning them.
    /// - Throws: ``error`` when set.
    @discardableResult
    public func delete(_ prayers: [Prayer], on date: CivilDate) throws -> [PrayerLogEntry] {
        _ = try entries(recording: "delete(_:on:)")
        return state.withLock { state in
            let removed = state.entries.filter { $0.date == date && prayers.contains($0.prayer) }
            state.entries.removeAll { $0.date == date && prayers.contains($0.prayer) }
            return removed
        }
    }

    /// The statistics of every entry.
    /// - Throws: ``error`` when set.
    public func statistics(today: CivilDate) throws -> PrayerLogStatistics {
        PrayerLogStatistics(entries: try entries(recording: "statistics(today:)"), today: today)
    }

    /// The entries in the range once (the mock does not observe changes).
    public func entriesSequence(from start: CivilDate, through end: CivilDate) -> AsyncStream<[PrayerLogEntry]> {
        let entries = (try? entries(recording: "entriesSequence(from:through:)")) ?? []
        let inRange = entries.filter { (start...end).contains($0.date) }
        return AsyncStream { continuation in
            continuation.yield(inRange)
            continuation.finish()
        }
    }

    private func entries(recording call: String) throws(StorageError) -> [PrayerLogEntry] {
        try state.withLock { state throws(StorageError) in
            state.calls.append(call)
            if let error = state.error { throw error }
            return state.entries
        }
    }

    /// Every entry for a backup, throwing ``error`` when set.
    func backupEntries() throws(StorageError) -> [PrayerLogEntry] {
        try state.withLock { state throws(StorageError) in
            if let error = state.error { throw error }
            return state.entries
        }
    }

    /// Replaces every entry, as an import does.
    func replaceAll(with entries: [PrayerLogEntry]) throws(StorageError) {
        try state.withLock { state throws(StorageError) in
            if let error = state.error { throw error }
            state.entries = []
        }
        store(entries)
    }

    private func store(_ entries: [PrayerLogEntry]) {
        state.withLock { state in
            for entry in entries {
                state.entries.removeAll { $0.date == entry.date && $0.prayer == entry.prayer }
                state.entries.append(entry)
            }
            state.entries.sort { ($0.date, $0.prayer.ordinal) < ($1.date, $1.prayer.ordinal) }
        }
    }
}

/// A ``BackupService`` over the two in-memory stores, recording every call.
public final class BackupServiceMock: BackupService {
    /// The preferences it exports and imports into.
    public let preferences: PreferencesStoreMock
    /// The log it exports and imports into.
    public let prayerLog: PrayerLogStoreMock
    private let recorded = Mutex<[String]>([])

    /// Creates a backup service over the two mocks.
    public init(
        preferences: PreferencesStoreMock = PreferencesStoreMock(), prayerLog: PrayerLogStoreMock = PrayerLogStoreMock()
    ) {
        self.preferences = preferences
        self.prayerLog = prayerLog
    }

    /// The names of the requirements called, oldest first.
    public var calls: [String] { recorded.withLock { $0 } }

    /// The two stores' contents.
    /// - Throws: The stores' ``PreferencesStoreMock/error`` or ``PrayerLogStoreMock/error``.
    public func exportData() throws -> UserData {
        recorded.withLock { $0.append("exportData()") }
        return UserData(preferences: try preferences.preferences(), prayerLog: try prayerLog.backupEntries())
    }

    /// Replaces the two stores' contents.
    /// - Throws: The stores' ``PreferencesStoreMock/error`` or ``PrayerLogStoreMock/error``.
    public func importData(_ data: UserData) throws {
        recorded.withLock { $0.append("importData(_:)") }
        _ = try prayerLog.backupEntries()  // a failing log fails before anything changes
        try preferences.update { $0 = data.preferences }
        try prayerLog.replaceAll(with: data.prayerLog)
    }
}
