import Foundation
import PrayCore
import Testing

@testable import PrayServices

/// `Retry-After`'s HTTP-date and the path text that replaced Foundation's `DateFormatter` and
/// `NSString` path operations: the cases below are what those read and wrote.
@Suite struct HTTPDateTests {
    // 2026-11-29T12:00:20Z
    let instant = 1_795_953_620.0

    @Test(
        arguments: [
            ("Sun, 29 Nov 2026 12:00:20 GMT", 0),
            // Any case, names in full, one digit, the weekday not checked, runs of spaces
            ("sunday, 29 november 2026 12:0:20 gmt", 0), ("Mon, 29 Nov 2026 12:00:20 UTC", 0),
            ("Sun,  29 Nov 2026  12:00:20 GMT", 0),
            // Offsets east of UTC are earlier instants
            ("Sun, 29 Nov 2026 12:00:20 +0130", -5400), ("Sun, 29 Nov 2026 12:00:20 GMT-01:00", 3600),
            ("Sun, 29 Nov 2026 12:00:20 UTC+1", -3600),
        ])
    func readsDates(_ text: String, _ shift: Int) {
        #expect(HTTPDate.date(text)?.timeIntervalSince1970 == instant + Double(shift))
    }

    @Test(
        arguments: [
            "Sun, 31 Nov 2026 12:00:20 GMT", "Sun, 29 Nov 2026 24:00:20 GMT", "Sun, 29 Nov 2026 12:00:60 GMT",
            "Sun, 29 Nov 2026 12:00:20", "Sun, 29 Nov 2026 12:00:20 GMT x", "Sun,29 Nov 2026 12:00:20 GMT",
            "Sun, 29 Nov 2026 12:00:20 PST", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Sun, 29 Xyz 2026 12:00:20 GMT", "Sun, 29 Nov 2026 12:00:20 +2400", "",
        ])
    func refusesWhatIsNoDate(_ text: String) {
        #expect(HTTPDate.date(text) == nil)
    }

    @Test func joinsAndSplitsPathsAsNSStringDid() {
        #expect(FilePath.appending("praykit.sqlite", to: "/data") == "/data/praykit.sqlite")
        #expect(FilePath.appending("x", to: "/data/") == "/data/x")
        #expect(FilePath.appending("x", to: "") == "x")
        #expect(FilePath.appending("", to: "/data") == "/data")
        #expect(FilePath.folder(of: "/a/b/c.db") == "/a/b")
        #expect(FilePath.folder(of: "//a//b//") == "/a")
        #expect(FilePath.folder(of: "c.db") == "")
        #expect(FilePath.folder(of: "c") == "")
        #expect(FilePath.folder(of: "/c.db") == "/")
        #expect(FilePath.folder(of: "/") == "/")
        #expect(FilePath.folder(of: "") == "")
    }

    @Test func writesTheLogDelayAsPrintfDid() {
        #expect(1.5.fixed(2) == "1.50")
        #expect(0.125.fixed(2) == "0.12")
        #expect(12.3456.fixed(2) == "12.35")
    }
}
