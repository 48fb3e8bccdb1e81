import Foundation
import PrayCore
import PrayMocks
import Testing

/// `praykit mosque publish` and `unpublish` in-process, on a mock sync service: what is said, what is
/// asked of sync, and a slug refused before anything is sent. (End to end: PublishedPagesProcessTests;
/// the store's rules: the publishing cases of SyncStoreContract.)
@Suite struct MosquePublishCommandTests {
    func dependency(_ sync: SyncServiceMock) -> PrayDependencyMock {
        var dependency = CLI.dependency()
        dependency.sync = sync
        return dependency
    }

    @Test func publishSaysWhereAndHowAPhoneSubscribes() async throws {
        // Given: a device logged in to https://pray.example.org
        let sync = SyncServiceMock.off()
        var status = SyncStatus.off
        status.server = "https://pray.example.org/"
        sync.onCurrentStatus { [status] in status }
        sync.onPublish { _, slug in SyncAPI.Publication(space: "s_0123456789abcdef", slug: slug ?? "east-london-mosque")
        }
        // When
        let result = await CLI.run(["mosque", "publish", "East London Mosque"], dependency: dependency(sync))
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Published East London Mosque at /m/east-london-mosque/ on the sync server"))
        #expect(result.stdout.contains("display   https://pray.example.org/m/east-london-mosque/display"))
        #expect(result.stdout.contains("month     https://pray.example.org/m/east-london-mosque/month"))
        #expect(result.stdout.contains("calendar  https://pray.example.org/m/east-london-mosque.ics"))
        #expect(result.stdout.contains("A phone subscribes to webcal://pray.example.org/m/east-london-mosque.ics"))
        #expect(sync.publishCalls.map(\.slug) == [nil])
        let moved = await CLI.run(
            ["mosque", "publish", "East London Mosque", "--slug", "elm"], dependency: dependency(sync))
        #expect(moved.stdout.contains("/m/elm/display") && sync.publishCalls.last?.slug == "elm")
    }

    @Test func aSlugOutOfTheRulesIsRefusedBeforeAnythingIsSent() async throws {
        let sync = SyncServiceMock.off()
        sync.onPublish { _, _ in
            Issue.record("nothing is sent"); throw MockError(notConfigured: "publish")
        }
        for slug in ["EL", "East London", "elm--m", "-elm", String(repeating: "a", count: 61), "مسجد"] {
            let result = await CLI.run(
                ["mosque", "publish", "East London Mosque", "--slug", slug], dependency: dependency(sync))
            #expect(result.status == 64 && result.stderr.contains("--slug"), "\(slug): \(result.stderr)")
        }
        #expect(sync.publishCalls.isEmpty)
    }

    @Test func unpublishAndTheRefusalsOfSync() async throws {
        let sync = SyncServiceMock.off()
        sync.onUnpublish { _ in }
        let done = await CLI.run(["mosque", "unpublish", "East London Mosque"], dependency: dependency(sync))
        #expect(done.status == 0 && done.stdout == "East London Mosque is no longer published: its pages answer 404.\n")
        // An editor, and a device not logged in: said as sync says it.
        sync.onPublish { _, _ in throw SyncError(.readOnly, message: "an editor of this space cannot publish it") }
        let editor = await CLI.run(["mosque", "publish", "East London Mosque"], dependency: dependency(sync))
        #expect(editor.status == 1 && editor.stderr.contains("an editor of this space cannot publish it"))
        let off = await CLI.run(["mosque", "unpublish", "X"], dependency: dependency(SyncServiceMock.off()))
        #expect(off.status == 1 && off.stderr.contains("log in first"), "\(off.stderr)")
    }
}
