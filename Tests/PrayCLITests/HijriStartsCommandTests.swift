import Foundation
import PrayCore
import PrayMocks
import Testing

/// `praykit hijri set-start|unset-start|starts|import-starts|export-starts`: months' first days as
/// announced, and every command that shows or uses a Hijri date following them. In Umm al-Qura,
/// Sha'ban 1448 has 30 days from 2027-01-09, Ramadan 29 from 2027-02-08, Shawwal begins 2027-03-09.
@Suite struct HijriStartsCommandTests {
    let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura"]

    func array(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    func hijriDate(_ day: [String: Any]?) -> String? { (day?["hijri"] as? [String: Any])?["date"] as? String }

    @Test func setListAndUnset() async throws {
        let dependency = CLI.dependency()
        let set = await CLI.run(["hijri", "set-start", "1448-09", "2027-02-07"], dependency: dependency)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "1 Ramadan 1448 (1448-09) begins on 2027-02-07.\n")
        #expect(try dependency.preferenceStore.preferences()[.hijriStarts] == "1448-09=2027-02-07")
        #expect(await CLI.run(["hijri", "set-start", "1448-10", "2027-03-09"], dependency: dependency).status == 0)
        #expect(
            try dependency.preferenceStore.preferences()[.hijriStarts] == "1448-09=2027-02-07,1448-10=2027-03-09")

        let list = try array(await CLI.run(["hijri", "starts", "--format", "json"], dependency: dependency).stdout)
        #expect(list.count == 2)
        #expect(list.first?["month"] as? String == "1448-09")
        #expect(list.first?["monthName"] as? String == "Ramadan")
        #expect(list.first?["start"] as? String == "2027-02-07")
        #expect(list.first?["calendarStart"] as? String == "2027-02-08")
        #expect(list.first?["shift"] as? Int == -1)
        #expect(list.first?["applied"] as? Bool == true)
        let table = await CLI.run(["hijri", "starts"], dependency: dependency).stdout
        #expect(table.contains("1448-09  Ramadan  2027-02-07       2027-02-08        -1"))

