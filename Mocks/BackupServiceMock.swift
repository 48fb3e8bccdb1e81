import PrayCore

/// A ``BackupService`` whose answers the test sets, one `on…` closure per requirement, recording
/// every call — for a backup that fails or answers in a way the test chooses; ``BackupServiceFake``
/// is one over two in-memory stores. A requirement without an answer records a test issue and throws
/// ``MockError``.
///
/// ```swift
/// let backup = BackupServiceMock()
/// backup.onImportData { _ in throw StorageError(kind: .full, message: "database or disk is full") }
/// ```
public final class BackupServiceMock: BackupService {
    private let exportDataFunction = MockFunction<Void, UserData, any Error>("BackupServiceMock.exportData()")
    private let importDataFunction = MockFunction<UserData, Void, any Error>("BackupServiceMock.importData(_:)")

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

    // MARK: - importData(_:)

    /// Sets the answer of ``importData(_:)``.
    public func onImportData(_ answer: @escaping @Sendable (UserData) throws -> Void) {
        importDataFunction.on(answer)
    }

    /// The data of each call of ``importData(_:)``, oldest first.
    public var importDataCalls: [UserData] { importDataFunction.calls }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func importData(_ data: UserData) throws {
        try importDataFunction(data)
    }
}
