import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit serve --display`: refused without a saved place; the real binary's model has the values of
/// `praykit times --format json`; and the page in Debian's Chromium, walked with a fake clock
/// (Scripts/browser/display_browser.py), screenshots kept in `.build/test-artifacts/display`.
@Suite struct DisplayCommandTests {
    @Test func withoutASavedPlaceTheScreenIsRefusedBeforeTheServerStarts() async throws {
        // Given: no place saved
        var dependency = CLI.dependency()
        let servers = ServerServiceMock()
        dependency.server = servers
        // When
        let result = await CLI.run(["serve", "--display", "--port", "0"], dependency: dependency)
        // Then
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--display shows the saved place's times: save one first"))
        #expect(servers.startCalls.isEmpty)
    }

    // The real server (libmicrohttpd) and the curl client: Linux only.
    #if canImport(CCurl)
        /// A saved place with iqama and three Jumu'ah times, in a database of its own (kept while the
        /// folder is).
        static func savedLondon() async throws -> (TestFolder, [String: String]) {
            let folder = try TestFolder("display")
            let environment = ["PRAYKIT_DATABASE": folder.path("praykit.sqlite")]
            for arguments in [
                ["config", "set", "city", "London"],
                ["config", "set", "iqama", "fajr=+20,dhuhr=13:30,asr=+15,maghrib=+5,isha=+15"],
                ["config", "set", "jumuah", "13:00,13:40,14:20"],
            ] {
                let result = try await PraykitProcess.run(arguments, environment: environment)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
            }
            return (folder, environment)
        }

        /// Starts `praykit serve --display` and returns its base URL.
        static func serve(_ environment: [String: String]) async throws -> (PraykitProcess.Running, String) {
            let process = try PraykitProcess.Running(
                ["serve", "--display", "--port", "0", "--threads", "2"], environment: environment)
            let line = try await process.firstLine()
            guard let match = line.firstMatch(of: /^Listening on (http:\/\/127\.0\.0\.1:[0-9]+)\n/) else {
                process.kill()
                let stderr = try await process.wait(deadline: 60).stderr
                Issue.record("praykit serve --display did not start: \(line)\(stderr)")
                throw CancellationError()
            }
            return (process, String(match.output.1))
        }

        @Test(.tags(.process, .binary, .server), .needsMicroHTTPD)
        func theModelHasTheValuesOfTimesInJSON() async throws {
            // Given
            let (folder, environment) = try await Self.savedLondon()
            defer { withExtendedLifetime(folder) {} }
            let (process, base) = try await Self.serve(environment)
            defer { process.kill() }
            // When: the screen's model and `times` for the same days
            let url = try #require(URL(string: base + "/display.json?date=2027-10-25"))
            let response = try await NetworkServiceCurl(log: .silent).send(HTTPRequest(url: url))
            let times = try await PraykitProcess.run(
                ["times", "--date", "2027-10-25", "--days", "31", "--format", "json"], environment: environment)
            // Then: every time, iqama and Jumu'ah of every day is the same text
            #expect(response.status == 200 && times.status == 0, "\(times.stderr)")
            let model = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let cli = try #require(try JSONSerialization.jsonObject(with: Data(times.stdout.utf8)) as? [String: Any])
            let screenDays = try #require(model["days"] as? [[String: Any]])
            let cliDays = try #require(cli["days"] as? [[String: Any]])
            #expect(screenDays.count == 31 && cliDays.count == 31)
            for (screen, day) in zip(screenDays, cliDays) {
                let date = day["date"] as? String ?? "?"
                #expect(screen["date"] as? String == date)
                for key in ["imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha"] {
                    #expect(screen[key] as? String == day[key] as? String, "\(date) \(key)")
                }
                #expect(screen["iqama"] as? [String: String] == day["iqama"] as? [String: String], "\(date) iqama")
                #expect(
                    screen["jumuah"] as? [String] == (day["jumuah"] as? [String] ?? []), "\(date) jumuah")
            }
            #expect(model["method"] as? String == (cli["parameters"] as? [String: Any])?["method"] as? String)
            #expect(model["location"].flatMap { ($0 as? [String: Any])?["timeZone"] as? String } == "Europe/London")
        }

        @Test(.tags(.process, .binary, .server, .browser), .needsMicroHTTPD, .needsPlaywright)
        func theScreenWalksADayADSTNightAndRamadanInChromium() async throws {
            // Given
            let (folder, environment) = try await Self.savedLondon()
            defer { withExtendedLifetime(folder) {} }
            let (process, base) = try await Self.serve(environment)
            defer { process.kill() }
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let artifacts = root.appendingPathComponent(".build/test-artifacts/display").path
            let python = try #require(TestRequirement.playwrightPython, "Playwright for Python")
            // When
            let result = try await Shell.run(
                python,
                [
                    root.appendingPathComponent("Scripts/browser/display_browser.py").path, "--url", base,
                    "--artifacts", artifacts, "--chromium", try #require(TestRequirement.executable("chromium")),
                ], deadline: 900)
            // Then: every check passed; the screenshots are named in the output
            print(result.stdout)
            #expect(result.status == 0, "\(result.stdout.suffix(4000))\n\(result.stderr.suffix(2000))")
            #expect(result.stdout.contains("\nPASS "), "\(result.stdout.suffix(2000))")
            #expect(result.stdout.contains("screenshot \(artifacts)/day-fajr-prayer.png"))
        }
    #endif
}
