import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// `praykit display units`: the two systemd user units of a screen, the one source of what
/// docs/display.md shows, for the options given.
@Suite struct DisplayUnitsCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theGuideShowsWhatTheCommandPrints() async throws {
        // Given: the guide's block under its command line
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/display.md"), encoding: .utf8)
        let command = "praykit display units --praykit /usr/local/bin/praykit --chromium /usr/bin/chromium"
        let start = try #require(guide.range(of: "$ \(command)\n"), "docs/display.md shows `$ \(command)`")
        let end = try #require(guide.range(of: "\n```", range: start.upperBound..<guide.endIndex))
        let shown = String(guide[start.upperBound..<end.lowerBound]) + "\n"
        // When
        let result = await CLI.run(Array(command.split(separator: " ").dropFirst().map(String.init)))
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(shown == result.stdout, "docs/display.md differs from the command's output:\n\(result.stdout)")
    }

    @Test func eachUnitAloneWithTheLanguageDigitsAndPortGiven() async throws {
        // When
        let server = await CLI.run([
            "display", "units", "--only", "server", "--praykit", "/opt/pray kit/praykit", "--port", "8090",
        ])
        let kiosk = await CLI.run([
            "display", "--only", "kiosk", "--lang", "ar", "--digits", "latin", "--port", "8090", "--chromium",
            "/snap/bin/chromium",
        ])
        // Then: one unit each, restarted when it dies; a path with a space quoted
        #expect(server.status == 0 && kiosk.status == 0, "\(server.stderr)\(kiosk.stderr)")
        #expect(server.stdout.hasPrefix("[Unit]\n") && !server.stdout.contains("kiosk"))
        #expect(
            server.stdout.contains(
                "ExecStart=\"/opt/pray kit/praykit\" serve --display --host 127.0.0.1 --port 8090 --threads 1\n"))
        #expect(server.stdout.contains("Restart=always\n") && server.stdout.contains("WantedBy=default.target\n"))
        #expect(kiosk.stdout.hasPrefix("[Unit]\n") && kiosk.stdout.contains("ExecStart=/snap/bin/chromium --kiosk "))
        for flag in ["--kiosk", "--noerrdialogs", "--disable-session-crashed-bubble"] {
            #expect(kiosk.stdout.contains(flag), "\(flag)")
        }
        #expect(kiosk.stdout.contains(" http://127.0.0.1:8090/display?lang=ar&digits=latin\n"))
        #expect(kiosk.stdout.contains("Restart=always\n") && !kiosk.stdout.contains("# "))
    }

    @Test func aPathSystemdWouldReadIsEscaped() {
        #expect(DisplayUnits.unitWord("/usr/bin/chromium") == "/usr/bin/chromium")
        #expect(DisplayUnits.unitWord("/home/a%b/praykit") == "/home/a%%b/praykit")
        #expect(DisplayUnits.unitWord("/home/$USER/bin/praykit") == "/home/$$USER/bin/praykit")
        #expect(DisplayUnits.unitWord("/a \"b\"/praykit") == "\"/a \\\"b\\\"/praykit\"")
    }

    @Test func aBadPortOrUnitIsAUsageError() async {
        let port = await CLI.run(["display", "units", "--port", "0"])
        #expect(port.status == 64 && port.stderr.contains("--port"), "\(port.stderr)")
        let unit = await CLI.run(["display", "units", "--only", "browser"])
        #expect(unit.status == 64 && unit.stderr.contains("server, kiosk"), "\(unit.stderr)")
    }
}
