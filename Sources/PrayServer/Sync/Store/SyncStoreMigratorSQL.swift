import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The operator's steps on the SQL sync stores (``SyncStoreSQLite``, ``SyncStorePostgres``): creating
/// or upgrading a store's schema, and copying a SQLite store into an empty PostgreSQL database so that
/// every device keeps its token and its cursor (SYNC.md §5).
///
/// ```swift
/// let migrator = SyncStoreMigratorSQL(log: log)
/// let report = try migrator.copy(
///     from: .sqlite(path: "/var/lib/praykit/sync.sqlite"),
///     to: .postgreSQL(url: "postgresql:///praykit?host=/run/postgresql"), progress: { _ in })
/// ```
public struct SyncStoreMigratorSQL: SyncStoreMigrator {
    private let log: LogManager

    /// Creates the migrator.
    /// - Parameter log: The logger: a finished copy or upgrade at `info`, never a password.
    public init(log: LogManager) {
        self.log = log
    }
}

public extension SyncStoreMigratorSQL {
    /// Creates or upgrades the schema of the store at `location` (a SQLite file is created 0600 when
    /// missing).
    /// - Throws: ``StorageError``; ``SyncStoreError`` (`unsupported`) for PostgreSQL where this build
    ///   has no libpq.
    func migrateSchema(at location: SyncStoreLocation) throws -> SyncSchemaChange {
        switch location {
        case .sqlite(let path):
            return try SyncStoreSQLite(path: path, log: log).migrateSchema()
        case .postgreSQL(let url):
            #if canImport(CPostgres)
                return try SyncStorePostgres(url: url, connections: 1, log: log).migrateSchema()
            #else
                _ = url
                throw Self.noPostgreSQL
            #endif
        }
    }

    /// Copies the SQLite store at `source` into the PostgreSQL database at `destination` in one
    /// transaction there, read from one snapshot here (see `SyncStoreCopy`).
    /// - Throws: ``SyncStoreError`` (`invalidLocation` for a missing source, `notEmpty` for a
    ///   destination with users, `unsupported` for another pair of kinds); ``StorageError``.
    func copy(
        from source: SyncStoreLocation, to destination: SyncStoreLocation,
        progress: @escaping @Sendable (SyncStoreCopyProgress) -> Void
    ) throws -> SyncStoreCopyReport {
        guard case .sqlite(let path) = source, case .postgreSQL(let url) = destination else {
            throw SyncStoreError(
                .unsupported,
                message: "a sync store is copied from SQLite (sqlite:PATH) to PostgreSQL (postgres://…), "
                    + "not from \(source) to \(destination)")
        }
        // The file is not created for a copy: a path mistyped would copy an empty store.
        guard FileManager.default.fileExists(atPath: path) else {
            throw SyncStoreError(.invalidLocation, message: "there is no sync store at \(path); nothing was copied")
        }
        #if canImport(CPostgres)
            let copy = SyncStoreCopy(
                source: SyncStoreSQLite(path: path, log: log),
                destination: SyncStorePostgres(url: url, connections: 1, log: log), progress: progress)
            let report = try copy.run()
            log.info(
                "Sync store copied",
                metadata: [
                    "sync.from": source.description, "sync.to": destination.description,
                    "sync.users": "\(report.users)", "sync.rows": "\(report.rows)",
                ])
            return report
        #else
            _ = url
            throw Self.noPostgreSQL
        #endif
    }
}

// MARK: - Helpers

private extension SyncStoreMigratorSQL {
    static var noPostgreSQL: SyncStoreError {
        SyncStoreError(
            .unsupported, message: "PostgreSQL sync stores need Linux (libpq); use a SQLite store (sqlite:PATH) here")
    }
}
