import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayServer

/// The SQLite sync store's schema as PrayKit made it: anything more (a trigger, a view, a table) is
/// refused before it can run, and a store of version 1 is brought to version 2 with its hashes kept.
@Suite struct SyncStoreSQLiteSchemaTests {
    typealias Folder = SyncStoreSQLiteTests.Folder

    /// Runs statements on the store's file directly, as someone who can write it would.
    static func tamper(_ path: String, _ statements: [String]) throws {
        let connection = try SQLiteConnection(path: path)
        for statement in statements { try connection.run(statement) }
    }

    @Test func aPlantedTriggerIsRefusedBeforeItRuns() throws {
        // Given: a store in use, then a trigger, a view and a table planted in its 0600 file
        let folder = try Folder()
        let path = folder.path()
        _ = try SyncStoreSQLite(path: path, log: .silent).addUser(named: "amina", now: SyncStoreContract.now)
        try Self.tamper(
            path,
            [
                """
                CREATE TRIGGER steal AFTER INSERT ON users BEGIN
                    INSERT INTO store (key, value) VALUES ('stolen', (SELECT group_concat(code_hash) FROM pairing_codes));
                END
                """,
                "CREATE VIEW everything AS SELECT * FROM devices",
                "CREATE TABLE notes (text TEXT)",
            ])
        // When: a server opens it and writes
        let store = SyncStoreSQLite(path: path, log: .silent)
        var refusal: StorageError?
        do {
            _ = try store.addUser(named: "zaid", now: SyncStoreContract.now)
        } catch let error as StorageError {
            refusal = error
        }
        // Then: refused, naming what is extra; the trigger never ran
        #expect(refusal?.kind == .insecure)
        let message = refusal?.message ?? ""
        #expect(message.contains("trigger steal") && message.contains("view everything"), "\(message)")
        #expect(message.contains("table notes"), "\(message)")
        let stolen = try SQLiteConnection(path: path).rows("SELECT value FROM store WHERE key = 'stolen'", [])
        #expect(stolen.isEmpty)
        #expect(throws: StorageError.self) { _ = try store.users() }
    }

    @Test func aChangedTableIsRefusedAndStatisticsAreNot() throws {
        // Given: a store whose users table got a column, and one that ran ANALYZE
        let folder = try Folder()
        let changed = folder.path()
        let analysed = folder.path()
        for path in [changed, analysed] {
            _ = try SyncStoreSQLite(path: path, log: .silent).addUser(named: "amina", now: SyncStoreContract.now)
        }
        try Self.tamper(changed, ["ALTER TABLE users ADD COLUMN extra TEXT DEFAULT 'x'"])
        try Self.tamper(analysed, ["ANALYZE"])
        // Then: the changed one is refused, naming the table; statistics hold no code and are kept
        #expect {
            _ = try SyncStoreSQLite(path: changed, log: .silent).users()
        } throws: { error in
            let error = error as? StorageError
            return error?.kind == .insecure && error?.message.contains("changed: table users") == true
        }
        #expect(try SyncStoreSQLite(path: analysed, log: .silent).users().map(\.name) == ["amina"])
    }

    @Test func versionTwoKeepsTheHashesOfVersionOneWithTheirUsers() throws {
        // Given: a version 1 store, made by version 1's migrations, with a user, a device, a client and
        // two payload hashes
        let folder = try Folder()
        let path = folder.path()
        try SyncStoreSQLite.preparePrivateFile(path)
        let connection = try SQLiteConnection(path: path)
        try Schema.migrate(connection, migrations: SyncStoreSQLite.migrations.filter { $0.version == 1 }, log: .silent)
        for statement in [
            "INSERT INTO users (id, name, created_at) VALUES (7, 'amina', 0)",
            "INSERT INTO devices (id, user_id, name, token_lookup, token_hash, created_at) VALUES ('d_1', 7, 'phone', 'x', 'y', 0)",
            "INSERT INTO clients (id, device_id, last_mutation_id, created_at) VALUES ('\(SyncStoreContract.clientA)', 'd_1', 2, 0)",
            "INSERT INTO recent_mutations (client_id, id, payload_hash) VALUES ('\(SyncStoreContract.clientA)', 1, 'h1')",
            "INSERT INTO recent_mutations (client_id, id, payload_hash) VALUES ('\(SyncStoreContract.clientA)', 2, 'h2')",
        ] {
            try connection.run(statement)
        }
        // When: the store is opened (its schema is version 1's as made: the check lets it through)
        let store = SyncStoreSQLite(path: path, log: .silent)
        let change = try store.migrateSchema()
        let latest = SyncStoreSQLite.migrations.last?.version ?? 0
        #expect(change.before == 1 && change.after == latest)
        #expect(
            try SyncStoreSQLite.schemaObjects(SQLiteConnection(path: path))
                == SyncStoreSQLite.schemaAsMade(version: latest))
        // Then: each hash has its user and an order
        let rows = try StoreRecords.rows(
            store, "SELECT client_id, id, payload_hash, user_id FROM recent_mutations ORDER BY seq")
        #expect(
            rows == [
                [SyncStoreContract.clientA, "1", "h1", "7"], [SyncStoreContract.clientA, "2", "h2", "7"],
            ])
    }
}
