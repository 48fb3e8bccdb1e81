import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// Values on the command line as people type them — negative numbers, instants without an offset,
/// `tomorrow` and `+2`, AlAdhan's method numbers, zones in any case, as aliases or as `Etc/GMT+3` —
/// and the usage errors when a value is wrong: what the option takes, its range, the closest word.
@Suite struct ArgumentValueTests {
    @Test func negativeNumbersAreValues() async throws {
        // Given
        let dependency = CLI.dependency()
        // When
        let longitude = await CLI.run(["config", "set", "longitude", "-0.1278"], dependency: dependency)
        let offset = await CLI.run(["config", "set", "hijri-offset", "-1"], dependency: dependency)
        let times = await CLI.run(
            ["times", "--lat", "-33.87", "--lon", "151.21", "--tz", "+10:00"], dependency: dependency)
        // Then
        #expect(longitude.status == 0 && longitude.stdout == "longitude = -0.1278\n", "\(longitude.stderr)")
        #expect(offset.status == 0 && offset.stdout == "hijri-offset = -1\n", "\(offset.stderr)")
        #expect(try dependency.preferenceStore.preferences()[.hijriOffset] == "-1")
        #expect(times.status == 0, "\(times.stderr)")
    }

    @Test func instantsAndDaysAsPeopleTypeThem() async {
        // An instant without an offset is the place's time
        let local = await CLI.run(["next", "--lat", "21.4225", "--lon", "39.8262", "--now", "2026-11-29T14:14"])
        let offset = await CLI.run(
            ["next", "--lat", "21.4225", "--lon", "39.8262", "--now", "2026-11-29T14:14:00+03:00"])
        #expect(local.status == 0 && local.stdout == offset.stdout, "\(local.stderr)")
        // today, tomorrow, +N
        let tomorrow = await CLI.run(["times", "--lat", "21.4225", "--lon", "39.8262", "--date", "tomorrow"])
        #expect(tomorrow.stdout.contains("2026-11-30 "), "\(tomorrow.stderr)")
        let plusTwo = await CLI.run(["hijri", "--date", "+2"])
        #expect(plusTwo.stdout.contains("2026-12-01"), "\(plusTwo.stderr)")
    }

