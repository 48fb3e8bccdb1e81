import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

#if canImport(CCurl)
    /// A mosque's pages between real processes (docs/pages.md): its owner makes it with the CLI —
    /// create, set its iqama and three Jumu'ah times, import ten days of a timetable, add a notice with
    /// markup — and publishes it; then the sync server answers its model, month, screen and calendar
    /// feed to anyone, without a token, and a 404 once unpublished. Its feeds are read by icalendar and
    /// khal; its month page and the screen's place's month are driven in Chromium
    /// (Scripts/browser/month_browser.py): the same values as `praykit timetable`, one sheet on A4 and
    /// Letter, a phone's width. Nothing here measures time: the processes are waited for.
    @Suite(.tags(.process, .binary, .server), .serialized, .needsMicroHTTPD) struct PublishedPagesProcessTests {
        static let mosque = "East London Mosque"
        /// Ten days of July 2027; the rest of the month is a gap the calculation fills.
        static let timetable =
            "date,fajr,sunrise,dhuhr,asr,maghrib,isha,fajr_iqama\n"
            + (1...10).map { String(format: "2027-07-%02d,02:55,04:50,13:05,17:20,21:18,22:55,03:25\n", $0) }.joined()

        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        /// `praykit` as `home`, which must succeed.
        @discardableResult
        static func run(_ home: Home, _ arguments: [String]) async throws -> String {
            let result = try await home.run(arguments)
            guard result.status == 0 else {
                throw TestFailure("\(home.name): praykit \(arguments.joined(separator: " ")): \(result.stderr)")
            }
            return result.stdout
        }

        /// A sync server and a mosque its owner made and published with the CLI.
        static func published(_ server: SyncServer) async throws -> (owner: Home, output: String) {
            let owner = try Home("owner")
            let file = owner.folder.path("elm.csv")
            try Data(timetable.utf8).write(to: URL(fileURLWithPath: file))
            try await run(owner, ["config", "set", "city", "London"])
            try await run(owner, ["timetable", "import", file, "--mosque", mosque])
            try await owner.login(server)
            try await run(owner, ["mosque", "create", mosque])
            try await run(
                owner,
                [
                    "mosque", "set", mosque, "--iqama", "fajr=+20,dhuhr=13:30,asr=+10,maghrib=+5,isha=+15", "--jumuah",
                    "13:00,13:40,14:20",
                ])
            try await run(
                owner,
                [
                    "mosque", "notice", "add", mosque, "--title", "<b>Janazah</b> after Dhuhr", "--text",
                    "<script>alert('x')</script> <img src=x onerror=alert(1)>", "--priority", "urgent", "--for", "7d",
                ])
            try await run(owner, ["sync", "now"])
            return (owner, try await run(owner, ["mosque", "publish", mosque]))
        }

        /// A GET without a token, whatever its status.
        static func get(_ url: String) async throws -> HTTPResponse {
            try await NetworkServiceCurl(log: .silent).send(
                HTTPRequest(url: try #require(URL(string: url)), acceptedStatuses: 200..<600, maxAttempts: 1))
        }

        @Test func anOwnerPublishesAndAnyoneReadsUntilUnpublished() async throws {
            // Given
            let server = try await SyncServer.start()
            defer { server.stop() }
            let (owner, output) = try await Self.published(server)
            // Then: the CLI says where, and how a phone subscribes
            let host = String(server.url.dropFirst("http://".count))
            #expect(output.contains("Published \(Self.mosque) at /m/east-london-mosque/"), "\(output)")
            #expect(output.contains("\(server.url)/m/east-london-mosque/month"), "\(output)")
            #expect(output.contains("webcal://\(host)/m/east-london-mosque.ics"), "\(output)")
            // Anyone, without a token: the model, the month, the screen's page, the feed.
            let base = server.url + "/m/east-london-mosque"
            let model = try await Self.get(base + ".json?date=2027-07-01")
            #expect(model.status == 200, "\(String(decoding: model.body, as: UTF8.self))")
            let json = try #require(try JSONSerialization.jsonObject(with: model.body) as? [String: Any])
            let days = try #require(json["days"] as? [[String: Any]])
            #expect(json["name"] as? String == Self.mosque && days.count == DisplayAPI.days)
            #expect(days.first?["fajr"] as? String == "2027-07-01T02:55:00+01:00")
            #expect((days.first?["iqama"] as? [String: String])?["fajr"] == "2027-07-01T03:25:00+01:00")
            #expect(
                (days.first?["calculated"] as? [String])?.isEmpty == true
                    && (days[10]["calculated"] as? [String])?.contains("fajr") == true)
            let month = try await Self.get(base + "/month.json?month=2027-07")
            let monthDays = try #require(
                (try JSONSerialization.jsonObject(with: month.body) as? [String: Any])?["days"] as? [[String: Any]])
            #expect(monthDays.count == 31 && monthDays.filter { $0["calculated"] as? Bool == true }.count == 21)
            for (path, type) in [("/display", "text/html"), ("/month", "text/html"), (".ics", "text/calendar")] {
                let response = try await Self.get(base + path)
                #expect(response.status == 200 && response.headers["content-type"]?.hasPrefix(type) == true, "\(path)")
                #expect(response.headers["content-security-policy"]?.contains("default-src 'self'") == true)
            }
            // An editor cannot publish it elsewhere; another mosque cannot take its slug.
            let bilal = try Home("bilal")
            try await Self.run(bilal, ["config", "set", "city", "London"])
            try await Self.run(
                bilal, ["sync", "login", "--server", server.url, "--code", try server.code(for: "bilal")])
            let invitation = try await Self.run(owner, ["mosque", "invite", Self.mosque, "--role", "editor"])
            let code = try #require(invitation.firstMatch(of: /[A-Z0-9]{5}-[A-Z0-9]{5}/).map { String($0.output) })
            try await Self.run(bilal, ["mosque", "follow", code])
            let refused = try await bilal.run(["mosque", "publish", Self.mosque, "--slug", "elm"])
            #expect(
                refused.status == 1 && refused.stderr.contains("an editor of this space cannot publish it"),
                "\(refused.stderr.suffix(400).replacingOccurrences(of: "\n", with: " / "))")
            try await Self.run(bilal, ["mosque", "create", "Masjid al-Noor"])
            let taken = try await bilal.run(["mosque", "publish", "Masjid al-Noor", "--slug", "east-london-mosque"])
            #expect(
                taken.status == 64 && taken.stderr.contains("another mosque is published at east-london-mosque"),
                "\(taken.status) \(taken.stderr.suffix(400).replacingOccurrences(of: "\n", with: " / "))")
            let bad = try await bilal.run(["mosque", "publish", "Masjid al-Noor", "--slug", "Al Noor"])
            #expect(bad.status == 64 && bad.stderr.contains("--slug 'Al Noor'"))
            // The operator sees the slug.
            let spaces = try await PraykitProcess.run([
                "serve", "sync", "spaces", "--sync-store", "sqlite:" + server.storePath,
            ])
            #expect(spaces.status == 0 && spaces.stdout.contains("east-london-mosque"), "\(spaces.stderr)")
            // and one space with its members, by name or by ID; an unknown one is a clear error.
            let store = ["--sync-store", "sqlite:" + server.storePath]
            let shown = try await PraykitProcess.run(["serve", "sync", "spaces", "show", Self.mosque] + store)
            #expect(shown.status == 0 && shown.stdout.contains("/m/east-london-mosque/display"), "\(shown.stderr)")
            #expect(shown.stdout.split(separator: "\n").contains { $0.hasPrefix("bilal") && $0.contains("editor") })
            let id = try #require(shown.stdout.firstMatch(of: /s_[0-9a-f]{16}/).map { String($0.output) })
            let shownJSON = try await PraykitProcess.run(
                ["serve", "sync", "spaces", "show", id, "--format", "json"] + store)
            #expect(shownJSON.status == 0 && shownJSON.stdout.contains("\"role\": \"editor\""), "\(shownJSON.stdout)")
            let nowhere = try await PraykitProcess.run(["serve", "sync", "spaces", "show", "Nowhere"] + store)
            #expect(nowhere.status == 1 && nowhere.stderr.contains("no mosque space has the ID or name 'Nowhere'"))
            // When: unpublished, nothing of it is served, and it says no more than an unknown slug.
            try await Self.run(owner, ["mosque", "unpublish", Self.mosque])
            let unknown = try await Self.get(server.url + "/m/no-such-mosque.json")
            for path in [".json", "/display", "/month", "/month.json", ".ics", "/events"] {
                let response = try await Self.get(base + path)
                #expect(response.status == 404 && response.body == unknown.body, "\(path)")
            }
        }

        @Test(.tags(.browser), .needsICalendar)
        func theFeedReadsInIcalendarAndKhalAndAChangedIqamaUpdatesIt() async throws {
            // Given
            let server = try await SyncServer.start()
            defer { server.stop() }
            let (owner, _) = try await Self.published(server)
            let folder = try TestFolder("feeds")
            let before = folder.path("before.ics")
            let after = folder.path("after.ics")
            try (try await Self.get(server.url + "/m/east-london-mosque.ics")).body.write(
                to: URL(fileURLWithPath: before))
            // When: the owner moves fajr's iqama, and the feed is fetched again
            try await Self.run(owner, ["mosque", "set", Self.mosque, "--iqama", "fajr=+30"])
            try await Self.run(owner, ["sync", "now"])
            try (try await Self.get(server.url + "/m/east-london-mosque.ics")).body.write(
                to: URL(fileURLWithPath: after))
            // Then: icalendar reads both, the same events with higher SEQUENCEs where the times changed,
            // and khal keeps each event once with the new times
            let python = try #require(TestRequirement.playwrightPython)
            let result = try await Shell.run(
                python,
                [
                    Self.root.appendingPathComponent("Scripts/pages/ics_check.py").path, "--before", before, "--after",
                    after,
                ], deadline: 600)
            print(result.stdout)
            #expect(result.status == 0, "\(result.stdout.suffix(3000))\n\(result.stderr.suffix(2000))")
            #expect(result.stdout.hasPrefix("PASS "), "\(result.stdout)")
        }

        @Test(.tags(.browser, .print), .needsPlaywright, .needsPrintTools)
        func theMonthPageInChromiumIsTheTimetableOnOneSheet() async throws {
            // Given: a home in London with iqama and three Jumu'ah, its timetable and its screen's server;
            // and the published mosque
            let (folder, environment) = try await DisplayCommandTests.savedLondon()
            defer { withExtendedLifetime(folder) {} }
            let timetable = folder.path("timetable-2027-07.html")
            let printed = try await PraykitProcess.run(
                ["timetable", "--month", "2027-07", "--output", timetable], environment: environment)
            #expect(printed.status == 0, "\(printed.stderr)")
            let (process, base) = try await DisplayCommandTests.serve(environment)
            defer { process.kill() }
            let server = try await SyncServer.start()
            defer { server.stop() }
            _ = try await Self.published(server)
            let artifacts = Self.root.appendingPathComponent(".build/test-artifacts/month").path
            // When
            let result = try await Shell.run(
                try #require(TestRequirement.playwrightPython),
                [
                    Self.root.appendingPathComponent("Scripts/browser/month_browser.py").path, "--url", base,
                    "--timetable", timetable, "--published", server.url + "/m/east-london-mosque", "--mosque",
                    Self.mosque, "--artifacts", artifacts, "--chromium",
                    try #require(TestRequirement.executable("chromium")),
                ], deadline: 900)
            // Then: every check passed; the screenshots and PDFs are named in the output
            print(result.stdout)
            #expect(result.status == 0, "\(result.stdout.suffix(4000))\n\(result.stderr.suffix(2000))")
            #expect(result.stdout.contains("\nPASS "), "\(result.stdout.suffix(2000))")
            #expect(result.stdout.contains("artifact \(artifacts)/month-phone-en.png"))
        }
    }
#endif
