import Foundation
import Testing

@testable import PrayServices

/// How the client reads the server's event stream (docs/sync-protocol.md § Events).
@Suite struct SyncEventParserTests {
    @Test func eventsSplitAnywhereAreReadWholeAndCommentsAreSkipped() {
        let parser = SyncEventParser()
        let text =
            "retry: 5000\r\n\r\nevent: space\ndata: {\"space\":\"s_a\",\"version\":\"x.0\"}\n\n: ping 2026\n\n"
            + "event: spaces\ndata: {}\n\nevent: other\ndata: {}\n\n"
        var kinds: [SyncEventParser.Event.Kind] = []
        for byte in Data(text.utf8) { kinds += parser.feed(Data([byte])).map(\.kind) }
        #expect(kinds.map { "\($0)" } == ["opened", "space", "spaces"])
        #expect(parser.sequence == 2)
    }

    @Test func anErrorBodyIsNotAnOpenedStream() {
        let parser = SyncEventParser()
        #expect(parser.feed(Data("{\"error\":\"unauthorized\",\"message\":\"no\"}\n\n".utf8)).isEmpty)
    }
}
