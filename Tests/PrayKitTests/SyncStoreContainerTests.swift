import Foundation
import PrayCore
import PrayKit
import Testing

#if os(Linux) && canImport(PrayServer)
    import PrayServer
#endif

/// The container's sync server stores: PrayServer's where PrayKit links it (Linux), and the
/// `unsupported` error elsewhere — what an app on an Apple platform gets.
@Suite struct SyncStoreContainerTests {
    @Test func syncStoresComeFromPrayServerWhereItIsLinked() throws {
        // Given the configured container and a store's location (nothing is opened yet)
        TestContainer.configured
        let dependency = PrayDependency()
        let location = SyncStoreLocation.sqlite(path: TestContainer.databasePath + "-sync/sync.sqlite")
        #if os(Linux) && canImport(PrayServer)
            // Then: the SQLite store, and the SQL migrator
            #expect(try dependency.syncStore(at: location) is SyncStoreSQLite)
            #expect(dependency.syncStoreMigrator() is SyncStoreMigratorSQL)
        #else
            // Then: every kind of store and every migrator step is `unsupported`, saying why
            for location in [location, .postgreSQL(url: "postgresql:///praykit")] {
                let error = #expect(throws: SyncStoreError.self) { try dependency.syncStore(at: location) }
                #expect(error?.kind == .unsupported)
                #expect(error?.message.contains("Linux only") == true)
            }
            let error = #expect(throws: SyncStoreError.self) {
                try dependency.syncStoreMigrator().migrateSchema(at: location)
            }
            #expect(error?.kind == .unsupported)
        #endif
    }
}
