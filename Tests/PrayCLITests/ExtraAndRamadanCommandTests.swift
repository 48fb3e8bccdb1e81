import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// `times --extra`, `next --extra`, Ramadan in `next` and `times --ramadan`, in-process on the real
/// engine with a fake clock.
@Suite struct ExtraAndRamadanCommandTests {
    let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura"]

    // MARK: - The times between the prayers

    @Test func timesExtraInEveryFormat() async throws {
        // Given: Makkah on 2026-12-01 (sunrise 06:42, transit 12:09:xx, sunset 17:37)
        let day = makkah + ["--date", "2026-12-01", "--extra"]
        // When
        let table = await CLI.run(["times"] + day)
        let json = try CLI.json(await CLI.run(["times"] + day + ["--format", "json"]).stdout)
        let csv = await CLI.run(["times"] + day + ["--format", "csv"]).stdout
        // Then: the table's block names each stretch, with its definition
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("Between the prayers (ishraq and isfirar: the sun's centre 5° above"))
        #expect(table.stdout.contains("Disliked: sunrise  Duha (ishraq)  Disliked: zenith  Disliked: sunset"))
        #expect(table.stdout.contains("2026-12-01  06:42–07:10"), "\(table.stdout)")
        let extra = try #require(json["extraTimes"] as? [String: Any])
        #expect((extra["sunRisen"] as? [String: Any])?["altitude"] as? Double == 5)
        #expect(extra["zawalMinutes"] as? Int == 5)
        let first = try #require((json["days"] as? [[String: Any]])?.first)
        #expect(first["ishraq"] as? String == "2026-12-01T07:10:00+03:00")
        #expect(first["zawal"] as? String == "2026-12-01T12:04:00+03:00")
        #expect((first["duha"] as? [String: Any])?["end"] as? String == "2026-12-01T12:04:00+03:00")
        let disliked = try #require(first["disliked"] as? [[String: Any]])
        #expect(disliked.map { $0["kind"] as? String } == ["sunrise", "zenith", "sunset"])
        #expect(disliked.last?["end"] as? String == first["sunset"] as? String)
        let header = try #require(csv.split(separator: "\n").first)
        #expect(header.hasSuffix("lastThird,ishraq,zawal,transit,isfirar,notes"))
    }

    @Test func timesExtraTakesItsDefinitions() async throws {
        let json = try CLI.json(
            await CLI.run(
                ["times"] + makkah + [
                    "--date", "2026-12-01", "--extra", "--ishraq-minutes", "15", "--zawal-minutes", "10",
                    "--format", "json",
                ]
            ).stdout)
        let first = try #require((json["days"] as? [[String: Any]])?.first)
        #expect(first["ishraq"] as? String == "2026-12-01T06:57:00+03:00")
        #expect(first["isfirar"] as? String == "2026-12-01T17:22:00+03:00")
        #expect(first["zawal"] as? String == "2026-12-01T11:59:00+03:00")
    }

    @Test(arguments: [
        (["--ishraq-angle", "4"], "--ishraq-angle goes with --extra"),
        (["--extra", "--ishraq-angle", "4", "--ishraq-minutes", "15"], "give one"),
        (["--extra", "--ishraq-angle", "40"], "--ishraq-angle must be between 1 and 15 degrees"),
        (["--extra", "--zawal-minutes", "0"], "--zawal-minutes must be between 1 and 30 minutes"),
        (["--extra", "--source", "aladhan"], "--extra times are calculated here"),
    ])
    func timesExtraRefusesWhatItCannotDo(arguments: [String], message: String) async {
        let result = await CLI.run(["times"] + makkah + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func nextExtraNamesTheStretchAfterSunrise() async throws {
        func line(_ now: String) async -> String {
            await CLI.run(["next"] + makkah + ["--extra", "--now", now]).stdout
        }
        #expect(
            await line("2026-12-01T06:50:00+03:00")
                == "Dhuhr at 12:10 in 5:20; now a time prayer is disliked (sunrise) since 06:42, until 07:10\n")
        #expect(
            await line("2026-12-01T09:00:00+03:00")
                == "Dhuhr at 12:10 in 3:10; now duha (ishraq) since 07:10, until 12:04\n")
        #expect(
            await line("2026-12-01T12:05:00+03:00")
                == "Dhuhr at 12:10 in 0:05; now a time prayer is disliked (zenith) since 12:04, until 12:10\n")
        #expect(
            await line("2026-12-01T17:20:00+03:00")
                == "Maghrib at 17:37 in 0:17; now a time prayer is disliked (sunset) since 17:09, until 17:37\n")
        // Without --extra, the words of before.
        #expect(
            await CLI.run(["next"] + makkah + ["--now", "2026-12-01T09:00:00+03:00"]).stdout
                == "Dhuhr at 12:10 in 3:10; now after sunrise (duha) since 06:42\n")
        let json = try CLI.json(
            await CLI.run(["next"] + makkah + ["--extra", "--now", "2026-12-01T09:00:00+03:00", "--format", "json"])
                .stdout)
        let period = try #require(json["period"] as? [String: Any])
        #expect(period["name"] as? String == "duha")
        #expect(period["end"] as? String == "2026-12-01T12:04:00+03:00")
    }

    @Test func nextExtraWatchWakesAtTheStretchesEdges() async throws {
        // Given: 07:09:58, two seconds before ishraq, far from any prayer's last minute
        let clock = PrayClockFake(now: try #require(ISO8601DateFormatter().date(from: "2026-12-01T04:09:58Z")))
        // When
        let result = await CLI.run(
            ["next"] + makkah + ["--extra", "--watch", "--updates", "2", "--format", "plain"], clock: clock)
        // Then: the second line comes at ishraq, not a minute later
        #expect(clock.sleeps == [2])
        #expect(result.stdout.split(separator: "\n").last?.contains("now duha (ishraq) since 07:10") == true)
    }

    // MARK: - Ramadan

    @Test func nextCountsDownToSuhoorAndIftarInRamadan() async throws {
        // Given: Ramadan 1448 begins on 2027-02-08 in Umm al-Qura
        func line(_ now: String, _ extra: [String] = []) async -> String {
            await CLI.run(["next"] + makkah + ["--now", now] + extra).stdout
        }
        // Then: the night before the first fast counts down to its suhoor…
        #expect(
            await line("2027-02-07T19:00:00+03:00")
                == "Isha at 19:44 in 0:44; now Maghrib since 18:14; "
                + "Ramadan 1: suhoor ends (imsak) at 05:28 in 10:28, fajr 05:38\n")
        // …after imsak, to iftar; the next evening to the second suhoor
        #expect(
            await line("2027-02-08T13:00:00+03:00")
                == "Asr at 15:50 in 2:50; now Dhuhr since 12:35; Ramadan 1: iftar (maghrib) at 18:15 in 5:15\n")
        #expect(
            await line("2027-02-08T18:30:00+03:00").hasSuffix(
                "Ramadan 2: suhoor ends (imsak) at 05:27 in 10:57, fajr 05:37\n"))
        // Outside Ramadan, and with --no-ramadan, nothing
        #expect(!(await line("2027-02-07T12:00:00+03:00")).contains("Ramadan"))
        #expect(!(await line("2027-02-08T13:00:00+03:00", ["--no-ramadan"])).contains("Ramadan"))
        // Status bars carry it too, and JSON says which
        #expect(await line("2027-02-08T13:00:00+03:00", ["--format", "polybar"]) == "Asr 2:50 · Iftar 5:15\n")
        let json = try CLI.json(await line("2027-02-08T13:00:00+03:00", ["--format", "json"]))
        let ramadan = try #require(json["ramadan"] as? [String: Any])
        #expect(ramadan["day"] as? Int == 1)
        #expect(ramadan["next"] as? String == "iftar")
        #expect(ramadan["time"] as? String == "2027-02-08T18:15:00+03:00")
        #expect(ramadan["countdownSeconds"] as? Int == 18900)
    }

    @Test func nextAndNotifyAgreeOnRamadan() async throws {
        // Given: the day notify plans imsak and iftar on
        let planned = try CLI.json(
            await CLI.run(
                ["notify"] + makkah + [
                    "--dry-run", "--from", "2027-02-08T00:00:00+03:00", "--until", "2027-02-09T00:00:00+03:00",
                    "--format", "json",
                ]
            ).stdout)
        let events = try #require(planned["events"] as? [[String: Any]])
        let imsak = try #require(events.first { $0["kind"] as? String == "imsak" }?["at"] as? String)
        let iftar = try #require(events.first { $0["kind"] as? String == "iftar" }?["at"] as? String)
        // When
        let beforeSuhoor = try CLI.json(
            await CLI.run(["next"] + makkah + ["--now", "2027-02-08T03:00:00+03:00", "--format", "json"]).stdout)
        let afterSuhoor = try CLI.json(
            await CLI.run(["next"] + makkah + ["--now", "2027-02-08T06:00:00+03:00", "--format", "json"]).stdout)
        // Then
        #expect((beforeSuhoor["ramadan"] as? [String: Any])?["time"] as? String == imsak)
        #expect((afterSuhoor["ramadan"] as? [String: Any])?["time"] as? String == iftar)
    }

    @Test func timesRamadanPrintsTheMonth() async throws {
        // Given: any day of Rajab 1448 points at Ramadan 1448
        let table = await CLI.run(["times"] + makkah + ["--ramadan", "--date", "2026-12-01"])
        let json = try CLI.json(
            await CLI.run(["times"] + makkah + ["--ramadan", "--date", "2026-12-01", "--format", "json"]).stdout)
        // Then
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.hasPrefix("Ramadan 1448 (umm-al-qura)\n"))
        #expect(
            table.stdout.contains("1    2027-02-08  Mon      05:28        05:38  18:15  20:15  12:37"),
            "\(table.stdout)")
        let head = try #require(json["ramadan"] as? [String: Any])
        #expect(head["year"] as? Int == 1448)
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days.count == head["days"] as? Int)
        #expect((29...30).contains(days.count))
        #expect(days.first?["date"] as? String == "2027-02-08")
        #expect(days.first?["iftar"] as? String == "2027-02-08T18:15:00+03:00")
        // The Umm al-Qura method's Ramadan isha: 120 minutes after maghrib
        #expect(days.first?["isha"] as? String == "2027-02-08T20:15:00+03:00")
        #expect(days.map { $0["day"] as? Int } == Array(1...days.count))
        // A date after Ramadan gives next year's; a date in it, its own
        let next = try CLI.json(
            await CLI.run(["times"] + makkah + ["--ramadan", "--date", "2027-03-20", "--format", "json"]).stdout)
        #expect((next["ramadan"] as? [String: Any])?["year"] as? Int == 1449)
        let inside = try CLI.json(
            await CLI.run(["times"] + makkah + ["--ramadan", "--date", "2027-02-20", "--format", "json"]).stdout)
        #expect((inside["ramadan"] as? [String: Any])?["year"] as? Int == 1448)
        // And the offset moves it
        let offset = try CLI.json(
            await CLI.run(
                ["times"] + makkah + ["--ramadan", "--date", "2026-12-01", "--hijri-offset", "-1", "--format", "json"]
            ).stdout)
        #expect((offset["days"] as? [[String: Any]])?.first?["date"] as? String == "2027-02-09")
    }

    @Test func timesRamadanRefusesDays() async {
        let result = await CLI.run(["times"] + makkah + ["--ramadan", "--days", "3"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--days does not go with --ramadan"))
    }

    @Test func relativeDatesAreTakenInThePlacesZone() async throws {
        // Given: 23:30 UTC on 2026-11-30 is already 2026-12-01 in Makkah
        let clock = PrayClockFake(now: try #require(ISO8601DateFormatter().date(from: "2026-11-30T23:30:00Z")))
        // When
        let today = try CLI.json(await CLI.run(["times"] + makkah + ["--format", "json"], clock: clock).stdout)
        let yesterday = try CLI.json(
            await CLI.run(["times"] + makkah + ["--date", "yesterday", "--format", "json"], clock: clock).stdout)
        let later = try CLI.json(
            await CLI.run(["times"] + makkah + ["--date", "+3", "--format", "json"], clock: clock).stdout)
        // Then
        func date(_ json: [String: Any]) -> String? { (json["days"] as? [[String: Any]])?.first?["date"] as? String }
        #expect(date(today) == "2026-12-01")
        #expect(date(yesterday) == "2026-11-30")
        #expect(date(later) == "2026-12-04")
        // --now without an offset is the place's clock
        let next = await CLI.run(["next"] + makkah + ["--now", "2026-12-01T09:00"])
        #expect(next.stdout.hasPrefix("Dhuhr at 12:10 in 3:10"), "\(next.stdout)")
    }

    @Test func ramadansIshaFollowsTheHijriDateTheUserSees() async throws {
        // 1448-09-01 is 2027-02-08 in Umm al-Qura; with +1 day of local sighting, 2027-02-07 is Ramadan.
        func ishaMinutes(_ extra: [String]) async throws -> Double {
            let result = await CLI.run(
                [
                    "times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--method", "umm-al-qura",
                    "--date", "2027-02-07", "--format", "json", "--rounding", "none",
                ] + extra)
            let day = try #require((try CLI.json(result.stdout)["days"] as? [[String: Any]])?.first)
            let formatter = ISO8601DateFormatter()
            let maghribText = try #require(day["maghrib"] as? String)
            let ishaText = try #require(day["isha"] as? String)
            let maghrib = try #require(formatter.date(from: maghribText))
            let isha = try #require(formatter.date(from: ishaText))
            return isha.timeIntervalSince(maghrib) / 60
        }
        #expect(try await ishaMinutes([]) == 90)
        #expect(try await ishaMinutes(["--hijri-offset", "1"]) == 120)
    }
}
