import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit next` in-process on the real engine: the answer in every format and with the iqama,
/// `--watch` waking at the timeline's moments on a fake clock, the day Samoa's clocks skipped, and
/// the stretch after sunrise, which is no prayer's time.
@Suite struct NextCommandTests {
    let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura"]
    /// 2026-11-29 14:14 in Makkah: dhuhr was at 12:09, Asr is at 15:16.
    let pinned = ["--now", "2026-11-29T14:14:00+03:00"]

    @Test func nextAnswersInEveryFormat() async throws {
        let plain = await CLI.run(["next"] + makkah + pinned)
        #expect(plain.stdout == "Asr at 15:16 in 1:02; now Dhuhr since 12:09\n", "\(plain.stderr)")
        let json = try CLI.json(await CLI.run(["next"] + makkah + pinned + ["--format", "json"]).stdout)
        #expect(json["now"] as? String == "2026-11-29T14:14:00+03:00")
        #expect((json["current"] as? [String: Any])?["prayer"] as? String == "dhuhr")
        #expect((json["current"] as? [String: Any])?["endsAt"] as? String == "2026-11-29T15:16:00+03:00")
        #expect((json["next"] as? [String: Any])?["prayer"] as? String == "asr")
        #expect((json["next"] as? [String: Any])?["iqama"] is NSNull)
        #expect(json["countdownSeconds"] as? Int == 3720)
        let waybar = try CLI.json(await CLI.run(["next"] + makkah + pinned + ["--format", "waybar"]).stdout)
        #expect(waybar["text"] as? String == "Asr 1:02")
        #expect(waybar["class"] as? String == "asr")
        #expect((waybar["percentage"] as? Int).map { (60...70).contains($0) } == true)
        #expect((waybar["tooltip"] as? String)?.contains("Dhuhr since 12:09") == true)
        let i3bar = await CLI.run(["next"] + makkah + pinned + ["--format", "i3bar"]).stdout
        #expect(i3bar.hasPrefix("{\"version\":1}\n[\n[{\"name\":\"praykit\",\"full_text\":\"Asr 1:02\""))
        #expect(await CLI.run(["next"] + makkah + pinned + ["--format", "polybar"]).stdout == "Asr 1:02\n")
        #expect(
            await CLI.run(["next"] + makkah + pinned + ["--format", "tmux"]).stdout == "#[bold]Asr#[default] 1:02\n")
    }

    @Test func nextShowsTheIqamaWhenSaved() async throws {
        let saved = try CLI.preferences([.iqama: "asr=+15"])
        let result = await CLI.run(["next"] + makkah + pinned, dependency: CLI.dependency(preferences: saved))
        #expect(result.stdout.contains("(iqama 15:31)"), "\(result.stdout)")
    }

    @Test func watchWritesAtTheTimelinesMomentsNotByPolling() async throws {
        // Given: 13:45 on the clock, Asr at 15:16: the first update after 14:16 is a minute mark.
        let clock = PrayClockFake(now: try #require(ISO8601DateFormatter().date(from: "2026-11-29T11:14:30Z")))
        // When: six lines with a fake clock (its waits return at once and move its time on).
        let result = await CLI.run(
            ["next"] + makkah + ["--format", "polybar", "--watch", "--updates", "6"], clock: clock)
        // Then: the countdown goes down one line at a time, and every wait ended on a timeline moment
        // (a whole minute before Asr, or the 60-second cap in the long stretch).
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 6)
        #expect(clock.sleeps.count == 5)
        #expect(clock.sleeps.allSatisfy { $0 <= 60 })
        #expect(result.stdout.hasPrefix("Asr 1:02\n"))
    }

    @Test func watchCountsSecondsInTheLastMinute() async throws {
        let clock = PrayClockFake(now: try #require(ISO8601DateFormatter().date(from: "2026-11-29T12:15:50Z")))
        let result = await CLI.run(
            ["next"] + makkah + ["--format", "polybar", "--watch", "--updates", "4"], clock: clock)
        #expect(result.stdout == "Asr 10s\nAsr 9s\nAsr 8s\nAsr 7s\n", "\(result.stdout)")
        #expect(clock.sleeps == [1, 1, 1])
    }

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

    @Test(arguments: [
        ("9999-01-01T12:00", "9999"), ("9999-12-31T23:00:00Z", "9999"), ("0001-01-01T12:00", "1"),
        ("0001-01-03T12:00", "1"), ("3001-01-01T00:30", "3001"),
    ])
    func aDayOutsideTheCalculatedYearsIsRefusedAsTimesRefusesIt(now: String, year: String) async {
        // Given: an instant whose own day (or the day before it, near year 1) is not calculated
        // When
        let result = await CLI.run(["next"] + makkah + ["--now", now])
        // Then: the words of 'times --date', for the day asked, and no trap at the ends of the calendar
        #expect(result.status == 64)
        let refusal = "Error: prayer times are calculated for the years 1000–3000; \(year) is outside them\n"
        #expect(result.stderr.hasPrefix(refusal), "\(result.stderr)")
    }

    @Test func theLastCalculatedDayAnswersUntilItsLastPrayer() async {
        // Given: the last day of 3000, whose following days are not calculated
        let noon = await CLI.run(["next"] + makkah + ["--now", "3000-12-31T12:00"])
        #expect(noon.status == 0, "\(noon.stderr)")
        #expect(noon.stdout.hasPrefix("Dhuhr at 12:2"), "\(noon.stdout)")
        // After its isha no prayer follows, and the error says why
        let night = await CLI.run(["next"] + makkah + ["--now", "3000-12-31T23:00"])
        #expect(night.status == 1)
        #expect(
            night.stderr == "Error: no prayer time follows this instant: prayer times are calculated for the years "
                + "1000–3000; 3001 is outside them\n", "\(night.stderr)")
    }
}
