import PrayCore

/// A ``QadaStore`` whose answers the test sets, one `on…` closure per requirement, recording every
/// call — for a store that fails; ``QadaStoreFake`` keeps what is saved. A requirement without an
/// answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let store = QadaStoreMock()
/// store.onEntries { [] }
/// store.onSave { _ in throw StorageError(kind: .readOnly, message: "attempt to write a readonly database") }
/// ```
public final class QadaStoreMock: QadaStore {
    private let entriesFunction = MockFunction<Void, [QadaEntry], any Error>("QadaStoreMock.entries()")
    private let saveFunction = MockFunction<[QadaEntry], Void, any Error>("QadaStoreMock.save(_:)")
    private let removeFunction = MockFunction<String, QadaEntry?, any Error>("QadaStoreMock.remove(id:)")

    /// Creates a mock with nothing set.
    public init() {}

    // MARK: - entries()

    /// Sets the answer of ``entries()``.
    public func onEntries(_ answer: @escaping @Sendable () throws -> [QadaEntry]) {
        entriesFunction.on { _ in try answer() }
    }

    /// One element for each call of ``entries()``.
    public var entriesCalls: [Void] { entriesFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func entries() throws -> [QadaEntry] {
        try entriesFunction(())
    }

    // MARK: - save(_:)

    /// Sets the answer of ``save(_:)``.
    public func onSave(_ answer: @escaping @Sendable ([QadaEntry]) throws -> Void) {
        saveFunction.on { try answer($0) }
    }

    /// The entries of each call of ``save(_:)``.
    public var saveCalls: [[QadaEntry]] { saveFunction.calls }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func save(_ entries: [QadaEntry]) throws {
        try saveFunction(entries)
    }

    // MARK: - remove(id:)

    /// Sets the answer of ``remove(id:)``.
    public func onRemove(_ answer: @escaping @Sendable (String) throws -> QadaEntry?) {
        removeFunction.on { try answer($0) }
    }

    /// The id of each call of ``remove(id:)``.
    public var removeCalls: [String] { removeFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func remove(id: String) throws -> QadaEntry? {
        try removeFunction(id)
    }
}