    @Test(arguments: [
        ("1500-06-01T23:00:00Z", "1500-06-02T02:06:52+03:06:52"),
        ("1500-06-01T23:00:00.000+01:00", "1500-06-02T01:06:52+03:06:52"),
        ("1000-01-01T12:00", "1000-01-01T12:00:00+03:06:52"),
        ("2026-11-29T14:14:00+03:00", "2026-11-29T14:14:00+03:00"),
    ])
    func instantsBefore1582AreOnTheCalendarDatesAreOn(now: String, shown: String) async throws {
        // Given: an instant before the Gregorian reform, which Foundation's parsers read as Julian
        // (1500-06-01 ten days late); CivilDate and every output count the proleptic Gregorian calendar
        let result = await CLI.run(
            ["next", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--now", now, "--format", "json"])
        // Then: the instant given, on Makkah's local mean time of then
        #expect(try CLI.json(result.stdout)["now"] as? String == shown, "\(result.stderr)")
    }

    @Test func aLocalTimeTheClocksSkipIsRefusedAndARepeatedOneIsTheFirst() async throws {
        let london = ["next", "--lat", "51.5", "--lon", "-0.12", "--tz", "Europe/London", "--format", "json"]
        let skipped = await CLI.run(london + ["--now", "2027-03-28T01:30"])
        #expect(skipped.status == 64)
        #expect(skipped.stderr.hasPrefix("Error: 2027-03-28T01:30 does not exist in Europe/London: its clocks skip it"))
        let repeated = await CLI.run(london + ["--now", "2027-10-31T01:30"])
        #expect(try CLI.json(repeated.stdout)["now"] as? String == "2027-10-31T01:30:00+01:00", "\(repeated.stderr)")
    }

    @Test func alAdhanMethodNumbersAndZoneSpellingsAreAccepted() async throws {
        for (zone, offset) in [("UTC", "+00:00"), ("utc", "+00:00"), ("+03:00", "+03:00"), ("-0930", "-09:30")] {
            let result = await CLI.run(
                ["times", "--lat", "1", "--lon", "1", "--tz", zone, "--method", "3", "--format", "json"])
            #expect(result.status == 0, "\(zone): \(result.stderr)")
            #expect(
                (try CLI.json(result.stdout)["parameters"] as? [String: Any])?["method"] as? String
                    == "muslim-world-league")
            let day = try #require((try CLI.json(result.stdout)["days"] as? [[String: Any]])?.first)
            #expect((day["fajr"] as? String)?.hasSuffix(offset) == true, "\(zone)")
        }
    }

    @Test func tzAliasesWorkWhereverAZoneIsAsked() async throws {
        // times, hijri and log all read --tz by the one parser
        let times = await CLI.run(["times", "--lat", "22.57", "--lon", "88.36", "--tz", "asia/calcutta"])
        #expect(times.stdout.contains("Time zone: Asia/Calcutta (UTC+05:30, from --tz)"), "\(times.stderr)")
        let hijri = await CLI.run(["hijri", "--tz", "US/Eastern"])
        #expect(hijri.status == 0, "\(hijri.stderr)")
        let saved = await CLI.run(["config", "set", "tz", "etc/gmt-3"])
        #expect(saved.stdout == "tz = Etc/GMT-3\n", "\(saved.stderr)")
        let unknown = await CLI.run(["times", "--lat", "1", "--lon", "2", "--tz", "Asia/Kolkatta"])
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean 'Asia/Kolkata'"), "\(unknown.stderr)")
    }

    @Test func etcGMTZonesCountTheOtherWayAndSaySo() async {
        let result = await CLI.run(["times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Etc/GMT+3"])
        #expect(result.stderr.contains("Note: Etc/GMT+3 is UTC−3"), "\(result.stderr)")
        #expect(result.stdout.contains("(UTC-03:00, from --tz)"))
    }

    @Test func hexIsNotALatitude() async {
        let result = await CLI.run(["times", "--lat", "0x10", "--lon", "0"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --lat must be a number, got '0x10'"))
    }

    @Test(arguments: [
        (["times", "--lat", "1", "--lon", "1", "--date", "0900-01-01"], "the years 1000–3000; 900 is outside them"),
        (["times", "--lat", "1", "--lon", "1", "--date", "3000-12-31", "--days", "2"], "the years 1000–3000"),
        (["hijri", "convert", "9700-01-01", "--from", "hijri"], "Hijri year 9700"),
    ])
    func yearsOutOfRangeAreUsageErrors(arguments: [String], message: String) async {
        let result = await CLI.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test(arguments: [
        ("12026-01-01", "Error: --date: year must be between 1 and 9999, got 12026"),
        ("+12026-01-01", "Error: --date: year must be between 1 and 9999, got 12026"),
        ("-0001-01-01", "Error: --date: year must be between 1 and 9999, got -1"),
        ("+400000", "Error: --date +N and -N go at most 3660 days from today, got '+400000'"),
        ("-3661", "Error: --date +N and -N go at most 3660 days from today, got '-3661'"),
        ("+99999999999999999999999", "Error: --date +N and -N go at most 3660 days from today, got '+9999"),
        ("2026-1-1", "Error: --date must look like YYYY-MM-DD, got '2026-1-1'"),
        ("+", "Error: --date must look like YYYY-MM-DD, got '+'"),
    ])
    func aDateOutOfRangeSaysItsRangeNotItsShape(date: String, message: String) async {
        // When: the same parser for every command's --date
        for command in [["times", "--lat", "1", "--lon", "1"], ["hijri"], ["log", "delete", "--prayer", "fajr"]] {
            let result = await CLI.run(command + ["--date=" + date])
            // Then
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix(message), "\(command): \(result.stderr)")
        }
    }

    @Test func errorsListTheCommandsOwnValues() async {
        let times = await CLI.run(["times", "--lat", "1", "--lon", "2", "--format", "waybar"])
        #expect(times.stderr.hasPrefix("Error: --format must be one of table, json, csv, got 'waybar'"))
        let range = await CLI.run(["times", "--lat", "1", "--lon", "2", "--date", "3000-12-31", "--days", "2"])
        #expect(range.stderr.contains("the days asked run to 3001-01-01"), "\(range.stderr)")
    }

    @Test(arguments: [
        (["tims"], "did you mean 'times'?"),
        (["times", "--latt", "1"], "did you mean '--lat'?"),
        (["times", "--lat", "1", "--lon", "1", "--method", "isn"], "did you mean 'isna'?"),
        (["times", "--lat", "1", "--lon", "1", "--tz", "Europe/Lodnon"], "did you mean 'Europe/London'?"),
        (["config", "sett", "method", "isna"], "did you mean 'set'?"),
        (["times", "--lat", "1", "--lon", "1", "--format", "jsn"], "did you mean 'json'?"),
    ])
    func mistakesSuggestTheClosest(arguments: [String], suggestion: String) async {
        let result = await CLI.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(suggestion), "\(result.stderr)")
    }
}
