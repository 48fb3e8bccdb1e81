import Foundation
import PrayCore

/// A ``PrayerLogStore`` whose answers the test sets, one `on…` closure per requirement, recording the
/// arguments of every call — for a log that fails or answers in a way the test chooses;
/// ``PrayerLogStoreFake`` is one that keeps what is written. A requirement without an answer records
/// a test issue and throws ``MockError``.
///
/// ```swift
/// let log = PrayerLogStoreMock()
/// log.onRecord { _, _, _ in throw StorageError(kind: .full, message: "database or disk is full") }
/// ```
///
/// The two `record` requirements are told apart by what they record: ``onRecord(_:)`` answers
/// ``record(_:for:on:note:)`` and ``onRecordEntries(_:)`` answers ``record(_:)``.
public final class PrayerLogStoreMock: PrayerLogStore {
    /// The arguments of a call of ``record(_:for:on:note:)``.
    public typealias RecordArguments = (status: PrayerStatus, prayer: Prayer, date: CivilDate, note: String?)
    /// The arguments of a call of ``entries(from:through:)``.
    public typealias EntriesArguments = (start: CivilDate, end: CivilDate)
    /// The arguments of a call of ``entriesSequence(from:through:)``.
    public typealias EntriesSequenceArguments = (start: CivilDate, end: CivilDate)
    /// The arguments of a call of ``delete(_:on:)``.
    public typealias DeleteArguments = (prayers: [Prayer], date: CivilDate)

    private let recordFunction = MockFunction<RecordArguments, PrayerLogEntry, any Error>(
        "PrayerLogStoreMock.record(_:for:on:note:)")
    private let recordEntriesFunction = MockFunction<[PrayerLogEntry], Void, any Error>(
        "PrayerLogStoreMock.record(_:)")
    private let entriesFunction = MockFunction<EntriesArguments, [PrayerLogEntry], any Error>(
        "PrayerLogStoreMock.entries(from:through:)")
    private let deleteFunction = MockFunction<DeleteArguments, [PrayerLogEntry], any Error>(
        "PrayerLogStoreMock.delete(_:on:)")
    private let statisticsFunction = MockFunction<CivilDate, PrayerLogStatistics, any Error>(
        "PrayerLogStoreMock.statistics(today:)")
    private let entriesSequenceFunction = MockFunction<EntriesSequenceArguments, AsyncStream<[PrayerLogEntry]>, Never>(
        "PrayerLogStoreMock.entriesSequence(from:through:)"
    ) { _ in AsyncStream { $0.finish() } }

    /// Creates a mock with nothing set.
    public init() {}

    // MARK: - record(_:for:on:note:)

    /// Sets the answer of ``record(_:for:on:note:)`` (the note is in ``recordCalls``).
    public func onRecord(_ answer: @escaping @Sendable (PrayerStatus, Prayer, CivilDate) throws -> PrayerLogEntry) {
        recordFunction.on { try answer($0.status, $0.prayer, $0.date) }
    }

    /// The arguments of each call of ``record(_:for:on:note:)``, oldest first.
    public var recordCalls: [RecordArguments] { recordFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func record(_ status: PrayerStatus, for prayer: Prayer, on date: CivilDate, note: String?) throws
        -> PrayerLogEntry
    {
        try recordFunction((status, prayer, date, note))
    }

    // MARK: - record(_:)

    /// Sets the answer of ``record(_:)``.
    public func onRecordEntries(_ answer: @escaping @Sendable ([PrayerLogEntry]) throws -> Void) {
        recordEntriesFunction.on(answer)
    }

    /// The entries of each call of ``record(_:)``, oldest first.
    public var recordEntriesCalls: [[PrayerLogEntry]] { recordEntriesFunction.calls }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func record(_ entries: [PrayerLogEntry]) throws {
        try recordEntriesFunction(entries)
    }

    // MARK: - entries(from:through:)

    /// Sets the answer of ``entries(from:through:)``.
    public func onEntries(_ answer: @escaping @Sendable (CivilDate, CivilDate) throws -> [PrayerLogEntry]) {
        entriesFunction.on { try answer($0.start, $0.end) }
    }

    /// The arguments of each call of ``entries(from:through:)``, oldest first.
    public var entriesCalls: [EntriesArguments] { entriesFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func entries(from start: CivilDate, through end: CivilDate) throws -> [PrayerLogEntry] {
        try entriesFunction((start, end))
    }

    // MARK: - delete(_:on:)

    /// Sets the answer of ``delete(_:on:)``.
    public func onDelete(_ answer: @escaping @Sendable ([Prayer], CivilDate) throws -> [PrayerLogEntry]) {
        deleteFunction.on { try answer($0.prayers, $0.date) }
    }

    /// The arguments of each call of ``delete(_:on:)``, oldest first.
    public var deleteCalls: [DeleteArguments] { deleteFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func delete(_ prayers: [Prayer], on date: CivilDate) throws -> [PrayerLogEntry] {
        try deleteFunction((prayers, date))
    }

    // MARK: - statistics(today:)

    /// Sets the answer of ``statistics(today:)``.
    public func onStatistics(_ answer: @escaping @Sendable (CivilDate) throws -> PrayerLogStatistics) {
        statisticsFunction.on(answer)
    }

    /// The day of each call of ``statistics(today:)``, oldest first.
    public var statisticsCalls: [CivilDate] { statisticsFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func statistics(today: CivilDate) throws -> PrayerLogStatistics {
        try statisticsFunction(today)
    }

    // MARK: - entriesSequence(from:through:)

    /// Sets the answer of ``entriesSequence(from:through:)``.
    public func onEntriesSequence(_ answer: @escaping @Sendable (CivilDate, CivilDate) -> AsyncStream<[PrayerLogEntry]>)
    {
        entriesSequenceFunction.on { answer($0.start, $0.end) }
    }

    /// The arguments of each call of ``entriesSequence(from:through:)``, oldest first.
    public var entriesSequenceCalls: [EntriesSequenceArguments] { entriesSequenceFunction.calls }

    /// Records the call and returns the answer; without one, a test issue and a stream that has ended.
    public func entriesSequence(from start: CivilDate, through end: CivilDate) -> AsyncStream<[PrayerLogEntry]> {
        entriesSequenceFunction((start, end))
    }
}
