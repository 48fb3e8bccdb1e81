import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// What syncs is said from one list — the registry of collections and the settings' allowlist — in
/// `praykit help sync`, the man page and docs/sync.md.
@Suite struct SyncedDataListTests {
    @Test func theHelpNamesEveryCollectionAndSettingFromTheRegistry() async {
        // Given: every collection has its words
        for collection in SyncCollection.all {
            #expect(SyncCommand.collectionWords[collection] != nil, "\(collection) has no words in the help")
        }
        // When
        let help = await CLI.run(["help", "sync"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // Then: the collections, every synced setting, and what never syncs
        for words in SyncCommand.collectionWords.values { #expect(help.contains(words), "\(words)") }
        for key in SyncRules.syncedPreferenceKeys { #expect(help.contains(key.rawValue), "\(key)") }
        #expect(help.contains("Never synced: clock, display, notify-hook"), "\(help)")
        #expect(!help.contains("for now"), "nothing is left out 'for now'")
    }

    @Test func theGuidesTableListsEveryCollection() throws {
        // Given: docs/sync.md, the guide's table of what syncs
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/sync.md"), encoding: .utf8)
        let after = try #require(guide.components(separatedBy: "## What syncs").dropFirst().first)
        let section = after.components(separatedBy: "\n## ").first ?? after
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
        // Then: one row per collection of the registry, in its order, and every synced setting named
        let names = rows.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(names == SyncCollection.all.map(\.rawValue))
        for key in SyncRules.syncedPreferenceKeys where !Preferences.calculationKeys.contains(key) {
            #expect(section.contains("`\(key.rawValue)`"), "\(key) is not in docs/sync.md")
        }
    }
}
