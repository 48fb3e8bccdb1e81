import Foundation
import PrayCore
import PrayMocks
import Testing

/// `praykit sync …` in-process, on a mock sync service: what a person reads, and which commands try a
/// sync after their write. (The real client, server and processes: SyncClientTests, SyncProcessTests.)
@Suite struct SyncCommandTests {
    /// A dependency whose sync service is `sync`.
    func dependency(_ sync: SyncServiceMock) -> PrayDependencyMock {
        var dependency = CLI.dependency()
        dependency.sync = sync
        return dependency
    }

    /// A logged-in device with three changes waiting since ten minutes and one refused change.
    func loggedIn() -> SyncStatus {
        var status = SyncStatus(
            phase: .offline, server: "https://pray.example.org", deviceName: "laptop",
            lastSynced: CLI.now.addingTimeInterval(-7200), unsyncedCount: 3,
            oldestUnsynced: CLI.now.addingTimeInterval(-600), failedCount: 1,
            lastError: "the server could not be reached")
        status.user = "amina"
        status.deviceID = "d_0123"
        return status
    }

    @Test func statusSaysWhatAPersonNeedsInTextAndJSON() async throws {
        let sync = SyncServiceMock.off()
        let status = loggedIn()
        sync.onCurrentStatus { status }
        let text = await CLI.run(["sync"], dependency: dependency(sync))
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout == """
                Sync: offline (the server could not be reached), last synced 2 h ago
                Server: https://pray.example.org (user amina)
                This device: laptop (d_0123)
                Live: no; 'praykit notify' or 'praykit sync watch' holds the server's event stream
                Not yet synced: 3 changes, oldest 10 min ago
                Refused by the server: 1 change (see 'praykit sync failed')
                Last error: the server could not be reached

                """)
        let json = await CLI.run(["sync", "status", "--format", "json"], dependency: dependency(sync))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["phase"] as? String == "offline")
        #expect(object["unsynced"] as? Int == 3 && object["failed"] as? Int == 1)
        #expect((object["device"] as? [String: Any])?["name"] as? String == "laptop")
        #expect(object["lastSynced"] as? String == "2026-11-29T10:00:00.000Z")
        // Off: how to turn it on.
        let off = await CLI.run(["sync", "status"], dependency: dependency(.off()))
        #expect(off.stdout == "Sync is off on this device. Log in with: praykit sync login --server URL\n")
    }

    @Test func aRevokedDeviceIsToldHowToComeBack() async throws {
        // A person's device logs in again; a screen paired by a mosque's follow code has no login of its
        // own: it logs out and follows with a new code.
        for (user, expected) in [
            ("amina", "log in again with 'praykit sync login'"),
            ("follower/0123456789abcdef", "'praykit sync logout', then 'praykit mosque follow NEWCODE --server URL'"),
        ] {
            var revoked = SyncStatus(phase: .loggedOut, server: "https://pray.example.org", deviceName: "door")
            revoked.user = user
            let status = revoked
            let sync = SyncServiceMock.off()
            sync.onCurrentStatus { status }
            let text = await CLI.run(["sync", "status"], dependency: dependency(sync))
            #expect(text.stdout.contains(expected), "\(text.stdout)")
        }
        let refused = SyncServiceMock.off()
        refused.onSyncNow { throw SyncError(.unauthorized, message: "this device was logged out by the server") }
        let now = await CLI.run(["sync", "now"], dependency: dependency(refused))
        #expect(now.status == 1 && now.stderr.contains("'praykit sync login'"), "\(now.stderr)")
        #expect(now.stderr.contains("'praykit mosque follow NEWCODE --server URL'"), "\(now.stderr)")
    }

    @Test func loginTakesTheCodeFromStandardInputAndChecksTheServer() async throws {
        let sync = SyncServiceMock.off()
        let status = loggedIn()
        sync.onLogin { _ in status }
        let result = await CLI.run(
            ["sync", "login", "--server", "https://pray.example.org", "--device-name", "laptop", "--prefer", "local"],
            dependency: dependency(sync), standardInput: Data("CHL8X-7H6KW\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let login = try #require(sync.loginCalls.first)
        #expect(login.code == "CHL8X-7H6KW" && login.deviceName == "laptop" && login.prefer == .local)
        #expect(result.stdout.hasPrefix("Logged in to https://pray.example.org as laptop.\n"))
        // A server that is not a URL is a usage error, and nothing is asked of the service.
        let bad = SyncServiceMock.off()
        let refused = await CLI.run(["sync", "login", "--server", "pray", "--code", "X"], dependency: dependency(bad))
        #expect(refused.status == 64 && refused.stderr.contains("--server must be a URL"), "\(refused.stderr)")
        #expect(bad.loginCalls.isEmpty)
        // No code anywhere: a usage error that says how to give one.
        let none = await CLI.run(
            ["sync", "login", "--server", "https://pray.example.org"], dependency: dependency(bad))
        #expect(none.status == 64 && none.stderr.contains("--code"), "\(none.stderr)")
    }

    @Test func nowReportsWhatMovedAndWhatWasRefused() async throws {
        let sync = SyncServiceMock.off()
        sync.onCurrentStatus { .off }
        sync.onSyncNow { SyncReport(pushed: 3, pulled: 2, rejected: 1) }
        let result = await CLI.run(["sync", "now"], dependency: dependency(sync))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == "Synced: 3 sent, 2 received, 1 change refused by the server (see 'praykit sync failed').\n"
        )
        // Not logged in: a clear error, exit 1.
        let off = await CLI.run(["sync", "now"], dependency: dependency(.off()))
        #expect(off.status == 1 && off.stderr.contains("praykit sync login"), "\(off.stderr)")
    }

    @Test func logoutRefusesWhileChangesWaitUnlessForced() async throws {
        let sync = SyncServiceMock.off()
        sync.onLogout { force in
            guard force else { throw SyncError(.unsyncedChanges, message: "3 changes have not reached the server") }
            return 1
        }
        sync.onUnsyncedCount { 3 }
        let refused = await CLI.run(["sync", "logout"], dependency: dependency(sync))
        #expect(
            refused.status == 1
                && refused.stderr.contains("3 changes have not reached the server: run 'praykit sync now'"))
        let forced = await CLI.run(["sync", "logout", "--force"], dependency: dependency(sync))
        #expect(forced.status == 0)
        // What a forced logout drops is the waiting deletions only; the data of the rest stays here.
        #expect(
            forced.stdout
                == "Sync is off on this device. Of the 3 changes that had not reached the server, 1 (deletion) "
                + "dropped; the data of the other 2 stays here and goes to the server at the next login.\n")
        #expect(sync.logoutCalls == [false, true])
    }

    @Test func logoutSaysWhetherTheServerRetiredTheDevice() async throws {
        let sync = SyncServiceMock.off()
        sync.onRetireDevice { true }
        let retired = await CLI.run(["sync", "logout"], dependency: dependency(sync))
        #expect(
            retired.status == 0 && retired.stdout == "Sync is off on this device. The server retired this device.\n")
        sync.onRetireDevice {
            throw NetworkError(kind: .connection, url: URL(string: "http://127.0.0.1:9")!, message: "could not connect")
        }
        let unreachable = await CLI.run(["sync", "logout"], dependency: dependency(sync))
        // Off here all the same: the operator can revoke the device later.
        #expect(unreachable.status == 0 && unreachable.stdout.contains("'praykit serve sync devices revoke ID'"))
        #expect(sync.logoutCalls == [false, false] && sync.retireDeviceCalls == 2)
    }

    @Test func failedListsRetriesAndDrops() async throws {
        let sync = SyncServiceMock.off()
        let change = SyncFailedChange(
            collection: .pref, key: "future-setting", operation: .put,
            reason: "'future-setting' is not a setting that syncs",
            failedAt: CLI.now)
        sync.onFailedChanges { [change] }
        sync.onRetryFailed { 1 }
        sync.onDropFailed { 1 }
        let json = await CLI.run(["sync", "failed", "--format", "json"], dependency: dependency(sync))
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(items.first?["key"] as? String == "future-setting" && items.first?["op"] as? String == "put")
        let retry = await CLI.run(["sync", "failed", "--retry"], dependency: dependency(sync))
        #expect(retry.stdout == "1 change queued again.\n")
        let drop = await CLI.run(["sync", "failed", "--drop"], dependency: dependency(sync))
        #expect(drop.stdout.hasPrefix("1 change dropped"))
        let both = await CLI.run(["sync", "failed", "--retry", "--drop"], dependency: dependency(sync))
        #expect(both.status == 64)
    }

    @Test func aCommandSyncsAfterwardsExactlyWhenAStoreWroteToTheOutbox() async throws {
        // The store that wrote an outbox entry is what asks (SyncClientTests proves the real service
        // answers so); the command line only asks the service before it exits.
        for needed in [true, false] {
            let sync = SyncServiceMock.off()
            sync.onNeedsSyncAfterWrite(needed)
            let result = await CLI.run(
                ["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", "2026-11-28"],
                dependency: dependency(sync))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(sync.syncAfterWriteCalls == (needed ? 1 : 0))
        }
        // A write whose sync cannot reach the server still succeeds: the mock's sync answers nil.
        let failing = SyncServiceMock.off()
        failing.onNeedsSyncAfterWrite(true)
        let result = await CLI.run(
            ["log", "record", "--prayer", "isha", "--status", "late", "--date", "2026-11-28"],
            dependency: dependency(failing))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }
}
