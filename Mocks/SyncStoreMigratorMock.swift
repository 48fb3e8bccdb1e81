import Foundation
import PrayCore

/// A ``SyncStoreMigrator`` whose answers the test sets, one `on…` closure per requirement, recording
/// the arguments of every call. A requirement without an answer records a test issue and throws
/// ``MockError``.
///
/// ```swift
/// let migrator = SyncStoreMigratorMock()
/// migrator.onMigrateSchema { _ in SyncSchemaChange(before: 0, after: 1) }
/// ```
public final class SyncStoreMigratorMock: SyncStoreMigrator {
    /// The arguments of a call of ``copy(from:to:progress:)``.
    public typealias CopyArguments = (
        source: SyncStoreLocation, destination: SyncStoreLocation,
        progress: @Sendable (SyncStoreCopyProgress) -> Void
    )

    private let migrateSchemaFunction = MockFunction<SyncStoreLocation, SyncSchemaChange, any Error>(
        "SyncStoreMigratorMock.migrateSchema(at:)")
    private let copyFunction = MockFunction<CopyArguments, SyncStoreCopyReport, any Error>(
        "SyncStoreMigratorMock.copy(from:to:progress:)")

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``migrateSchema(at:)``.
    public func onMigrateSchema(_ answer: @escaping @Sendable (SyncStoreLocation) throws -> SyncSchemaChange) {
        migrateSchemaFunction.on { try answer($0) }
    }

    /// The location of each call of ``migrateSchema(at:)``, oldest first.
    public var migrateSchemaCalls: [SyncStoreLocation] { migrateSchemaFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func migrateSchema(at location: SyncStoreLocation) throws -> SyncSchemaChange {
        try migrateSchemaFunction(location)
    }

    /// Sets the answer of ``copy(from:to:progress:)``; it may call the progress closure it is given.
    public func onCopy(_ answer: @escaping @Sendable (CopyArguments) throws -> SyncStoreCopyReport) {
        copyFunction.on { try answer($0) }
    }

    /// The arguments of each call of ``copy(from:to:progress:)``, oldest first.
    public var copyCalls: [CopyArguments] { copyFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func copy(
        from source: SyncStoreLocation, to destination: SyncStoreLocation,
        progress: @escaping @Sendable (SyncStoreCopyProgress) -> Void
    ) throws -> SyncStoreCopyReport {
        try copyFunction((source, destination, progress))
    }
}
