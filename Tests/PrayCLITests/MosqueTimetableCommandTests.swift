import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// `praykit timetable import|list|remove` and the chosen mosque's times in times, next, notify and
/// timetable, on the real binary and a real database.
@Suite(.tags(.process, .binary)) struct MosqueTimetableCommandTests {
    final class Sandbox {
        let folder: URL
        var environment: [String: String] { ["PRAYKIT_DATABASE": folder.appendingPathComponent("praykit.sqlite").path] }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "praykit-mosque-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func run(_ arguments: [String]) async throws -> PraykitProcess.Result {
            try await PraykitProcess.run(arguments, environment: environment)
        }

        func file(_ name: String, _ bytes: Data) throws -> String {
            let url = folder.appendingPathComponent(name)
            try bytes.write(to: url)
            return url.path
        }

        /// Saves London as the place and imports `csv` as `mosque`.
        func setUp(mosque: String = "East London Mosque", csv: String = Sandbox.csv) async throws {
            for (key, value) in [("lat", "51.5074"), ("lon", "-0.1278"), ("tz", "Europe/London")] {
                let result = try await run(["config", "set", key, value])
                #expect(result.status == 0, "\(result.stderr)")
            }
            let path = try file("\(mosque).csv", Data(csv.utf8))
            let result = try await run(["timetable", "import", path, "--mosque", mosque])
            #expect(result.status == 0, "\(result.stderr)")
        }

        static let csv = """
            date,fajr,sunrise,dhuhr,asr,maghrib,isha,fajr_iqama,dhuhr_iqama,jumuah
            2026-12-01,05:50,07:45,12:05,13:50,16:00,18:15,06:30,12:30,
            2026-12-02,05:51,,12:05,13:50,16:00,,06:30,,
            2026-12-04,05:52,07:47,12:06,13:50,16:01,18:16,,,12:15 13:30

            """
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func timesUseTheChosenMosqueAndCalculatedTimesFillTheGaps() async throws {
        let sandbox = try Sandbox()
        try await sandbox.setUp()
        // Before it is chosen, nothing changes
        let before = try await sandbox.run(["times", "--date", "2026-12-01", "--format", "json"])
        let beforeDay = try #require((try json(before.stdout)["days"] as? [[String: Any]])?.first)
        #expect(beforeDay["source"] == nil && beforeDay["fajr"] as? String != "2026-12-01T05:50:00+00:00")
        // A name no timetable was imported under is refused, naming the ones kept
        let unknown = try await sandbox.run(["config", "set", "mosque", "East London Masjid"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("the mosques kept are 'East London Mosque'"), "\(unknown.stderr)")
        // When
        #expect(try await sandbox.run(["config", "set", "mosque", "East London Mosque"]).status == 0)
        let result = try await sandbox.run(["times", "--date", "2026-11-30", "--days", "4", "--format", "json"])
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        let days = try #require(try json(result.stdout)["days"] as? [[String: Any]])
        #expect(
            days.map { $0["source"] as? String } == [
                nil, "mosque:East London Mosque", "mosque:East London Mosque", nil,
            ])
        #expect(days[1]["fajr"] as? String == "2026-12-01T05:50:00+00:00")
        #expect(days[1]["isha"] as? String == "2026-12-01T18:15:00+00:00")
        #expect((days[1]["congregation"] as? [String: String])?["fajr"] == "2026-12-01T06:30:00+00:00")
        // 12-02 gives no sunrise or isha: calculated ones fill them
        #expect(days[2]["mosqueTimes"] as? [String] == ["fajr", "dhuhr", "asr", "maghrib"])
        #expect(days[2]["sunrise"] is String && days[2]["isha"] as? String != "2026-12-02T18:15:00+00:00")
        // The table marks them and names the mosque
        let table = try await sandbox.run(["times", "--date", "2026-12-01"])
        #expect(table.stdout.contains("05:50m") && table.stdout.contains("m from East London Mosque"))
    }

    @Test func nextNotifyAndTheTimetableUseTheMosquesTimes() async throws {
        let sandbox = try Sandbox()
        try await sandbox.setUp()
        #expect(try await sandbox.run(["config", "set", "mosque", "East London Mosque"]).status == 0)
        // next
        let next = try await sandbox.run(["next", "--now", "2026-12-01T05:00:00Z", "--format", "json"])
        #expect(next.status == 0, "\(next.stderr)")
        let upcoming = try #require(try json(next.stdout)["next"] as? [String: Any])
        #expect(upcoming["prayer"] as? String == "fajr" && upcoming["time"] as? String == "2026-12-01T05:50:00+00:00")
        #expect(upcoming["iqama"] as? String == "2026-12-01T06:30:00+00:00")
        // notify
        let notify = try await sandbox.run([
            "notify", "--dry-run", "--from", "2026-12-01T00:00:00Z", "--until", "2026-12-01T13:00:00Z", "--format",
            "json",
        ])
        #expect(notify.status == 0, "\(notify.stderr)")
        let events = try #require(try json(notify.stdout)["events"] as? [[String: Any]])
        let adhans = events.filter { $0["kind"] as? String == "adhan" }.compactMap { $0["at"] as? String }
        #expect(adhans.contains("2026-12-01T05:50:00+00:00") && adhans.contains("2026-12-01T12:05:00+00:00"))
        // timetable print
        let page = try await sandbox.run(["timetable", "--month", "2026-12"])
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("05:50") && page.stdout.contains("05:52"))
        // with the mosque's iqama and Jumu'ah, and named in the footer
        #expect(page.stdout.contains("<td class=\"iqama\">06:30</td>") && page.stdout.contains("12:15<br>13:30"))
        #expect(page.stdout.contains("Mosque timetable:</span> <bdi>East London Mosque</bdi>"))
    }

    @Test func listShowsTwoMosquesByNameAndRemoveForgetsOne() async throws {
        let sandbox = try Sandbox()
        try await sandbox.setUp()
        try await sandbox.setUp(mosque: "Masjid Two", csv: "date,fajr\n2027-01-01,06:00\n2027-01-02,06:00\n")
        #expect(try await sandbox.run(["config", "set", "mosque", "Masjid Two"]).status == 0)
        let list = try await sandbox.run(["timetable", "list", "--format", "json"])
        let mosques = try #require(try json(list.stdout)["mosques"] as? [[String: Any]])
        #expect(mosques.map { $0["name"] as? String } == ["East London Mosque", "Masjid Two"])
        #expect(mosques.map { $0["days"] as? Int } == [3, 2] && mosques[1]["chosen"] as? Bool == true)
        #expect(mosques[0]["first"] as? String == "2026-12-01" && mosques[0]["last"] as? String == "2026-12-04")
        // When
        let removed = try await sandbox.run(["timetable", "remove", "--mosque", "Masjid Two"])
        // Then: gone, and no longer chosen
        #expect(removed.status == 0 && removed.stdout.contains("calculated times apply again"))
        let after = try await sandbox.run(["timetable", "list"])
        #expect(after.stdout.contains("East London Mosque") && !after.stdout.contains("Masjid Two"))
        #expect(try await sandbox.run(["config", "get", "mosque"]).stdout.contains("Masjid Two") == false)
        let again = try await sandbox.run(["timetable", "remove", "--mosque", "Masjid Two"])
        #expect(again.status == 1 && again.stderr.contains("no mosque timetable named 'Masjid Two'"))
    }

    @Test func aTimeFarFromTheCalculatedOneIsAWarningNamingTheDay() async throws {
        // Given: London in June, one day's maghrib written 17:50 (sunset is after 21:00)
        let sandbox = try Sandbox()
        let csv = """
            date,fajr,sunrise,dhuhr,asr,maghrib,isha
            2027-06-13,02:45,04:43,13:02,17:24,21:19,22:45
            2027-06-14,02:45,04:43,13:02,17:24,17:50,22:45

            """
        // When
        try await sandbox.setUp(csv: csv)
        let path = try sandbox.file("again.csv", Data(csv.utf8))
        let result = try await sandbox.run(["timetable", "import", path, "--mosque", "East London Mosque"])
        // Then: imported, with a warning on standard error naming the day, the time and the calculated one
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 2 days"), "\(result.stdout)")
        #expect(result.stderr.hasPrefix("Warning: "), "\(result.stderr)")
        #expect(result.stderr.contains("2027-06-14: maghrib 17:50, calculated 21:"), "\(result.stderr)")
        #expect(!result.stderr.contains("2027-06-13"), "\(result.stderr)")
        #expect(result.stderr.contains("zone") && result.stderr.contains("column"), "\(result.stderr)")
        // A timetable within the thresholds imports quietly
        let fine = try sandbox.file("fine.csv", Data(Sandbox.csv.utf8))
        let quiet = try await sandbox.run(["timetable", "import", fine, "--mosque", "East London Mosque"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        // The thresholds are said in help
        let help = try await sandbox.run(["timetable", "import", "--help"])
        #expect(help.stdout.contains("maghrib") && help.stdout.contains("minutes"), "\(help.stdout)")
    }

    @Test func theSourceLineNamesTheMosqueAndWhenItWasImported() async throws {
        let sandbox = try Sandbox()
        try await sandbox.setUp()
        #expect(try await sandbox.run(["config", "set", "mosque", "East London Mosque"]).status == 0)
        // When
        let times = try await sandbox.run(["times", "--date", "2026-11-30", "--days", "3"])
        let next = try await sandbox.run(["next", "--now", "2026-12-01T05:00:00Z"])
        let calculated = try await sandbox.run(["times", "--date", "2027-03-01"])
        // Then
        #expect(times.status == 0, "\(times.stderr)")
        #expect(
            times.stdout.contains("Source: East London Mosque's timetable (imported 20")
                && times.stdout.contains("), calculated where it has no day"), "\(times.stdout)")
        #expect(next.stdout.contains("; from East London Mosque's timetable (imported 20"), "\(next.stdout)")
        #expect(calculated.stdout.contains("Source: calculated\n"), "\(calculated.stdout)")
    }

    @Test func aTimetableAtTheEdgesOfTheCalendarIsImportedWithoutATrap() async throws {
        // Given: days PrayKit represents but does not calculate (the check reads the day before the first)
        let sandbox = try Sandbox()
        for (key, value) in [("lat", "51.5074"), ("lon", "-0.1278"), ("tz", "Europe/London")] {
            #expect(try await sandbox.run(["config", "set", key, value]).status == 0)
        }
        for (name, day) in [("First", "0001-01-01"), ("Last", "9999-12-31")] {
            let path = try sandbox.file(
                "\(name).csv",
                Data("date,fajr,sunrise,dhuhr,asr,maghrib,isha\n\(day),06:10,07:50,11:55,13:40,15:52,17:40\n".utf8))
            // When
            let imported = try await sandbox.run(["timetable", "import", path, "--mosque", name])
            // Then: imported (its times are the mosque's own), no trap
            #expect(imported.status == 0, "\(day): \(imported.status) \(imported.stderr)")
            #expect(imported.stdout.contains("Imported 1 day (\(day) to \(day))"), "\(imported.stdout)")
        }
    }

    @Test func anIshaAfterMidnightIsImportedOnTheNextDay() async throws {
        // Given: Lerwick at midsummer, isha and its iqama after midnight
        let sandbox = try Sandbox()
        for (key, value) in [("lat", "60.155"), ("lon", "-1.145"), ("tz", "Europe/London")] {
            #expect(try await sandbox.run(["config", "set", key, value]).status == 0)
        }
        let path = try sandbox.file(
            "lerwick.csv", Data("date,maghrib,isha,isha_iqama\n2027-06-21,22:40,00:40,00:55\n".utf8))
        // When
        let imported = try await sandbox.run(["timetable", "import", path, "--mosque", "Lerwick Mosque"])
        #expect(try await sandbox.run(["config", "set", "mosque", "Lerwick Mosque"]).status == 0)
        let times = try await sandbox.run(["times", "--date", "2027-06-21", "--format", "json"])
        // Then
        #expect(imported.status == 0, "\(imported.stderr)")
        let day = try #require((try json(times.stdout)["days"] as? [[String: Any]])?.first)
        #expect(day["isha"] as? String == "2027-06-22T00:40:00+01:00", "\(day)")
        #expect((day["congregation"] as? [String: String])?["isha"] == "2027-06-22T00:55:00+01:00")
    }

    @Test(arguments: [
        ("order", Data("date,fajr,sunrise\n2026-12-01,08:50,07:45\n".utf8), "line 2:"),
        ("twice", Data("date,fajr\n2026-12-01,05:50\n2026-12-01,05:51\n".utf8), "line 3:"),
        ("nodate", Data("day,fajr\n2026-12-01,05:50\n".utf8), "line 1:"),
        ("unknown", Data("date,fajr,zuhr\n2026-12-01,05:50,12:00\n".utf8), "line 1:"),
        ("time", Data("date,fajr\n2026-12-01,5.50\n".utf8), "line 2:"),
        ("date", Data("date,fajr\n01/12/2026,05:50\n".utf8), "line 2:"),
        ("latin1", Data("date,fajr\n2026-12-01,05:50\n".utf8) + Data([0xE9, 0x0A]), "line 3:"),
        ("empty", Data(), "line 1:"),
    ])
    func badInputNamesTheLineAndImportsNothing(_ name: String, _ bytes: Data, _ line: String) async throws {
        // Given: the mosque imported once
        let sandbox = try Sandbox()
        try await sandbox.setUp()
        let before = try await sandbox.run(["timetable", "list", "--format", "json"])
        // When: a bad file for the same mosque
        let path = try sandbox.file("\(name).csv", bytes)
        let result = try await sandbox.run(["timetable", "import", path, "--mosque", "East London Mosque"])
        // Then: an error naming the line, and the kept days unchanged
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: \(path), \(line)"), "\(result.stderr)")
        let after = try await sandbox.run(["timetable", "list", "--format", "json"])
        #expect(after.stdout == before.stdout)
    }
}
