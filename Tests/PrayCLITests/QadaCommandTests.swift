import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayServices

/// `praykit qada` end to end: in-process on a real temporary database (the clock pinned at 2026-11-29
/// 12:00 UTC), and once on the built binary.
@Suite struct QadaCommandTests {
    /// A temporary database with the log and the qada store in it, and a way to run commands on it.
    final class Sandbox: Sendable {
        let test: TestDatabase
        let dependency: PrayDependencyMock

        init() throws {
            test = try TestDatabase()
            var dependency = CLI.dependency()
            dependency.prayerLogStore = test.prayerLog
            dependency.qadaStore = QadaStoreSQLite(database: test.database, log: .silent)
            self.dependency = dependency
        }

        func run(_ arguments: [String]) async -> CLI.Result {
            await CLI.run(["qada"] + arguments, dependency: dependency)
        }

        /// Runs a command that must succeed, returning its output.
        func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async -> String {
            let result = await run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            return result.stdout
        }

        /// Runs a command that must fail with `status`, returning its standard error.
        func fails(
            _ arguments: [String], status: Int32 = 64, sourceLocation: SourceLocation = #_sourceLocation
        ) async -> String {
            let result = await run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stdout)", sourceLocation: sourceLocation)
            #expect(result.stderr.hasPrefix("Error: "), "\(arguments)", sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, "\(arguments)", sourceLocation: sourceLocation)
            return result.stderr
        }

        /// The prayers of `qada show --format json`, by name.
        func accounts() async throws -> [String: [String: Any]] {
            let json = try CLI.json(await ok(["show", "--format", "json"]))
            let prayers = json["prayers"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: prayers.map { ($0["prayer"] as? String ?? "", $0) })
        }

