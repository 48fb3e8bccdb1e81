import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit fast` end to end, in-process on a real database in a temporary folder with a pinned
/// clock, and the suggestions `fast-suggestions` adds to `next` and `times`.
@Suite struct FastCommandTests {
    let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura"]
    private static let hijri = HijriServiceUmmAlQura(
        prayerService: PrayerServiceAstronomical(log: .silent), log: .silent)

    /// The civil day of a Hijri date on the Umm al-Qura calendar.
    private func civil(_ year: Int, _ month: HijriMonth, _ day: Int) throws -> CivilDate {
        try Self.hijri.day(of: HijriDate(year: year, month: month.rawValue, day: day), calendar: .ummAlQura, offset: 0)
            .gregorian
    }

    /// A dependency whose fasts are in `test`'s database, with `preferences`.
    private func dependency(_ test: TestDatabase, _ preferences: [Preferences.Key: String] = [:]) throws
        -> PrayDependencyMock
    {
        var dependency = CLI.dependency(preferences: try CLI.preferences(preferences))
        dependency.fastStore = FastStoreSQLite(database: test.database, log: .silent)
        return dependency
    }

    /// Noon UTC of `day`.
    private func noon(_ day: CivilDate) -> Date {
        Date(timeIntervalSince1970: Double(day.daysSince1970 * 86400 + 43200))
    }

    @Test func recordListRemoveAndStatsOnADatabase() async throws {
        // Given: 2026-06-01 (Dhu al-Hijjah 1447), after Ramadan 1447
        let test = try TestDatabase()
        let dependency = try dependency(test)
        let now = noon(try CivilDate(parsing: "2026-06-01"))
        func run(_ arguments: [String]) async -> CLI.Result {
            await CLI.run(["fast"] + arguments + ["--tz", "UTC"], dependency: dependency, now: now)
        }
        let first = try civil(1447, .ramadan, 1)
        // When
        let fasted = await run(["record", "--date", first.description, "--status", "fasted"])
        let excused = await run([
            "record", "--date", first.adding(days: 1).description, "--status", "excused", "--note", "travel",
        ])
        let shawwal = try civil(1447, .shawwal, 10)
        let madeUp = await run(["record", "--date", shawwal.description, "--status", "made-up"])
        // Then
        #expect(fasted.status == 0, "\(fasted.stderr)")
        #expect(fasted.stdout == "\(first) fasted (1 Ramadan 1447)\n")
        #expect(excused.status == 0 && madeUp.status == 0, "\(excused.stderr) \(madeUp.stderr)")
        let list = try #require(
            try JSONSerialization.jsonObject(
                with: Data(await run(["list", "--from", first.description, "--format", "json"]).stdout.utf8))
                as? [[String: Any]])
        #expect(list.map { $0["status"] as? String } == ["fasted", "excused", "made-up"])
        #expect(list[1]["note"] as? String == "travel")
        #expect(list[0]["recordedAt"] as? String == "2026-06-01T12:00:00.000Z")
        let stats = try CLI.json(await run(["stats", "--format", "json"]).stdout)
        let ramadans = try #require(stats["ramadans"] as? [[String: Any]])
        #expect(ramadans.map { $0["year"] as? Int } == [1447])
        #expect(ramadans[0]["fasted"] as? Int == 1 && ramadans[0]["excused"] as? Int == 1)
        #expect(ramadans[0]["owed"] as? Int == 0)
        #expect(stats["owed"] as? Int == 0 && stats["madeUp"] as? Int == 1)
        let table = await run(["stats"]).stdout
        #expect(table.contains("Owed: 0 days") && table.contains("Made up: 1 day"), "\(table)")
        // Removing the made-up day leaves the excused one owed
        #expect(await run(["remove", "--date", shawwal.description]).stdout == "Removed \(shawwal) made-up\n")
        #expect(
            await run(["remove", "--date", shawwal.description]).stdout
                == "No fast recorded on \(shawwal); nothing removed\n")
        #expect(try CLI.json(await run(["stats", "--format", "json"]).stdout)["owed"] as? Int == 1)
        let csv = await run(["list", "--from", first.description, "--format", "csv"]).stdout
        #expect(csv.hasPrefix("date,hijri,status,recordedAt,note,problem\n\(first),1447-09-01,fasted,"), "\(csv)")
    }

    @Test func listJSONHasTheHijriDateTheTableShows() async throws {
        // Given: a fast on 1 Ramadan 1447 and a voluntary one on 10 Shawwal, with hijri-offset +1
        let test = try TestDatabase()
        let dependency = try dependency(test, [.hijriOffset: "1"])
        let now = noon(try CivilDate(parsing: "2026-06-01"))
        func run(_ arguments: [String]) async -> CLI.Result {
            await CLI.run(["fast"] + arguments + ["--tz", "UTC"], dependency: dependency, now: now)
        }
        let first = try civil(1447, .ramadan, 1).adding(days: -1)
        let shawwal = try civil(1447, .shawwal, 10).adding(days: -1)
        #expect(await run(["record", "--date", first.description, "--status", "fasted"]).status == 0)
        #expect(await run(["record", "--date", shawwal.description, "--status", "voluntary"]).status == 0)
        // When
        let json = await run(["list", "--from", first.description, "--format", "json"]).stdout
        let table = await run(["list", "--from", first.description]).stdout
        // Then: the day's Hijri date on the calendar followed (with the offset), as a string like times'
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(list.map { $0["hijri"] as? String } == ["1447-09-01", "1447-10-10"], "\(json)")
        #expect(json.contains("\"date\": \"\(first)\",\n    \"hijri\": \"1447-09-01\",\n    \"status\""), "\(json)")
        #expect(table.contains("\(first)  1447-09-01  fasted"), "\(table)")
    }

    @Test func theRulesAreUsageErrorsAndSaveNothing() async throws {
        let test = try TestDatabase()
        let dependency = try dependency(test)
        let now = noon(try CivilDate(parsing: "2026-06-01"))
        let eid = try civil(1447, .shawwal, 1)
        let ramadan = try civil(1447, .ramadan, 10)
        for (arguments, message) in [
            (["--date", eid.description, "--status", "made-up"], "Eid al-Fitr"),
            (["--date", try civil(1447, .dhuAlHijjah, 12).description, "--status", "voluntary"], "tashriq"),
            (["--date", ramadan.description, "--status", "voluntary"], "a day of Ramadan is fasted"),
            (["--date", eid.adding(days: 5).description, "--status", "fasted"], "not a day of Ramadan"),
            (["--date", "+2", "--status", "voluntary"], "in the future"),
            (["--status", "prayed"], "--status"),
        ] {
            let result = await CLI.run(
                ["fast", "record", "--tz", "UTC"] + arguments, dependency: dependency, now: now)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains(message), "\(result.stderr)")
        }
        #expect(
            try FastStoreSQLite(database: test.database, log: .silent).entries(from: .first, through: .last).isEmpty)
    }

    @Test func theSavedAnnouncedStartDecidesWhatIsRamadan() async throws {
        // Given: Ramadan 1447 announced a day after the calendar's first
        let test = try TestDatabase()
        let first = try civil(1447, .ramadan, 1)
        let dependency = try dependency(test, [.hijriStarts: "1447-09=\(first.adding(days: 1))"])
        let now = noon(try CivilDate(parsing: "2026-06-01"))
        func record(_ day: CivilDate, _ status: String) async -> CLI.Result {
            await CLI.run(
                ["fast", "record", "--tz", "UTC", "--date", day.description, "--status", status],
                dependency: dependency, now: now)
        }
        // When / Then: the calendar's first is Sha'ban's 30th, the next day Ramadan's first
        let refused = await record(first, "fasted")
        #expect(refused.status == 64 && refused.stderr.contains("30 Sha'ban 1447"), "\(refused.stderr)")
        #expect(
            await record(first.adding(days: 1), "fasted").stdout == "\(first.adding(days: 1)) fasted (1 Ramadan 1447)\n"
        )
        #expect(await record(first, "voluntary").status == 0)
    }

    @Test func aWholeRamadanIsRecordedSkippingRecordedDays() async throws {
        let test = try TestDatabase()
        let dependency = try dependency(test)
        let days = try Self.hijri.month(.ramadan, of: 1447, calendar: .ummAlQura, offset: 0)
        let now = noon(days[9].gregorian)  // the 10th: nine days before it
        func run(_ arguments: [String]) async -> CLI.Result {
            await CLI.run(["fast", "record", "--tz", "UTC"] + arguments, dependency: dependency, now: now)
        }
        #expect(await run(["--date", days[2].gregorian.description, "--status", "missed"]).status == 0)
        // When
        let result = await run(["--ramadan", "1447", "--status", "fasted"])
        // Then
        #expect(result.stdout == "Recorded 8 days of Ramadan 1447 as fasted (1 already recorded)\n", "\(result.stderr)")
        let stored = try FastStoreSQLite(database: test.database, log: .silent).entries(from: .first, through: .last)
        #expect(stored.count == 9 && stored[2].status == .missed)
        #expect(await run(["--ramadan", "1447", "--status", "voluntary"]).status == 64)
    }

    @Test func nextSuggestsTheFastOfTomorrowOnlyWhenAskedTo() async throws {
        // Given: the evening before 13 Rajab 1448, and before fajr on it
        let test = try TestDatabase()
        let white = try civil(1448, .rajab, 13)
        let evening = "\(white.adding(days: -1))T21:00:00+03:00"
        let night = "\(white)T03:00:00+03:00"
        let on = try dependency(test, [.fastSuggestions: "on"])
        // When
        let plain = await CLI.run(["next"] + makkah + ["--now", evening], dependency: on).stdout
        let beforeFajr = await CLI.run(["next"] + makkah + ["--now", night], dependency: on).stdout
        let json = try CLI.json(
            await CLI.run(["next"] + makkah + ["--now", evening, "--format", "json"], dependency: on).stdout)
        let off = await CLI.run(["next"] + makkah + ["--now", evening], dependency: try dependency(test)).stdout
        let offJSON = try CLI.json(
            await CLI.run(["next"] + makkah + ["--now", evening, "--format", "json"], dependency: try dependency(test))
                .stdout)
        // Then
        #expect(plain.contains("; Fast tomorrow? ") && plain.contains("White day 13 Rajab"), "\(plain)")
        #expect(plain.hasPrefix(off.trimmingCharacters(in: .newlines)), "\(plain) \(off)")
        #expect(beforeFajr.contains("; Fast today? ") && beforeFajr.contains("White day 13 Rajab"), "\(beforeFajr)")
        let suggestion = try #require(json["fastSuggestion"] as? [String: Any])
        #expect(suggestion["date"] as? String == white.description)
        #expect(suggestion["hijri"] as? String == "1448-07-13")
        let reasons = try #require(suggestion["reasons"] as? [[String: Any]])
        #expect(
            reasons.contains { $0["id"] as? String == "white-day" && $0["name"] as? String == "White day 13 Rajab" })
        #expect(!off.contains("Fast") && offJSON["fastSuggestion"] == nil)
        // A fast recorded on that day is not suggested again
        #expect(
            await CLI.run(
                ["fast", "record", "--tz", "Asia/Riyadh", "--date", white.description, "--status", "voluntary"],
                dependency: on, now: noon(white)
            ).status == 0)
        let recorded = try CLI.json(
            await CLI.run(["next"] + makkah + ["--now", evening, "--format", "json"], dependency: on).stdout)
        #expect((recorded["fastSuggestion"] as? [String: Any])?["date"] as? String != white.description)
    }

    @Test func timesMarksTheSuggestedDays() async throws {
        // Given: the nine days from 8 Dhu al-Hijjah 1447
        let test = try TestDatabase()
        let start = try civil(1447, .dhuAlHijjah, 8)
        let arguments = ["times"] + makkah + ["--date", start.description, "--days", "9"]
        let on = try dependency(test, [.fastSuggestions: "on"])
        // When
        let json = try CLI.json(await CLI.run(arguments + ["--format", "json"], dependency: on).stdout)
        let table = await CLI.run(arguments, dependency: on).stdout
        let csv = await CLI.run(arguments + ["--format", "csv"], dependency: on).stdout
        let off = await CLI.run(arguments, dependency: try dependency(test)).stdout
        // Then: Arafah is suggested, the Eid and the days of tashriq are not, the white days 14 and 15 are
        let days = try #require(json["days"] as? [[String: Any]])
        let ids = days.map { ($0["fastSuggestion"] as? [[String: Any]])?.compactMap { $0["id"] as? String } }
        #expect(ids[1]?.contains("arafah") == true)
        #expect(ids[2] == nil && ids[3] == nil && ids[4] == nil && ids[5] == nil, "\(ids)")
        #expect(ids[6]?.contains("white-day") == true && ids[7]?.contains("white-day") == true)
        #expect(days.allSatisfy { $0.keys.contains("fastSuggestion") })
        #expect(table.contains("Suggested voluntary fasts:") && table.contains("Arafah"), "\(table)")
        #expect(table.hasPrefix(off))
        #expect(csv.hasPrefix("date,hijri,") && csv.components(separatedBy: "\n")[0].hasSuffix(",notes,fastSuggestion"))
        #expect(!off.contains("Suggested"))
    }

    @Test func theConfigKeyIsCheckedAndExplained() async throws {
        let test = try TestDatabase()
        let result = await CLI.run(["config", "set", "fast-suggestions", "maybe"], dependency: try dependency(test))
        #expect(result.status == 64 && result.stderr.contains("fast-suggestions must be on or off"), "\(result.stderr)")
        #expect(await CLI.run(["config", "--help"]).stdout.contains("fast-suggestions"))
        #expect(await CLI.run(["fast", "stats", "--help"]).stdout.contains("travel, illness"))
    }

    // MARK: - An announced start that moves recorded fasts

    /// Ramadan 1447 on the Umm al-Qura calendar: 30 days from 2026-02-18, Shawwal from 2026-03-20.
    private func ramadan1447() throws -> [CivilDate] {
        let days = try Self.hijri.month(.ramadan, of: 1447, calendar: .ummAlQura, offset: 0).map(\.gregorian)
        try #require(days.count == 30)
        return days
    }

    @Test func anEarlierShawwalWarnsOfTheFastLeftOnEidAndStatsFlagsIt() async throws {
        // Given: every day of Ramadan 1447 recorded as fasted
        let test = try TestDatabase()
        let dependency = try dependency(test)
        let days = try ramadan1447()
        let now = noon(days[29].adding(days: 10))
        func run(_ arguments: [String]) async -> CLI.Result {
            await CLI.run(arguments + ["--tz", "UTC"], dependency: dependency, now: now)
        }
        #expect(await run(["fast", "record", "--ramadan", "1447", "--status", "fasted"]).status == 0)
        let eid = days[29]
        // When: 1 Shawwal is announced a day earlier, on the 30th
        let set = await CLI.run(["hijri", "set-start", "1447-10", eid.description], dependency: dependency, now: now)
        // Then: saved, with a warning naming the day, what it is now and what to do
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "1 Shawwal 1447 (1447-10) begins on \(eid).\n")
        #expect(set.stderr.hasPrefix("Warning: "), "\(set.stderr)")
        #expect(set.stderr.contains("\(eid) is now 1 Shawwal 1447 (Eid al-Fitr)"), "\(set.stderr)")
        #expect(set.stderr.contains("recorded as fasted"), "\(set.stderr)")
        #expect(set.stderr.contains("praykit fast remove --date \(eid)"), "\(set.stderr)")
        // fast list flags it
        let list = try #require(
            try JSONSerialization.jsonObject(
                with: Data(await run(["fast", "list", "--from", days[0].description, "--format", "json"]).stdout.utf8))
                as? [[String: Any]])
        #expect(list.count == 30)
        #expect((list.last?["problem"] as? String)?.contains("Eid al-Fitr") == true, "\(list.last ?? [:])")
        #expect(list.first?["problem"] is NSNull)
        let table = await run(["fast", "list", "--from", days[0].description])
        #expect(table.stdout.contains("Eid al-Fitr"), "\(table.stdout)")
        // fast stats: 29 days fasted, the 30th named as not counted, in the table and the JSON
        let stats = try CLI.json(await run(["fast", "stats", "--format", "json"]).stdout)
        let ramadans = try #require(stats["ramadans"] as? [[String: Any]])
        #expect(ramadans.first?["days"] as? Int == 29 && ramadans.first?["fasted"] as? Int == 29)
        let flagged = try #require(stats["notCounted"] as? [[String: Any]])
        #expect(flagged.map { $0["date"] as? String } == [eid.description])
        #expect(flagged.first?["status"] as? String == "fasted")
        let text = await run(["fast", "stats"]).stdout
        #expect(text.contains("Not counted: 1 day") && text.contains("\(eid) fasted"), "\(text)")
        #expect(text.contains("praykit fast remove --date \(eid)"), "\(text)")
    }

    @Test func aLaterRamadanFromAFileWarnsOfTheFastNowInShaban() async throws {
        // Given: the first day of Ramadan 1447 recorded as fasted
        let test = try TestDatabase()
        let dependency = try dependency(test)
        let days = try ramadan1447()
        let now = noon(days[29].adding(days: 10))
        let first = await CLI.run(
            ["fast", "record", "--tz", "UTC", "--date", days[0].description, "--status", "fasted"],
            dependency: dependency, now: now)
        #expect(first.status == 0, "\(first.stderr)")
        // When: a file announces Ramadan a day later
        let imported = await CLI.run(
            ["hijri", "import-starts", "-"], dependency: dependency, now: now,
            standardInput: Data("1447-09 \(days[1])\n".utf8))
        // Then
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("\(days[0]) is now 30 Sha'ban 1447"), "\(imported.stderr)")
        #expect(imported.stderr.contains("--status voluntary"), "\(imported.stderr)")
    }

    @Test func aStartThatArrivedThroughSyncIsFlaggedNotSilentlyUncounted() async throws {
        // Given: a fast recorded on the calendar's 30 Ramadan 1447, then a 1 Shawwal on that day saved
        // by another device (sync or an import sets the setting without a command of this one)
        let test = try TestDatabase()
        let days = try ramadan1447()
        let now = noon(days[29].adding(days: 10))
        let plain = try dependency(test)
        let recorded = await CLI.run(
            ["fast", "record", "--tz", "UTC", "--date", days[29].description, "--status", "fasted"],
            dependency: plain, now: now)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let moved = try dependency(test, [.hijriStarts: "1447-10=\(days[29])"])
        // When
        let stats = try CLI.json(
            await CLI.run(["fast", "stats", "--tz", "UTC", "--format", "json"], dependency: moved, now: now).stdout)
        // Then
        let flagged = try #require(stats["notCounted"] as? [[String: Any]])
        #expect(flagged.map { $0["date"] as? String } == [days[29].description])
        #expect((flagged.first?["problem"] as? String)?.contains("Eid al-Fitr") == true, "\(flagged)")
    }

    // MARK: - Totals of the rows shown

    @Test func statsOfOneYearTotalThatYearsRows() async throws {
        // Given: a day missed in Ramadan 1446 and two in 1447, one day made up (paying 1446's first)
        let test = try TestDatabase()
        let dependency = try dependency(test)
        let now = noon(try CivilDate(parsing: "2026-06-01"))
        func run(_ arguments: [String]) async -> CLI.Result {
            await CLI.run(["fast"] + arguments + ["--tz", "UTC"], dependency: dependency, now: now)
        }
        for (day, status) in [
            (try civil(1446, .ramadan, 3), "missed"), (try civil(1447, .ramadan, 3), "missed"),
            (try civil(1447, .ramadan, 4), "excused"), (try civil(1447, .shawwal, 10), "made-up"),
        ] {
            let result = await run(["record", "--date", day.description, "--status", status])
            #expect(result.status == 0, "\(result.stderr)")
        }
        // When
        let all = try CLI.json(await run(["stats", "--format", "json"]).stdout)
        let y1446 = try CLI.json(await run(["stats", "--year", "1446", "--format", "json"]).stdout)
        let y1447 = try CLI.json(await run(["stats", "--year", "1447", "--format", "json"]).stdout)
        let table1446 = await run(["stats", "--year", "1446"]).stdout
        let table1447 = await run(["stats", "--year", "1447"]).stdout
        // Then: every total is the sum of the rows shown
        #expect(all["owed"] as? Int == 2 && all["madeUp"] as? Int == 1)
        for stats in [all, y1446, y1447] {
            let rows = try #require(stats["ramadans"] as? [[String: Any]])
            #expect(stats["owed"] as? Int == rows.compactMap { $0["owed"] as? Int }.reduce(0, +), "\(stats)")
            #expect(stats["madeUp"] as? Int == rows.compactMap { $0["madeUp"] as? Int }.reduce(0, +), "\(stats)")
        }
        #expect(y1446["owed"] as? Int == 0 && y1446["madeUp"] as? Int == 1, "\(y1446)")
        #expect(y1447["owed"] as? Int == 2 && y1447["madeUp"] as? Int == 0, "\(y1447)")
        #expect(table1446.contains("Owed: 0 days"), "\(table1446)")
        #expect(table1447.contains("Owed: 2 days") && table1447.contains("Made up: 0 days"), "\(table1447)")
    }

    // MARK: - --ramadan within the calendar

    @Test func aRamadanBeforeTheTableOrAfterTodayIsRefused() async throws {
        let test = try TestDatabase()
        let dependency = try dependency(test)
        let now = noon(try CivilDate(parsing: "2026-06-01"))  // Dhu al-Hijjah 1447
        for (year, message) in [
            ("1", "from 1343"), ("1342", "from 1343"), ("1448", "Ramadan 1448 begins on 2027-02-08"),
            ("1460", "1447"),
        ] {
            let result = await CLI.run(
                ["fast", "record", "--tz", "UTC", "--ramadan", year, "--status", "fasted"], dependency: dependency,
                now: now)
            #expect(result.status == 64, "\(year): \(result.stdout)")
            #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains(message), "\(year): \(result.stderr)")
        }
        #expect(
            try FastStoreSQLite(database: test.database, log: .silent).entries(from: .first, through: .last).isEmpty)
        #expect(await CLI.run(["fast", "record", "--help"]).stdout.contains("1343"))
    }

    // MARK: - The same words as log list

    @Test func listTakesToAsLogListDoesAndKeepsThroughHidden() async throws {
        let test = try TestDatabase()
        let dependency = try dependency(test)
        let now = noon(try CivilDate(parsing: "2026-06-01"))
        let first = try civil(1447, .ramadan, 1)
        #expect(
            await CLI.run(
                ["fast", "record", "--tz", "UTC", "--date", first.description, "--status", "fasted"],
                dependency: dependency, now: now
            ).status == 0)
        for option in ["--to", "--through"] {
            let result = await CLI.run(
                [
                    "fast", "list", "--tz", "UTC", "--from", first.adding(days: -1).description, option,
                    first.description,
                ],
                dependency: dependency, now: now)
            #expect(result.status == 0 && result.stdout.contains("\(first)"), "\(option): \(result.stderr)")
        }
        let help = await CLI.run(["fast", "list", "--help"]).stdout
        #expect(help.contains("--to <day>") && !help.contains("--through"), "\(help)")
        #expect(await CLI.run(["fast", "--help"]).stdout.contains("--to 2027-03-09"))
    }
}
