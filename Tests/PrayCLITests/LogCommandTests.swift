import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit log` in-process: all five recorded at once, the future refused, entries deleted, and a day
/// recorded as `tomorrow` listed. (On the real binary and database: StorageCommandTests.)
@Suite struct LogCommandTests {
    @Test func logRecordsAllFiveRefusesTheFutureAndDeletes() async throws {
        // Given
        let log = PrayerLogStoreFake()
        let dependency = CLI.dependency(log: log)
        // When
        let all = await CLI.run(
            ["log", "record", "--prayer", "all", "--status", "prayed", "--date", "2026-11-28"], dependency: dependency)
        let future = await CLI.run(
            ["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", "2026-12-01"], dependency: dependency)
        let tomorrow = await CLI.run(
            ["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", "2026-11-30"], dependency: dependency)
        let deleted = await CLI.run(
            ["log", "delete", "--prayer", "isha,fajr", "--date", "2026-11-28"], dependency: dependency)
        // Then
        #expect(all.status == 0 && all.stdout.split(separator: "\n").count == 5, "\(all.stderr)")
        #expect(future.status == 64 && future.stderr.contains("is in the future"))
        #expect(tomorrow.status == 0, "\(tomorrow.stderr)")
        #expect(deleted.stdout == "Deleted 2026-11-28 fajr prayed\nDeleted 2026-11-28 isha prayed\n")
        #expect(log.allEntries.map(\.prayer) == [.dhuhr, .asr, .maghrib, .fajr])
    }

    @Test func logListShowsWhatWasRecordedForTomorrow() async {
        let dependency = CLI.dependency()
        let recorded = await CLI.run(
            ["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", "tomorrow"], dependency: dependency)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let listed = await CLI.run(["log", "list"], dependency: dependency)
        #expect(listed.stdout.contains("2026-11-30"), "\(listed.stdout)")
    }
}
