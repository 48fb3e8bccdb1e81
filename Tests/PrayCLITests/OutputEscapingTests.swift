import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// Control characters from a file or a server never reach the terminal: a hostile place name is
/// escaped in tables, JSON, CSV, a setting and a calendar, and so is a file's text in an error.
@Suite struct OutputEscapingTests {
    /// A backup file whose preferences are `preferences` (``BackupCommandTests/backup(_:)``).
    static func backup(_ preferences: [String: String]) throws -> Data {
        try BackupCommandTests.backup(preferences)
    }

    /// Every control character of `text` but newline (and, where allowed, tab).
    static func controls(_ text: String, allowing allowed: Set<Unicode.Scalar> = ["\n"]) -> [UInt32] {
        text.unicodeScalars.filter { ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) && !allowed.contains($0) }
            .map(\.value)
    }

    /// A place name as a hostile file or server could write it: ESC sequences (set the title, clear
    /// the screen), CR, BEL, DEL, C1's CSI and a quote.
    static let hostileName = "Evil\u{1B}]0;pwned\u{07}\r\u{1B}[2JTown\u{7F}\u{9B}31m \"quoted\""

    @Test func aHostilePlaceNameIsEscapedInTablesJSONAndCalendars() async throws {
        // Given: a saved place whose name carries control characters
        let preferences = try CLI.preferences([
            .latitude: "21.4225", .longitude: "39.8262", .timeZone: "Asia/Riyadh", .placeName: Self.hostileName,
        ])
        let dependency = CLI.dependency(preferences: preferences)
        // When: shown as a table, JSON, CSV, a setting and a calendar
        let table = await CLI.run(["times"], dependency: dependency)
        let json = await CLI.run(["times", "--format", "json"], dependency: dependency)
        let csv = await CLI.run(["times", "--format", "csv"], dependency: dependency)
        let setting = await CLI.run(["config", "get", "place-name"], dependency: dependency)
        let calendar = await CLI.run(["calendar", "--days", "1"], dependency: dependency)
        // Then: no control character but newline; the name is still there, escaped
        for result in [table, json, csv, setting] {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.controls(result.stdout).isEmpty, "\(Self.controls(result.stdout)) in \(result.stdout)")
        }
        #expect(table.stdout.contains(#"Evil\x1B]0;pwned\x07\r\x1B[2JTown\x7F\x9B31m "quoted""#), "\(table.stdout)")
        let object = try CLI.json(json.stdout)
        #expect((object["location"] as? [String: Any])?["name"] as? String == Self.hostileName)
        #expect(json.stdout.contains(#"\u007f\u009b31m \"quoted\""#), "\(json.stdout)")
        // The calendar: CRLF line ends, and no other control character (RFC 5545 TEXT)
        #expect(calendar.status == 0, "\(calendar.stderr)")
        let lines = calendar.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(Self.controls(lines).isEmpty, "\(Self.controls(lines))")
        #expect(lines.contains(#"LOCATION:Evil"#) && lines.contains(#"\n"#))
    }

    @Test func errorsAboutAFileAreEscapedOnStandardError() async throws {
        let file = try Self.backup(["bad\u{1B}[2J\rkey": "x"])
        let result = await CLI.run(["import", "-"], dependency: CLI.dependency(), standardInput: file)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"unknown setting 'bad\x1B[2J\rkey'"#), "\(result.stderr)")
        #expect(Self.controls(result.stderr).isEmpty)
    }
}
