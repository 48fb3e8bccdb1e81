import PrayCore

/// A ``FastStore`` whose answers the test sets, one `on…` closure per requirement, recording every
/// call — for a store that fails; ``FastStoreFake`` keeps what is written. A requirement without an
/// answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let store = FastStoreMock()
/// store.onRecord { _ in throw StorageError(kind: .full, message: "database or disk is full") }
/// ```
public final class FastStoreMock: FastStore {
    /// The arguments of a call of ``entries(from:through:)``.
    public typealias EntriesArguments = (start: CivilDate, end: CivilDate)

    private let recordFunction = MockFunction<[FastEntry], Void, any Error>("FastStoreMock.record(_:)")
    private let entriesFunction = MockFunction<EntriesArguments, [FastEntry], any Error>(
        "FastStoreMock.entries(from:through:)")
    private let deleteFunction = MockFunction<CivilDate, FastEntry?, any Error>("FastStoreMock.delete(on:)")

    /// Creates a mock with nothing set.
    public init() {}

    // MARK: - record(_:)

    /// Sets the answer of ``record(_:)``.
    public func onRecord(_ answer: @escaping @Sendable ([FastEntry]) throws -> Void) {
        recordFunction.on(answer)
    }

    /// The entries of each call of ``record(_:)``, oldest first.
    public var recordCalls: [[FastEntry]] { recordFunction.calls }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func record(_ entries: [FastEntry]) throws {
        try recordFunction(entries)
    }

    // MARK: - entries(from:through:)

    /// Sets the answer of ``entries(from:through:)``.
    public func onEntries(_ answer: @escaping @Sendable (CivilDate, CivilDate) throws -> [FastEntry]) {
        entriesFunction.on { try answer($0.start, $0.end) }
    }

    /// The arguments of each call of ``entries(from:through:)``, oldest first.
    public var entriesCalls: [EntriesArguments] { entriesFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func entries(from start: CivilDate, through end: CivilDate) throws -> [FastEntry] {
        try entriesFunction((start, end))
    }

    // MARK: - delete(on:)

    /// Sets the answer of ``delete(on:)``.
    public func onDelete(_ answer: @escaping @Sendable (CivilDate) throws -> FastEntry?) {
        deleteFunction.on(answer)
    }

    /// The day of each call of ``delete(on:)``, oldest first.
    public var deleteCalls: [CivilDate] { deleteFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func delete(on date: CivilDate) throws -> FastEntry? {
        try deleteFunction(date)
    }
}