        func log(_ prayer: Prayer, _ status: PrayerStatus, _ date: String) throws {
            try test.prayerLog.record(status, for: prayer, on: try CivilDate(parsing: date))
        }
    }

    @Test func estimateRecordHistoryAndRemoveKeepTheBalance() async throws {
        // Given: the log starts on 2026-11-19 with a missed fajr
        let sandbox = try Sandbox()
        try sandbox.log(.fajr, .missed, "2026-11-20")
        try sandbox.log(.fajr, .missed, "2026-11-19")
        try sandbox.log(.dhuhr, .prayed, "2026-11-20")
        // A dry run counts up to the day before the first log entry, and saves nothing
        let dry = await sandbox.ok(["estimate", "--from", "2026-11-01", "--dry-run"])
        #expect(dry.contains("Counted 2026-11-01 through 2026-11-18: 18 days = 18 of each prayer."), "\(dry)")
        #expect(dry.contains("Dry run: nothing was saved."))
        #expect(try sandbox.dependency.qadaStore.entries().isEmpty)
        // When: an estimate through 2026-11-19, so that the log's 2026-11-19 is part of it
        let estimate = await sandbox.ok(["estimate", "--from", "2026-11-01", "--to", "2026-11-19"])
        #expect(estimate.contains("fajr: 19 owed before 2026-11-20"))
        // Then: fajr owes its opening and the missed one since
        var accounts = try await sandbox.accounts()
        #expect(accounts["fajr"]?["balance"] as? Int == 20 && accounts["dhuhr"]?["balance"] as? Int == 19)
        let opening = try #require(accounts["fajr"]?["opening"] as? [String: Any])
        #expect(opening["count"] as? Int == 19 && opening["date"] as? String == "2026-11-20")
        #expect(opening["source"] as? String == "estimate" && accounts["fajr"]?["missedSince"] as? Int == 1)
        // Make-ups
        let two = await sandbox.ok(["record", "fajr", "2", "--note", "after fajr"])
        #expect(two == "fajr: made up 2 on 2026-11-29; 18 owed\n")
        let all = await sandbox.ok(["record", "all", "--date", "yesterday"])
        #expect(all.contains("isha: made up 1 on 2026-11-28; 18 owed") && all.split(separator: "\n").count == 5)
        // More than owed, before the opening, or in the future: refused, naming why
        #expect(await sandbox.fails(["record", "dhuhr", "100"]).contains("cannot make up 100, only 18 owed"))
        #expect(await sandbox.fails(["record", "fajr", "--date", "2026-11-10"]).contains("before its opening"))
        #expect(await sandbox.fails(["record", "fajr", "--date", "tomorrow"]).contains("in the future"))
        #expect(await sandbox.fails(["record", "fajr", "0"]).contains("<count> must be between 1 and 1000"))
        #expect(await sandbox.fails(["record", "sunrise"]).contains("sunrise"))
        // History lists every entry with its id
        let history = try CLI.json(await sandbox.ok(["history", "--format", "json"]))
        let entries = try #require(history["entries"] as? [[String: Any]])
        #expect(entries.count == 11)
        let fajrTwo = try #require(entries.first { $0["count"] as? Int == 2 })
        #expect(fajrTwo["kind"] as? String == "made-up" && fajrTwo["note"] as? String == "after fajr")
        #expect(
            fajrTwo["recordedAt"] as? String == "2026-11-29T12:00:00.000Z" && fajrTwo["date"] as? String == "2026-11-29"
        )
        #expect(entries.allSatisfy { (try? QadaEntry.validateID($0["id"] as? String ?? "")) != nil })
        #expect(entries.first { $0["kind"] as? String == "opening" }?["note"] is NSNull)
        let table = await sandbox.ok(["history"])
        #expect(table.hasPrefix("ID") && table.contains("opening/isha") && table.contains("after fajr"))
        // When: the make-up of 2 is removed
        let id = try #require(fajrTwo["id"] as? String)
        #expect(await sandbox.ok(["remove", id]) == "Removed 2 fajr made up on 2026-11-29.\n")
        // Then
        accounts = try await sandbox.accounts()
        #expect(accounts["fajr"]?["balance"] as? Int == 19 && accounts["fajr"]?["madeUpSince"] as? Int == 1)
        #expect(await sandbox.fails(["remove", id], status: 1).contains("no qada entry has the id"))
        #expect(await sandbox.fails(["remove", "made-up/XYZ"]).contains("not a qada id"))
    }

    @Test func showGivesThePaceTheZeroDateAndTheTotal() async throws {
        // Given: 30 of each owed from 2026-11-01; isha made up 30 in the window, fajr missed once in it
        let sandbox = try Sandbox()
        _ = await sandbox.ok(["set", "all", "30", "--date", "2026-11-01"])
        _ = await sandbox.ok(["record", "isha", "30", "--date", "2026-11-15"])
        try sandbox.log(.fajr, .missed, "2026-11-20")
        // When
        let json = try CLI.json(await sandbox.ok(["show", "--format", "json"]))
        // Then
        #expect(json["today"] as? String == "2026-11-29" && json["timeZone"] as? String == "UTC")
        #expect(json["paceWindowDays"] as? Int == 30)
        let prayers = try #require(json["prayers"] as? [[String: Any]])
        #expect(prayers.map { $0["prayer"] as? String } == ["fajr", "dhuhr", "asr", "maghrib", "isha"])
        let isha = prayers[4]
        let pace = try #require(isha["pace"] as? [String: Any])
        #expect(isha["balance"] as? Int == 0 && isha["zeroDate"] as? String == "2026-11-29")
        #expect(pace["perDay"] as? Double == 1 && pace["perWeek"] as? Double == 7 && pace["madeUp"] as? Int == 30)
        let fajr = prayers[0]
        #expect(fajr["balance"] as? Int == 31 && fajr["zeroDate"] is NSNull)
        #expect((fajr["pace"] as? [String: Any])?["perDay"] as? Double == -0.033)
        let total = try #require(json["total"] as? [String: Any])
        #expect(total["balance"] as? Int == 121 && total["zeroDate"] is NSNull && total["prayer"] == nil)
        #expect((total["opening"] as? [String: Any])?["count"] as? Int == 150)
        // The table
        let table = await sandbox.ok([])
        #expect(table == (await sandbox.ok(["show"])))
        #expect(table.contains("Isha     0     30 before 2026-11-01 (set)"), "\(table)")
        #expect(table.contains("1.00") && table.contains("7.0") && table.contains("nothing owed"))
        #expect(table.contains("not at this pace") && table.contains("Total"))
    }

    @Test func setReplacesAnOpeningAndRefusesBadValues() async throws {
        let sandbox = try Sandbox()
        #expect(
            await sandbox.ok(["set", "fajr", "300"])
                == "fajr: 300 owed before 2026-11-29 (the log counts from that day)\n")
        _ = await sandbox.ok(["set", "fajr,isha", "5", "--date", "2026-11-01"])
        let entries = try sandbox.dependency.qadaStore.entries()
        #expect(entries.map(\.id) == ["opening/fajr", "opening/isha"] && entries.allSatisfy { $0.count == 5 })
        #expect(entries.allSatisfy { $0.source == "set" && $0.date.description == "2026-11-01" })
        #expect(await sandbox.fails(["set", "fajr", "100001"]).contains("between 0 and 100000"))
        #expect(await sandbox.fails(["set", "fajr", "many"]).contains("<count> must be a whole number"))
        #expect(await sandbox.fails(["set", "sunrise", "3"]).contains("sunrise"))
        #expect(await sandbox.fails(["set", "fajr", "3", "--date", "+2"]).contains("in the future"))
        #expect(await sandbox.fails(["set", "fajr"]).contains("Missing expected argument '<count>'"))
        #expect(try sandbox.dependency.qadaStore.entries() == entries)
        // An opening moved after make-ups says that they are now part of it
        _ = await sandbox.ok(["record", "isha", "2", "--date", "2026-11-02"])
        let moved = await sandbox.run(["set", "isha", "5", "--date", "2026-11-10"])
        #expect(moved.status == 0 && moved.stderr.contains("Note: 2 isha made up before 2026-11-10 are now part"))
        #expect(try await sandbox.accounts()["isha"]?["balance"] as? Int == 5)
    }

    @Test func estimateRefusesBadRangesAndSavesNothing() async throws {
        let sandbox = try Sandbox()
        let cases: [([String], String)] = [
            (["--from", "2026-11-10", "--to", "2026-11-01"], "--from 2026-11-10 is after --to 2026-11-01"),
            (["--from", "2026-11-29"], "is after --to 2026-11-28 (yesterday)"),
            (["--from", "2026-12-01"], "--from 2026-12-01 is in the future"),
            (["--from", "2026-01-01", "--to", "2026-12-01"], "--to 2026-12-01 is in the future"),
            (
                ["--from", "2026-01-01", "--except", "2026-02-01..2026-02-10", "--except", "2026-02-05..2026-02-20"],
                "overlap"
            ),
            (["--from", "2026-01-01", "--except", "2025-12-01..2026-01-10"], "not all within 2026-01-01..2026-11-28"),
            (["--from", "2026-01-01", "--except", "2026-02-10..2026-02-01"], "starts after it ends"),
            (["--from", "2026-01-01", "--except", "2026-02-01..soon"], "--except must look like FROM..TO"),
            (["--from", "2026-01-01", "--excused-days-per-month", "16"], "between 0 and 15"),
            (["--to", "2026-01-01"], "Missing expected argument '--from <day>'"),
        ]
        for (arguments, message) in cases {
            let error = await sandbox.fails(["estimate"] + arguments)
            #expect(error.contains(message), "\(arguments): \(error)")
        }
        #expect(try sandbox.dependency.qadaStore.entries().isEmpty)
        // A good one, with a range excepted and excused days
        let output = await sandbox.ok([
            "estimate", "--from", "2025-01-01", "--to", "2025-12-31", "--except", "2025-06-01..2025-06-30",
            "--excused-days-per-month", "6", "--tz", "Pacific/Kiritimati", "--dry-run",
        ])
        #expect(output.contains("365 days − 30 excepted − 66 excused (6 a month) = 269 of each prayer."), "\(output)")
    }

    @Test func moreMadeUpThanOwedShowsAsZeroWithANoteAndAFailingStoreIsAnError() async throws {
        // Given: two devices each made up the one isha owed (merged by sync)
        let day = try CivilDate(parsing: "2026-11-20")
        let entries = try [
            QadaEntry(
                id: QadaEntry.openingID(.isha), kind: .opening, prayer: .isha, count: 1, date: day, source: "set",
                recordedAt: CLI.now),
            QadaEntry(
                id: QadaEntry.newMadeUpID(), kind: .madeUp, prayer: .isha, count: 1, date: day, source: nil,
                recordedAt: CLI.now),
            QadaEntry(
                id: QadaEntry.newMadeUpID(), kind: .madeUp, prayer: .isha, count: 1, date: day, source: nil,
                recordedAt: CLI.now),
        ]
        var dependency = CLI.dependency()
        dependency.qadaStore = QadaStoreFake(entries)
        // When
        let table = await CLI.run(["qada"], dependency: dependency)
        let json = try CLI.json(await CLI.run(["qada", "--format", "json"], dependency: dependency).stdout)
        // Then
        #expect(table.stdout.contains("Isha: 1 more made up than owed"), "\(table.stdout)")
        let isha = (json["prayers"] as? [[String: Any]])?.last
        #expect(isha?["balance"] as? Int == 0 && isha?["moreMadeUpThanOwed"] as? Int == 1)
        // A store that fails is a runtime error
        let failing = QadaStoreMock()
        failing.onEntries { throw StorageError(kind: .corrupt, message: "database disk image is malformed") }
        dependency.qadaStore = failing
        let failed = await CLI.run(["qada", "record", "fajr"], dependency: dependency)
        #expect(failed.status == 1 && failed.stderr.hasPrefix("Error: ") && failing.entriesCalls.count == 1)
    }

    @Test func helpExplainsTheRulesWithExamples() async {
        let help = await CLI.run(["qada", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("A log entry dated before the opening's date"))
        #expect(help.stdout.contains("praykit qada estimate --from"))
        for verb in ["show", "set", "estimate", "record", "history", "remove"] {
            let verbHelp = await CLI.run(["qada", verb, "--help"])
            #expect(verbHelp.status == 0 && verbHelp.stdout.contains("EXAMPLES"), "\(verb)")
        }
    }

    @Test(.tags(.process, .binary)) func theBinaryKeepsQadaInItsDatabase() async throws {
        // Given: a database of its own; every date given, so that nothing depends on today
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-qada-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["PRAYKIT_DATABASE": folder.appendingPathComponent("praykit.sqlite").path, "TZ": "UTC"]
        func run(_ arguments: [String]) async throws -> PraykitProcess.Result {
            let result = try await PraykitProcess.run(["qada"] + arguments, environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result
        }
        // When
        _ = try await run(["set", "maghrib", "3", "--date", "2026-11-01"])
        _ = try await run(["record", "maghrib", "2", "--date", "2026-11-02"])
        // Then
        let history = try CLI.json(try await run(["history", "--format", "json"]).stdout)
        #expect((history["entries"] as? [[String: Any]])?.count == 2)
        let show = try CLI.json(try await run(["show", "--format", "json"]).stdout)
        let maghrib = (show["prayers"] as? [[String: Any]])?.first { $0["prayer"] as? String == "maghrib" }
        #expect(maghrib?["balance"] as? Int == 1 && maghrib?["madeUpSince"] as? Int == 2)
        let refused = try await PraykitProcess.run(["qada", "record", "maghrib", "2"], environment: environment)
        #expect(refused.status == 64 && refused.stderr.contains("only 1 owed"), "\(refused.stderr)")
    }
}
