import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayServer

/// The SQLite sync store's schema as PrayKit made it: anything more (a trigger, a view, a table) is
/// refused before it can run.
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
}
