import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit calendar` in-process: strict RFC 5545 (read by ``ICalendar``), UIDs that stay the same
/// when the method changes, and its options checked.
@Suite struct CalendarCommandTests {
    let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura"]

    @Test func calendarIsStrictRFC5545() async throws {
        // Given
        let result = await CLI.run(
            ["calendar"] + makkah + [
                "--month", "2027-02", "--alarm", "10m", "--alarm", "0m", "--prayers", "fajr,maghrib",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        // When
        let calendar = try ICalendar.parse(result.stdout)
        // Then
        let events = calendar.components.filter { $0.name == "VEVENT" }
        #expect(events.count == 28 * 2)
        #expect(Set(events.compactMap { $0["UID"] }).count == events.count)
        let first = try #require(events.first)
        #expect(first["SUMMARY"] == "Fajr")
        #expect(first["DTSTART"]?.hasSuffix("Z") == true)
        #expect(try #require(first["DTSTART"]) < (try #require(first["DTEND"])))
        #expect(first.components.map { $0["TRIGGER"] } == ["-PT10M", "PT0M"])
        #expect(calendar.properties["X-WR-TIMEZONE"] == "Asia/Riyadh")
        // The same request gives the same UIDs (an import updates rather than duplicates).
        let again = try ICalendar.parse(
            await CLI.run(["calendar"] + makkah + ["--month", "2027-02", "--prayers", "fajr,maghrib"]).stdout)
        #expect(again.components.compactMap { $0["UID"] } == events.compactMap { $0["UID"] })
    }

    @Test func aCalendarKeepsItsUIDsWhenTheMethodChanges() async {
        let place = ["calendar", "--lat", "21.4225", "--lon", "39.8262", "--date", "2026-11-29", "--days", "1"]
        let first = await CLI.run(place + ["--method", "umm-al-qura"]).stdout
        let second = await CLI.run(place + ["--method", "mwl"]).stdout
        func uids(_ text: String) -> [Substring] { text.split(separator: "\r\n").filter { $0.hasPrefix("UID:") } }
        #expect(!uids(first).isEmpty && uids(first) == uids(second))
        #expect(first != second)
    }

    @Test func calendarOptionsAreChecked() async {
        for (arguments, message) in [
            (["--days", "3", "--month", "2027-02"], "use only one of --days, --month"),
            (["--alarm", "soon"], "--alarm must look like 10m"),
            (["--prayers", "fajr,tea"], "unknown time 'tea'"),
            (["--month", "2027-13"], "--month must look like YYYY-MM"),
        ] {
            let result = await CLI.run(["calendar"] + makkah + arguments)
            #expect(result.status == 64)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }
}
