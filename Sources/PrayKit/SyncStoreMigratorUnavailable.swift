import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The container's sync store migrator where PrayServer is not linked (every platform but Linux):
/// every step throws ``SyncStoreError`` (`unsupported`) saying so, as ``PrayDependency``'s
/// `syncStore(at:)` does there. Compiled everywhere, so that the Linux build checks it too.
struct SyncStoreMigratorUnavailable: SyncStoreMigrator {
    /// Why there is no sync store: the error every step throws.
    static let unsupported = SyncStoreError(
        .unsupported,
        message: "the sync server's stores (PrayServer) are not available on this platform: "
            + "PrayKit links them on Linux only")

    /// Throws ``SyncStoreError`` (`unsupported`).
    func migrateSchema(at location: SyncStoreLocation) throws -> SyncSchemaChange {
        throw Self.unsupported
    }

    /// Throws ``SyncStoreError`` (`unsupported`).
    func copy(
        from source: SyncStoreLocation, to destination: SyncStoreLocation,
        progress: @escaping @Sendable (SyncStoreCopyProgress) -> Void
    ) throws -> SyncStoreCopyReport {
        throw Self.unsupported
    }
}
