import PrayCore

/// A ``BackupService`` whose answers the test sets, one `on…` closure per requirement, recording
/// every call — for a backup that fails or answers in a way the test chooses; ``BackupServiceFake``
/// is one over two in-memory stores. A requirement without an answer records a test issue and throws
/// ``MockError``.
///
/// ```swift
/// let backup = BackupServiceMock()
/// backup.onImportData { _, _ in throw StorageError(kind: .full, message: "database or disk is full") }
/// ```
///
/// `exportData(entries:)` is the protocol's own: it reads ``exportData()``, so ``onExportData(_:)``
/// answers both.
public final class BackupServiceMock: BackupService {
    /// The arguments of a call of ``importData(_:keeping:)``.
    public typealias ImportDataArguments = (data: UserData, kept: Set<Preferences.Key>)

    private let exportDataFunction = MockFunction<Void, UserData, any Error>("BackupServiceMock.exportData()")
    private let importDataFunction = MockFunction<ImportDataArguments, Void, any Error>(
        "BackupServiceMock.importData(_:keeping:)")

    /// Creates a mock with nothing set.
    public init() {}

    // MARK: - exportData()

    /// Sets the answer of ``exportData()``.
    public func onExportData(_ answer: @escaping @Sendable () throws -> UserData) {
        exportDataFunction.on { _ in try answer() }
    }

    /// One element for each call of ``exportData()``.
    public var exportDataCalls: [Void] { exportDataFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func exportData() throws -> UserData {
        try exportDataFunction(())
    }

    // MARK: - importData(_:keeping:)

    /// Sets the answer of ``importData(_:keeping:)`` (and so of `importData(_:)`, which keeps nothing).
    public func onImportData(_ answer: @escaping @Sendable (UserData, Set<Preferences.Key>) throws -> Void) {
        importDataFunction.on { try answer($0.data, $0.kept) }
    }

    /// The arguments of each call of ``importData(_:keeping:)``, oldest first.
    public var importDataCalls: [ImportDataArguments] { importDataFunction.calls }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func importData(_ data: UserData, keeping kept: Set<Preferences.Key>) throws {
        try importDataFunction((data, kept))
    }
}
