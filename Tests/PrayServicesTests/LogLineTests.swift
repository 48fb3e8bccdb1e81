import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

@Suite struct LogLineTests {
    let instant = Date(timeIntervalSince1970: 1_795_953_600)  // 2026-11-29T12:00:00Z

    @Test func oneLineWithSortedQuotedMetadata() {
        let event = LogEvent(
            level: .notice, message: "High-latitude rule applied",
            metadata: [
                "prayer.rule": "seventh-of-the-night", "a.place": "New York", "b.empty": "", "c.quote": "say \"hi\"",
            ],
            file: "PrayServices/X.swift", line: 7, timestamp: instant
        )
        #expect(
            LogLine.format(event)
                == "2026-11-29T12:00:00.000Z notice High-latitude rule applied a.place=\"New York\" b.empty=\"\" "
                + "c.quote=\"say \\\"hi\\\"\" prayer.rule=seventh-of-the-night\n"
        )
    }

    @Test func newlinesCannotBreakTheLineAndDebugNamesItsSource() {
        let event = LogEvent(
            level: .debug, message: "two\nlines", file: "PrayServices/X.swift", line: 7, timestamp: instant)
        let line = LogLine.format(event)
        #expect(line == "2026-11-29T12:00:00.000Z debug two\\nlines source=PrayServices/X.swift:7\n")
        #expect(line.filter { $0 == "\n" }.count == 1)
    }

    @Test func controlCharactersAndQuotesCannotBreakALineOrReachATerminal() {
        // Given: a message and values from a place name, an imported file or a server
        let hostile = "Evil\u{1B}]0;pwned\u{07}\r\u{1B}[2JTown\u{7F}\u{9B}31m \"quoted\" back\\slash"
        let event = LogEvent(
            level: .notice, message: "Place \u{1B}[31mred\r", metadata: ["place.name": hostile, "plain": "a\u{7}b"],
            file: "F.swift", line: 1, timestamp: instant)
        // When
        let line = LogLine.format(event)
        // Then: one line, every control character written out, the quoted value ending where it should
        #expect(
            line
                == "2026-11-29T12:00:00.000Z notice Place \\x1B[31mred\\r "
                + #"place.name="Evil\x1B]0;pwned\x07\r\x1B[2JTown\x7F\x9B31m \"quoted\" back\\slash" plain="a\x07b""#
                + "\n")
        #expect(!line.dropLast().unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func colourOnlyWhenAsked() {
        let event = LogEvent(level: .error, message: "failed", file: "F.swift", line: 1, timestamp: instant)
        #expect(!LogLine.format(event).contains("\u{1B}"))
        #expect(LogLine.format(event, colour: true).contains("\u{1B}[31;1merror\u{1B}[0m"))
    }
}
