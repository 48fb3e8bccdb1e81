import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// Far north, where the sun does not give every time: from 65° the missing times are taken from the
/// nearest latitude by default and marked, or on request left out and explained, in `times`,
/// `calendar` and `notify`; and in the midnight sun `next` does not call noon yesterday's Asr.
@Suite struct PolarResolutionTests {
    let tromso = ["--lat", "69.6492", "--lon", "18.9553", "--tz", "Europe/Oslo"]

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

    @Test func aBorrowedTimeHeldBackIsMarkedBoth() async {
        // At the solstice the borrowed Asr falls in dhuhr's minute: held back to it, and both marks shown
        // (the legend explains each).
        let result = await CLI.run(["times"] + tromso + ["--date", "2026-12-21"])
        #expect(result.status == 0, "\(result.stderr)")
        let row = result.stdout.split(separator: "\n").first { $0.hasPrefix("2026-12-21") }.map(String.init) ?? ""
        let cells = row.split(separator: " ", omittingEmptySubsequences: true)
        #expect(cells.count > 6 && cells[6].hasSuffix("~*"), "\(row)")
        #expect(result.stdout.contains("\n* set by a rule") && result.stdout.contains("\n~ taken from"))
    }

    @Test func inTheMidnightSunNoonIsNotYesterdaysAsr() async {
        let result = await CLI.run(
            ["next"] + tromso + ["--polar-resolution", "unresolved", "--now", "2027-06-20T12:00:00+02:00"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Dhuhr at "), "\(result.stdout)")
        #expect(!result.stdout.contains("now Asr"))
        #expect(result.stdout.contains("no prayer's time now: no Fajr, Sunrise, Maghrib, Isha here"))
    }
}