        let unset = await CLI.run(["hijri", "unset-start", "1448-10"], dependency: dependency)
        #expect(unset.status == 0)
        #expect(try dependency.preferenceStore.preferences()[.hijriStarts] == "1448-09=2027-02-07")
        #expect(await CLI.run(["hijri", "unset-start", "1448-09"], dependency: dependency).status == 0)
        #expect(try dependency.preferenceStore.preferences()[.hijriStarts] == nil)
        let again = await CLI.run(["hijri", "unset-start", "1448-09"], dependency: dependency)
        #expect(again.status == 64)
        #expect(again.stderr.hasPrefix("Error: 1448-09 has no announced start"))
        #expect(
            await CLI.run(["hijri", "starts"], dependency: dependency).stdout.hasPrefix("No announced month starts"))
    }

    @Test func theCalendarsStartIsTheOneTheOffsetShows() async throws {
        // Given: 1 Ramadan 1448 announced for 2027-02-07, and hijri-offset +1, with which the calendar
        // itself begins Ramadan on 2027-02-07 (Umm al-Qura alone: 2027-02-08)
        let dependency = CLI.dependency()
        #expect(await CLI.run(["hijri", "set-start", "1448-09", "2027-02-07"], dependency: dependency).status == 0)
        #expect(await CLI.run(["config", "set", "hijri-offset", "1"], dependency: dependency).status == 0)
        // When
        let list = try array(await CLI.run(["hijri", "starts", "--format", "json"], dependency: dependency).stdout)
        let table = await CLI.run(["hijri", "starts"], dependency: dependency).stdout
        // Then: no shift from the calendar the person sees, and the table says which calendar that is
        #expect(list.first?["calendarStart"] as? String == "2027-02-07")
        #expect(list.first?["offset"] as? Int == 1)
        #expect(list.first?["shift"] as? Int == 0)
        #expect(list.first?["applied"] as? Bool == true)
        #expect(table.hasPrefix("Calendar: Umm al-Qura, offset +1 day (the calendar's start"), "\(table)")
        #expect(table.contains("1448-09  Ramadan  2027-02-07       2027-02-07        0"), "\(table)")
        // The same day 'hijri' begins Ramadan on once the announcement is gone
        #expect(await CLI.run(["hijri", "unset-start", "1448-09"], dependency: dependency).status == 0)
        let days = try array(
            await CLI.run(["hijri", "--date", "2027-02-07", "--format", "json"], dependency: dependency).stdout)
        #expect(hijriDate(days.first) == "1448-09-01")
    }

    @Test func refusalsNameTheProblemAndSaveNothing() async throws {
        let dependency = CLI.dependency()
        func refused(_ arguments: [String], _ message: String) async throws {
            let result = await CLI.run(["hijri"] + arguments, dependency: dependency)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(try dependency.preferenceStore.preferences()[.hijriStarts] == nil, "\(arguments)")
        }
        // A 31-day Sha'ban, a 28-day Ramadan, a 31-day Ramadan
        try await refused(
            ["set-start", "1448-09", "2027-02-09"], "would make Sha'ban 1448 (1448-08) 31 days long")
        try await refused(
            ["set-start", "1448-10", "2027-03-08"], "would make Ramadan 1448 (1448-09) 28 days long")
        try await refused(
            ["set-start", "1448-10", "2027-03-11"], "would make Ramadan 1448 (1448-09) 31 days long")
        try await refused(
            ["set-start", "1448-09", "2027-02-11"], "2027-02-11 is 3 days after the calendar's 1 Ramadan")
        try await refused(["set-start", "1448-09", "2027-02-05"], "is 3 days before")
        // Bad text
        try await refused(["set-start", "1448-13", "2027-02-08"], "YYYY-MM")
        try await refused(["set-start", "1448-09", "2027-02-30"], "day 30 does not exist")
        try await refused(["set-start", "Ramadan", "2027-02-08"], "YYYY-MM")
        try await refused(["set-start", "1448-09"], "date")
        // With Ramadan moved a day earlier, Shawwal a day later would make Ramadan 31 days
        #expect(await CLI.run(["hijri", "set-start", "1448-09", "2027-02-07"], dependency: dependency).status == 0)
        let long = await CLI.run(["hijri", "set-start", "1448-10", "2027-03-10"], dependency: dependency)
        #expect(long.status == 64)
        #expect(long.stderr.contains("Ramadan 1448 (1448-09) 31 days long; a Hijri month has 29 or 30 days"))
        #expect(try dependency.preferenceStore.preferences()[.hijriStarts] == "1448-09=2027-02-07")
    }

    @Test func hijriConvertMonthAndDaysFollowAnOverride() async throws {
        let dependency = CLI.dependency()
        #expect(await CLI.run(["hijri", "set-start", "1448-09", "2027-02-07"], dependency: dependency).status == 0)
        func run(_ arguments: [String]) async throws -> [[String: Any]] {
            try array(await CLI.run(["hijri"] + arguments + ["--format", "json"], dependency: dependency).stdout)
        }
        #expect(try await run(["convert", "1448-09-01"]).first?["gregorian"] as? String == "2027-02-07")
        #expect(try await run(["convert", "1448-09-30"]).first?["gregorian"] as? String == "2027-03-08")
        #expect(hijriDate(try await run(["convert", "2027-02-07"]).first) == "1448-09-01")
        #expect(hijriDate(try await run(["convert", "2027-03-09"]).first) == "1448-10-01")
        let month = try await run(["month", "1448-09"])
        #expect(month.count == 30)
        #expect(month.first?["gregorian"] as? String == "2027-02-07")
        #expect(try await run(["month", "1448-08"]).count == 29)
        let days = try await run(["--date", "2027-02-06", "--days", "2"])
        #expect(days.map(hijriDate) == ["1448-08-29", "1448-09-01"])
        // The offset does not apply to the overridden month
        #expect(hijriDate(try await run(["--date", "2027-02-07", "--offset", "1"]).first) == "1448-09-01")
        // (Sha'ban, not overridden, begins a day earlier with the offset: 2027-02-06 is its 30th)
        #expect(hijriDate(try await run(["--date", "2027-02-06", "--offset", "1"]).first) == "1448-08-30")
        let table = await CLI.run(["hijri", "--date", "2027-02-06", "--days", "2"], dependency: dependency).stdout
        #expect(table.hasPrefix("Calendar: Umm al-Qura; announced start of 1448-09\n"))
        let notable = try await run(["notable", "--date", "2027-02-01"])
        #expect(notable.first?["gregorian"] as? String == "2027-02-07")
    }

    @Test func timesNextAndTheRamadanIshaFollowAnOverride() async throws {
        let dependency = CLI.dependency()
        #expect(await CLI.run(["hijri", "set-start", "1448-09", "2027-02-07"], dependency: dependency).status == 0)
        // times: the Hijri column, and the Umm al-Qura method's isha 120 minutes after maghrib in Ramadan
        let times = try CLI.json(
            await CLI.run(
                ["times"] + makkah + ["--date", "2027-02-06", "--days", "2", "--format", "json"],
                dependency: dependency
            ).stdout)
        let days = try #require(times["days"] as? [[String: Any]])
        #expect(days.map { $0["hijri"] as? String } == ["1448-08-29", "1448-09-01"])
        #expect(days.map { $0["isha"] as? String } == ["2027-02-06T19:43:00+03:00", "2027-02-07T20:14:00+03:00"])
        // times --ramadan: 30 days from the announced start
        let ramadan = await CLI.run(
            ["times"] + makkah + ["--ramadan", "--date", "2027-01-01"], dependency: dependency
        ).stdout
        #expect(ramadan.contains("1    2027-02-07  Sun"))
        #expect(ramadan.contains("30   2027-03-08  Mon"))
        // next: the night of 2027-02-06 counts down to the first suhoor
        let next = await CLI.run(
            ["next"] + makkah + ["--now", "2027-02-06T19:00:00+03:00"], dependency: dependency
        ).stdout
        #expect(next.hasSuffix("Ramadan 1: suhoor ends (imsak) at 05:28 in 10:28, fajr 05:38\n"), "\(next)")
        // Without the override, that night is not yet Ramadan
        let plain = await CLI.run(["next"] + makkah + ["--now", "2027-02-06T19:00:00+03:00"]).stdout
        #expect(!plain.contains("Ramadan"))
    }

    @Test func notifyPlansImsakAndIftarOnTheAnnouncedFirstDay() async throws {
        func kinds(_ dependency: PrayDependencyMock) async throws -> [String] {
            let planned = try CLI.json(
                await CLI.run(
                    ["notify"] + makkah + [
                        "--dry-run", "--from", "2027-02-07T00:00:00+03:00", "--until", "2027-02-08T00:00:00+03:00",
                        "--format", "json",
                    ], dependency: dependency
                ).stdout)
            let events = try #require(planned["events"] as? [[String: Any]])
            return events.compactMap { $0["kind"] as? String }
        }
        // 2027-02-07 is 30 Sha'ban in the calendar, 1 Ramadan as announced
        let calendar = try await kinds(CLI.dependency())
        #expect(!calendar.contains("imsak") && !calendar.contains("iftar"))
        let dependency = CLI.dependency()
        #expect(await CLI.run(["hijri", "set-start", "1448-09", "2027-02-07"], dependency: dependency).status == 0)
        let announced = try await kinds(dependency)
        #expect(announced.contains("imsak") && announced.contains("iftar"), "\(announced)")
    }

    @Test func theFileRoundTripsAndABadFileImportsNothing() async throws {
        let dependency = CLI.dependency()
        let file = """
            # Announced by the Example Mosque council
            1448-09 2027-02-07 Example Mosque council, 2027-02-06

            1448-10\t2027-03-09
            """
        let imported = await CLI.run(
            ["hijri", "import-starts", "-"], dependency: dependency, standardInput: Data(file.utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 2 month starts.\n")
        let exported = await CLI.run(["hijri", "export-starts"], dependency: dependency).stdout
        #expect(exported.hasSuffix("1448-09 2027-02-07\n1448-10 2027-03-09\n"))
        let other = CLI.dependency()
        let again = await CLI.run(
            ["hijri", "import-starts", "-"], dependency: other, standardInput: Data(exported.utf8))
        #expect(again.status == 0)
        #expect(await CLI.run(["hijri", "export-starts"], dependency: other).stdout == exported)

        // A bad line, and a line that makes a 31-day month: the error names the line, nothing is imported,
        // and the file's fault is a failure (exit 1), as for 'import'
        let fresh = CLI.dependency()
        for (text, message) in [
            ("# starts\n1448-09 2027-02-07\n1448-10 2027-03-32\n", "line 3: "),
            ("1448-09 2027-02-07\n\n1448-10 2027-03-10 too late\n", "line 3: 1 Shawwal 1448 on 2027-03-10 would make"),
            ("1448-09\n", "line 1: expected"),
            ("1448-09 2027-02-07\n1448-09 2027-02-08\n", "line 2: 1448-09 is already given on line 1"),
        ] {
            let result = await CLI.run(
                ["hijri", "import-starts", "-"], dependency: fresh, standardInput: Data(text.utf8))
            #expect(result.status == 1, "\(text)")
            #expect(result.stderr.hasPrefix("Error: standard input " + message), "\(result.stderr)")
            #expect(result.stderr.contains("nothing was imported"))
            #expect(!result.stderr.contains("Usage:"), "\(result.stderr)")
            #expect(try fresh.preferenceStore.preferences()[.hijriStarts] == nil)
        }
        #expect(await CLI.run(["hijri", "import-starts", "/nonexistent/starts.txt"], dependency: fresh).status == 1)
    }

    @Test func aFileThatIsNotStartsFailsAsImportFailsAndAMissingArgumentIsUsage() async throws {
        // Given: files that exist but hold no good starts, read both by path and from standard input
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("praykit-starts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let large = Data(repeating: UInt8(ascii: "#"), count: 1024 * 1024 + 1)
        let cases: [(name: String, data: Data, message: String)] = [
            ("binary.txt", Data([0xFF, 0xFE, 0x00, 0x41]), "is not UTF-8 text"),
            ("empty.txt", Data("# nothing yet\n".utf8), "has no months; nothing was imported"),
            ("backup.json", Data("{\"format\": \"praykit-backup\"}\n".utf8), "line 1: "),
            ("large.txt", large, "is larger than 1 MiB"),
        ]
        let dependency = CLI.dependency()
        for (name, data, message) in cases {
            let file = folder.appendingPathComponent(name)
            try data.write(to: file)
            // When
            let byPath = await CLI.run(["hijri", "import-starts", file.path], dependency: dependency)
            let byInput = await CLI.run(["hijri", "import-starts", "-"], dependency: dependency, standardInput: data)
            // Then: exit 1 like 'praykit import' of a file that is not a backup, no usage line, nothing saved
            #expect(byPath.status == 1, "\(name): \(byPath.stderr)")
            #expect(byPath.stderr.hasPrefix("Error: \(file.path) \(message)"), "\(byPath.stderr)")
            #expect(!byPath.stderr.contains("Usage:"), "\(byPath.stderr)")
            #expect(byInput.status == 1, "\(name): \(byInput.stderr)")
            #expect(byInput.stderr.hasPrefix("Error: standard input \(message)"), "\(byInput.stderr)")
        }
        #expect(try dependency.preferenceStore.preferences()[.hijriStarts] == nil)
        let backup = await CLI.run(
            ["import", folder.appendingPathComponent("binary.txt").path], dependency: dependency)
        #expect(backup.status == 1, "\(backup.stderr)")
        // A missing argument is the command line's mistake
        let missing = await CLI.run(["hijri", "import-starts"], dependency: dependency)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("Usage: praykit hijri import-starts"), "\(missing.stderr)")
    }

    @Test func theCommittedExampleFileImports() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let example = root.appendingPathComponent("docs/hijri-starts-example.txt").path
        let dependency = CLI.dependency()
        let result = await CLI.run(["hijri", "import-starts", example], dependency: dependency)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try dependency.preferenceStore.preferences()[.hijriStarts] == "1448-09=2027-02-07,1448-10=2027-03-09")
    }

    @Test func theStartsTravelInABackup() async throws {
        let sandbox = try StorageCommandTests.Sandbox()
        #expect(try await sandbox.run(["hijri", "set-start", "1448-09", "2027-02-07"]).status == 0)
        let exported = try await sandbox.run(["export"])
        #expect(exported.stdout.contains("1448-09=2027-02-07"))
        let file = sandbox.folder.appendingPathComponent("backup.json")
        try Data(exported.stdout.utf8).write(to: file)
        let other = try StorageCommandTests.Sandbox()
        #expect(try await other.run(["import", file.path]).status == 0)
        let list = try array(try await other.run(["hijri", "starts", "--format", "json"]).stdout)
        #expect(list.first?["start"] as? String == "2027-02-07")
        let convert = try await other.run(["hijri", "convert", "1448-09-01", "--format", "json"])
        #expect(try array(convert.stdout).first?["gregorian"] as? String == "2027-02-07")
    }

    @Test func theEmptyListsHintIsACommandThatSucceeds() async throws {
        // Given: no starts, today 2026-11-29 (Jumada al-Akhirah 1448): the next Ramadan is 1448's
        let dependency = CLI.dependency()
        let empty = await CLI.run(["hijri", "starts"], dependency: dependency)
        #expect(empty.stdout.hasPrefix("No announced month starts"), "\(empty.stdout)")
        let line = try #require(
            empty.stdout.split(separator: "\n").first { $0.contains("praykit hijri set-start") }, "\(empty.stdout)")
        let words = try #require(line.range(of: "praykit ")).upperBound
        // When: the hint's command is run
        let hinted = await CLI.run(line[words...].split(separator: " ").map(String.init), dependency: dependency)
        // Then: it is accepted
        #expect(hinted.status == 0, "\(line): \(hinted.stderr)")
        #expect(line.contains("1448-09"), "\(line)")
        // And so is every set-start example of the help
        for command in ["hijri", "hijri set-start"] {
            let help = await CLI.run(command.split(separator: " ").map(String.init) + ["--help"]).stdout
            for example in help.split(separator: "\n").filter({ $0.contains("praykit hijri set-start 14") }) {
                let start = try #require(example.range(of: "praykit ")).upperBound
                let result = await CLI.run(example[start...].split(separator: " ").map(String.init))
                #expect(result.status == 0, "\(example): \(result.stderr)")
            }
        }
    }
}
