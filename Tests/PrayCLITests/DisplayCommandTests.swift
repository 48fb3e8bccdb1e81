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

        @Test(.tags(.process, .binary, .server), .needsMicroHTTPD)
        func theScreenFollowsTheSavedPlaceWithoutARestart() async throws {
            // Given: a screen of London, an open page's event stream
            let (folder, environment) = try await Self.savedLondon()
            defer { withExtendedLifetime(folder) {} }
            let (process, base) = try await Self.serve(environment)
            defer { process.kill() }
            let network = NetworkServiceCurl(log: .silent)
            func model() async throws -> [String: Any] {
                let url = try #require(URL(string: base + "/display.json?date=2027-10-25"))
                let response = try await network.send(HTTPRequest(url: url))
                return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            }
            #expect(try await model()["name"] as? String == "London, GB")
            // When: the place is moved while the server runs
            let moved = try await PraykitProcess.run(["config", "set", "city", "Makkah"], environment: environment)
            #expect(moved.status == 0, "\(moved.stderr)")
            // Then: the screen shows Makkah — its zone, its country's method, its times as `times` gives
            // them — within its next looks at the place (a hang guard of 120 s, not a timing claim)
            var shown: [String: Any] = [:]
            for _ in 0..<1200 {
                shown = try await model()
                if shown["name"] as? String != "London, GB" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let times = try await PraykitProcess.run(
                ["times", "--date", "2027-10-25", "--format", "json"], environment: environment)
            let cli = try #require(try JSONSerialization.jsonObject(with: Data(times.stdout.utf8)) as? [String: Any])
            #expect(shown["name"] as? String == "Makkah, SA", "\(shown["name"] ?? "none")")
            #expect(shown["location"].flatMap { ($0 as? [String: Any])?["timeZone"] as? String } == "Asia/Riyadh")
            #expect(shown["method"] as? String == (cli["parameters"] as? [String: Any])?["method"] as? String)
            let day = try #require((shown["days"] as? [[String: Any]])?.first)
            let cliDay = try #require((cli["days"] as? [[String: Any]])?.first)
            #expect(
                day["fajr"] as? String == cliDay["fajr"] as? String
                    && day["isha"] as? String == cliDay["isha"] as? String)
            process.kill()
            let output = try await process.wait(deadline: 60).stdout
            #expect(output.contains("Display of Makkah, SA at \(base)/display (the saved place changed)"), "\(output)")
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

        /// East London Mosque's week of 25 October 2027 as its CSV: the calculated times of London,
        /// without Thursday the 28th and with Wednesday's asr left empty (the gaps the screen marks).
        static func mosqueTimetable(_ owner: Home) async throws -> String {
            let times = try await owner.run(
                ["times", "--city", "London", "--date", "2027-10-25", "--days", "7", "--format", "json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(times.stdout.utf8)) as? [String: Any])
            var lines = ["date,fajr,sunrise,dhuhr,asr,maghrib,isha"]
            for day in try #require(json["days"] as? [[String: Any]]) {
                let date = try #require(day["date"] as? String)
                guard date != "2027-10-28" else { continue }
                let cells = try ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"].map { prayer in
                    prayer == "asr" && date == "2027-10-27"
                        ? "" : String(try #require(day[prayer] as? String).dropFirst(11).prefix(5))
                }
                lines.append(([date] + cells).joined(separator: ","))
            }
            let file = owner.folder.path("elm-2027-10.csv")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
            return file
        }

        @Test(.tags(.process, .binary, .server, .browser), .needsMicroHTTPD, .needsPlaywright)
        func aFollowedMosquesScreenShowsItsWeekAndHearsItsEditorThroughSync() async throws {
            // Given: the mosque's owner publishes its week, rules, three Jumu'ah, Eid, a screen without
            // "silence", and notices (one urgent, one with markup, one in Arabic) through a sync server
            let server = try await SyncServer.start()
            defer { server.stop() }
            let owner = try Home("owner")
            func run(_ home: Home, _ arguments: [String]) async throws -> String {
                let result = try await home.run(arguments)
                #expect(result.status == 0, "\(home.name): \(arguments): \(result.stderr)")
                return result.stdout
            }
            let mosque = "East London Mosque"
            _ = try await run(owner, ["config", "set", "city", "London"])
            _ = try await run(
                owner, ["timetable", "import", try await Self.mosqueTimetable(owner), "--mosque", mosque])
            try await owner.login(server)
            _ = try await run(owner, ["mosque", "create", mosque])
            let iqama = "fajr=+20,dhuhr=13:30,asr=+15,maghrib=+5,isha=+15"
            _ = try await run(
                owner,
                [
                    "mosque", "set", mosque, "--iqama", iqama, "--jumuah", "13:00,13:40,14:20",
                    "--eid", "1448-10-01=2027-03-09@07:30+09:00", "--screen", "silence=off",
                ])
            for (id, title, text, from, lasting, priority) in [
                (
                    "janazah", "Janazah after Jumu'ah", "For Br. Yusuf, after the last Jumu'ah.",
                    "2027-10-29T11:00:00Z",
                    "3h", "urgent"
                ),
                (
                    "tafsir", "Tafsir class after Isha", "Every Tuesday in the main hall.\\nSisters' section open.",
                    "2027-10-25T00:00:00Z", "14d", "normal"
                ),
                (
                    "markup", "<script>window.hacked=1</script><b>Bold?</b>", "<img src=x onerror=\"window.hacked=2\">",
                    "2027-10-25T00:00:00Z", "14d", "high"
                ),
                (
                    "arabic", "درس التفسير بعد العشاء", "في القاعة الرئيسية كل ثلاثاء", "2027-10-25T00:00:00Z", "14d",
                    "normal"
                ),
            ] {
                _ = try await run(
                    owner,
                    [
                        "mosque", "notice", "add", mosque, "--id", id, "--title", title, "--text", text, "--from", from,
                        "--for", lasting, "--priority", priority,
                    ])
            }
            _ = try await run(owner, ["sync", "now"])
            let invitation = try await run(owner, ["mosque", "invite", mosque, "--role", "viewer"])
            let code = try #require(invitation.firstMatch(of: /[A-Z0-9]{5}-[A-Z0-9]{5}/).map { String($0.output) })
            // The screen by the door follows it with the viewer's code, and serves its page.
            let screen = try Home("screen")
            let followed = try await run(
                screen, ["mosque", "follow", code, "--server", server.url, "--device-name", "door"])
            #expect(followed.contains("it now uses the mosque's (Europe/London) and its times"), "\(followed)")
            let (process, base) = try await Self.serve(screen.environment)
            defer { process.kill() }
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let artifacts = root.appendingPathComponent(".build/test-artifacts/display-mosque").path
            let python = try #require(TestRequirement.playwrightPython, "Playwright for Python")
            // The editor's change the open page must hear: asr's iqama 25 minutes after the adhan.
            let change = [
                PraykitProcess.executable.path, "mosque", "set", mosque, "--iqama",
                "fajr=+20,dhuhr=13:30,asr=+25,maghrib=+5,isha=+15",
            ]
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            // When
            let result = try await Shell.run(
                python,
                [
                    root.appendingPathComponent("Scripts/browser/display_browser.py").path, "--mosque", "--url", base,
                    "--artifacts", artifacts, "--chromium", try #require(TestRequirement.executable("chromium")),
                    "--live-argv", String(decoding: try encoder.encode(change), as: UTF8.self),
                    "--live-env", String(decoding: try encoder.encode(owner.environment), as: UTF8.self),
                ], deadline: 900)
            // Then: every check passed; the screenshots are named in the output
            print(result.stdout)
            #expect(result.status == 0, "\(result.stdout.suffix(4000))\n\(result.stderr.suffix(2000))")
            #expect(result.stdout.contains("\nPASS "), "\(result.stdout.suffix(2000))")
            #expect(result.stdout.contains("screenshot \(artifacts)/notice-as-text.png"))
            #expect(result.stdout.contains("screenshot \(artifacts)/live-after-change.png"))
        }
    #endif
}
