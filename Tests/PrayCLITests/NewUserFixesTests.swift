import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// What a new user hit in places, next, calendar, config and hijri (issue 20): each case failed before
/// its fix.
@Suite struct NewUserFixesTests {
    let tromso = ["--lat", "69.6492", "--lon", "18.9553", "--tz", "Europe/Oslo"]

    // MARK: - config

    @Test func movingTheSavedPlaceClearsItsNameAndFindsItsZoneAgain() async throws {
        // Given: Cairo saved
        let dependency = CLI.dependency()
        #expect(await CLI.run(["config", "set", "city", "Cairo"], dependency: dependency).status == 0)
        // When: the longitude moves the place into Algeria
        let moved = await CLI.run(["config", "set", "longitude", "2.5"], dependency: dependency)
        // Then: the old name goes, the zone is the one at the new point, and both are said
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.contains("place-name removed (it named the old place: Cairo, EG)"), "\(moved.stdout)")
        #expect(moved.stdout.contains("tz = Africa/Algiers"), "\(moved.stdout)")
        let saved = try dependency.preferences().preferences()
        #expect(saved[.placeName] == nil && saved[.timeZone] == "Africa/Algiers")
        // The same value again changes nothing else
        let same = await CLI.run(["config", "set", "longitude", "2.5"], dependency: dependency)
        #expect(same.stdout == "longitude = 2.5\n")
    }

    @Test func cityIsAKeyOfGetAndUnsetToo() async throws {
        let dependency = CLI.dependency()
        _ = await CLI.run(["config", "set", "city", "Makkah"], dependency: dependency)
        let got = await CLI.run(["config", "get", "city"], dependency: dependency)
        #expect(got.status == 0 && got.stdout.contains("place-name = Makkah, SA"), "\(got.stderr)")
        let unset = await CLI.run(["config", "unset", "city"], dependency: dependency)
        #expect(unset.stdout.contains("Removed latitude") && unset.stdout.contains("Removed tz"), "\(unset.stdout)")
        #expect(try dependency.preferences().preferences().isEmpty)
    }

    @Test func configErrorsNameTheKeyAndSuggestAValue() async {
        let method = await CLI.run(["config", "set", "method", "isn"])
        #expect(method.status == 64 && method.stderr.contains("did you mean 'isna'?"), "\(method.stderr)")
        let latitude = await CLI.run(["config", "set", "latitude", "95"])
        #expect(latitude.stderr.hasPrefix("Error: latitude must be between -90 and 90"), "\(latitude.stderr)")
        let help = await CLI.run(["config", "set", "--help"])
        #expect(help.stdout.contains("KEYS:") && help.stdout.contains("hijri-offset"))
    }

    // MARK: - hijri, calendar

    @Test func aGregorianDateIsNotReadAsHijri() async {
        let result = await CLI.run(["hijri", "convert", "2027-02-08"])
        #expect(result.status == 0 && result.stdout.contains("1448-09-01"), "\(result.stdout)")
        #expect(!result.stdout.contains("2588"))
    }

    @Test func aCalendarKeepsItsUIDsWhenTheMethodChanges() async {
        let place = ["calendar", "--lat", "21.4225", "--lon", "39.8262", "--date", "2026-11-29", "--days", "1"]
        let first = await CLI.run(place + ["--method", "umm-al-qura"]).stdout
        let second = await CLI.run(place + ["--method", "mwl"]).stdout
        func uids(_ text: String) -> [Substring] { text.split(separator: "\r\n").filter { $0.hasPrefix("UID:") } }
        #expect(!uids(first).isEmpty && uids(first) == uids(second))
        #expect(first != second)
    }

    // MARK: - polar days

    @Test func farNorthMissingTimesAreResolvedByDefaultOrExplained() async {
        // By default from 65°: times from the nearest latitude, marked
        let resolved = await CLI.run(["times"] + tromso + ["--date", "2026-12-15"])
        #expect(resolved.status == 0 && !resolved.stdout.contains(" --  "), "\(resolved.stdout)")
        #expect(resolved.stdout.contains("~ taken from the nearest latitude or day"))
        // Unresolved on request: what is missing, and what to do
        let unresolved = await CLI.run(
            ["times"] + tromso + ["--date", "2026-12-15", "--polar-resolution", "unresolved"])
        #expect(unresolved.stdout.contains("Note: Sunrise, Asr, Sunset, Maghrib"), "\(unresolved.stdout)")
        #expect(unresolved.stdout.contains("--polar-resolution nearest-latitude or nearest-day"))
        let calendar = await CLI.run(
            ["calendar"] + tromso + ["--date", "2026-12-15", "--days", "3", "--polar-resolution", "unresolved"])
        #expect(calendar.stderr.contains("Asr and Maghrib are missing on 3 of 3 days"), "\(calendar.stderr)")
        let notify = await CLI.run(
            ["notify", "--dry-run", "--from", "2026-12-15T00:00:00+01:00", "--polar-resolution", "unresolved"] + tromso)
        #expect(notify.stderr.contains("Asr and Maghrib are missing"), "\(notify.stderr)")
    }

    @Test func inTheMidnightSunNoonIsNotYesterdaysAsr() async {
        let result = await CLI.run(
            ["next"] + tromso + ["--polar-resolution", "unresolved", "--now", "2027-06-20T12:00:00+02:00"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Dhuhr at "), "\(result.stdout)")
        #expect(!result.stdout.contains("now Asr"))
        #expect(result.stdout.contains("no prayer's time now: no Fajr, Sunrise, Maghrib, Isha here"))
    }

    // MARK: - next

    @Test func nextCrossesTheDaySamoaSkipped() async {
        // After the last isha before 2011-12-30, which Samoa's clocks skipped
        let result = await CLI.run(
            [
                "next", "--lat", "-13.83", "--lon", "-171.76", "--tz", "Pacific/Apia", "--now",
                "2011-12-29T22:00:00-10:00",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Fajr at 05:42 in 7:42; now Isha since"), "\(result.stdout)")
    }

    @Test func afterSunriseIsNotAPrayersTime() async {
        let result = await CLI.run(
            ["next", "--lat", "21.4225", "--lon", "39.8262", "--now", "2026-11-29T08:00:00+03:00"])
        #expect(result.stdout.contains("now after sunrise (duha) since"), "\(result.stdout)")
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

    @Test func logListShowsWhatWasRecordedForTomorrow() async {
        let dependency = CLI.dependency()
        let recorded = await CLI.run(
            ["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", "tomorrow"], dependency: dependency)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let listed = await CLI.run(["log", "list"], dependency: dependency)
        #expect(listed.stdout.contains("2026-11-30"), "\(listed.stdout)")
    }

    // MARK: - zones, formats, numbers

    @Test func etcGMTZonesCountTheOtherWayAndSaySo() async {
        let result = await CLI.run(["times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Etc/GMT+3"])
        #expect(result.stderr.contains("Note: Etc/GMT+3 is UTC−3"), "\(result.stderr)")
        #expect(result.stdout.contains("(UTC-03:00, from --tz)"))
    }

    @Test func coordinatesPrintWithoutFloatNoise() async throws {
        let json = try CLI.json(await CLI.run(["places", "search", "Beirut", "--format", "json"]).stdout)
        let place = try #require((json["places"] as? [[String: Any]])?.first)
        #expect(place["latitude"] as? Double == 33.8933)
        let header = await CLI.run(["times", "--city", "Beirut"]).stdout
        #expect(header.contains("33.8933, 35.5016"), "\(header)")
    }

    @Test func errorsListTheCommandsOwnValues() async {
        let times = await CLI.run(["times", "--lat", "1", "--lon", "2", "--format", "waybar"])
        #expect(times.stderr.hasPrefix("Error: --format must be one of table, json, csv, got 'waybar'"))
        let range = await CLI.run(["times", "--lat", "1", "--lon", "2", "--date", "3000-12-31", "--days", "2"])
        #expect(range.stderr.contains("the days asked run to 3001-01-01"), "\(range.stderr)")
    }

    @Test func aClosedStandardOutputIsSaid() async throws {
        let result = try await Shell.run(
            "/bin/sh", ["-c", "'\(PraykitProcess.executable.path)' times --lat 21.4225 --lon 39.8262 >&-"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("standard output is closed"), "\(result.stderr)")
    }

    // MARK: - completions and the manual

    @Test func completionsOfferKeysAndShellsAndHelpOnce() async throws {
        let script = await CLI.run(["completions", "bash"]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-completion-\(UUID()).bash")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let probe = """
            source '\(file.path)'
            COMP_WORDS=(praykit config set hij); COMP_CWORD=3; _praykit; echo "keys: ${COMPREPLY[*]}"
            COMP_WORDS=(praykit completions z); COMP_CWORD=2; _praykit; echo "shells: ${COMPREPLY[*]}"
            COMP_WORDS=(praykit hel); COMP_CWORD=1; _praykit; echo "help: ${COMPREPLY[*]}"
            """
        let result = try await Shell.run("/bin/bash", ["-c", probe])
        #expect(result.stdout.contains("keys: hijri-calendar hijri-offset"), "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("shells: zsh"))
        #expect(result.stdout.contains("help: help\n"))
        #expect(
            await CLI.run(["completions", "--help"]).stdout.contains("USAGE: praykit completions <shell> | --zones"))
    }

    @Test func theManualRendersInTheCLocale() async throws {
        let page = await CLI.run(["man"]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-\(UUID()).1")
        try page.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Shell.run(
            "/usr/bin/man", ["-l", file.path], environment: ["LANG": "C", "LC_ALL": "C", "MANWIDTH": "200"])
        #expect(result.stdout.contains("(-90...90 degrees)"), "\(result.stderr)")
    }
}
