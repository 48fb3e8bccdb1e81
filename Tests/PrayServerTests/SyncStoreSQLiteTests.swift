import Foundation
import PrayCore
import PrayMocks
import PrayServer
import Testing

/// The contract run against ``SyncStoreSQLite``, plus what only a file has: its permissions.
@Suite(.tags(.concurrency)) struct SyncStoreSQLiteTests {
    /// A folder of this test's own, removed at the end.
    final class Folder: Sendable {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String = "sync-\(UUID().uuidString).sqlite") -> String {
            url.appendingPathComponent(name).path
        }
    }

    @Test(arguments: SyncStoreContract.cases)
    func contract(_ test: SyncStoreContractCase) throws {
        let folder = try Folder()
        try test.run(SyncStoreContract { limits in SyncStoreSQLite(path: folder.path(), limits: limits, log: .silent) })
    }

    @Test func theFileIsPrivateFromItsCreation() throws {
        // Given: a store in a folder that does not exist yet
        let folder = try Folder()
        let path = folder.url.appendingPathComponent("new/deeper/sync.sqlite").path
        let store = SyncStoreSQLite(path: path, log: .silent)
        // When
        _ = try store.addUser(named: "amina", now: SyncStoreContract.now)
        // Then: the folders are 0700, the file and its WAL files 0600
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(folder.url.appendingPathComponent("new").path) == 0o700)
        #expect(try mode((path as NSString).deletingLastPathComponent) == 0o700)
        #expect(try mode(path) == 0o600)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            #expect(try mode(path + suffix) == 0o600)
        }
        #expect(try store.users().map(\.name) == ["amina"])
    }

    @Test func aFileOthersCanReadIsRefused() throws {
        // Given: a store file made readable by others
        let folder = try Folder()
        let path = folder.path()
        _ = try SyncStoreSQLite(path: path, log: .silent).addUser(named: "amina", now: SyncStoreContract.now)
        chmod(path, 0o644)
        // Then: a new handle refuses it, saying why and what to do
        do {
            _ = try SyncStoreSQLite(path: path, log: .silent).users()
            Issue.record("a store readable by others was opened")
        } catch let error as StorageError {
            #expect(error.kind == .cannotOpen && error.message.contains("chmod 600") && error.message.contains("0644"))
        }
        // A symbolic link is refused too
        let link = folder.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        chmod(path, 0o600)
        #expect(throws: StorageError.self) { _ = try SyncStoreSQLite(path: link, log: .silent).users() }
        #expect(try SyncStoreSQLite(path: path, log: .silent).users().count == 1)
    }

    @Test func aFileOfAnotherUserIsRefused() throws {
        // Given: a store file that belongs to another user (only root can give it away)
        let folder = try Folder()
        let path = folder.path()
        #expect(try SyncStoreSQLite(path: path, log: .silent).users().isEmpty)
        guard geteuid() == 0 else { return }
        #expect(chown(path, 65_534, 65_534) == 0)
        // Then
        do {
            _ = try SyncStoreSQLite(path: path, log: .silent).users()
            Issue.record("another user's store was opened")
        } catch let error as StorageError {
            #expect(error.kind == .cannotOpen && error.message.contains("another user"))
        }
    }

    @Test func concurrentPushesTakeVersionsInCommitOrder() async throws {
        // Given: 8 devices of one user pushing at once, 20 pushes each
        let folder = try Folder()
        let store = SyncStoreSQLite(path: folder.path(), log: .silent)
        let contract = SyncStoreContract { _ in store }
        let code = try store.addUser(named: "amina", now: SyncStoreContract.now)
        _ = try store.pair(.init(code: code.code, deviceName: "first"), address: "x", now: SyncStoreContract.now)
        let devices = try (0..<8).map { try contract.pairDevice(store, name: "device \($0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, device) in devices.enumerated() {
                group.addTask {
                    let client = "c_" + String(repeating: String(index, radix: 16), count: 32)
                    for id in 1...20 {
                        let key = "2026-\(String(format: "%02d", index + 1))-\(String(format: "%02d", id))/fajr"
                        let push = SyncAPI.PushRequest(
                            clientID: client,
                            mutations: [try SyncStoreContract.put(id, key, at: Int64(id * 10 + index), client: client)])
                        _ = try store.push(push, from: device, now: SyncStoreContract.now)
                    }
                }
            }
            try await group.waitForAll()
        }
        // Then: 160 changes, each a version; pages of 7 give every row once, in version order
        let users = try store.users()
        #expect(users[0].version == 160 && users[0].rowCount == 160)
        let paged = try contract.allRows(store, devices[0], client: "c_00000000000000000000000000000000", limit: 7)
        #expect(paged.rows.count == users[0].rowCount)
        #expect(Set(paged.rows.map { "\($0.collection)/\($0.key)" }).count == paged.rows.count)
    }
}
