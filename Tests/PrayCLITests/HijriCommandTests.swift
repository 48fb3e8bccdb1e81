import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit hijri`: its JSON, tables, conversions, offsets and the day that begins at maghrib on the
/// real binary; then, in-process, the table's edges, nights kept the evening before, a Gregorian
/// date given to `convert`, and `--month` with `--date`.
@Suite struct HijriCommandTests {
    func array(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test(.tags(.process, .binary)) func jsonFollowsTheContract() async throws {
        let result = try await PraykitProcess.run(["hijri", "--date", "2026-11-29", "--days", "3", "--format", "json"])
        #expect(result.status == 0)
        let days = try array(result.stdout)
        #expect(days.count == 3)
        let first = days[0]
        #expect(first["gregorian"] as? String == "2026-11-29")
        #expect(first["calendar"] as? String == "umm-al-qura")
        #expect(first["notableDays"] is [Any])
        let hijri = try #require(first["hijri"] as? [String: Any])
        #expect(hijri["year"] as? Int == 1448)
        #expect(hijri["month"] as? Int == 6)
        #expect(hijri["day"] as? Int == 19)
        #expect(hijri["monthName"] as? String == "Jumada al-Akhirah")
        #expect(hijri["monthNameArabic"] as? String == "جمادى الآخرة")
        #expect(hijri["weekday"] as? String == "Sunday")
        #expect(hijri["monthLength"] as? Int == 29)
    }

    @Test(.tags(.process, .binary)) func aWholeTableInOneCall() async throws {
        // About 6 s alone in a debug build, 136 s once with the rest of the suite on two cores kept busy
        // by other work: the deadline only guards against a hang.
        let result = try await PraykitProcess.run(
            ["hijri", "--date", "1924-08-01", "--days", "60000", "--format", "json"], deadline: 900)
        #expect(result.status == 0)
        let days = try array(result.stdout)
        #expect(days.count == 60000)
        #expect((days.last?["tabular"] as? Bool) == true)
        #expect((days.first?["tabular"] as? Bool) == false)
    }

    @Test(.tags(.process, .binary)) func toGregorianAndItsErrors() async throws {
        let ramadan = try await PraykitProcess.run(["hijri", "--to-gregorian", "1447-09-01", "--format", "json"])
        #expect(try array(ramadan.stdout).first?["gregorian"] as? String == "2026-02-18")
        for bad in ["1447-13-01", "1447-02-31", "1447-02-30", "nope"] {
            let result = try await PraykitProcess.run(["hijri", "--to-gregorian", bad])
            #expect(result.status == 64, "\(bad)")
            #expect(result.stderr.hasPrefix("Error: "), "\(bad)")
        }
    }

    @Test(.tags(.process, .binary)) func offsetAndCalendar() async throws {
        let plus = try await PraykitProcess.run(["hijri", "--date", "2026-03-19", "--offset", "1", "--format", "json"])
        let day = try #require(try array(plus.stdout).first)
        #expect((day["hijri"] as? [String: Any])?["date"] as? String == "1447-10-01")
        #expect(((day["notableDays"] as? [[String: Any]])?.first?["id"] as? String) == "eid-al-fitr")
        let civil = try await PraykitProcess.run([
            "hijri", "--date", "2026-11-29", "--calendar", "civil", "--format", "json",
        ])
        #expect(try array(civil.stdout).first?["calendar"] as? String == "civil")
        #expect(try await PraykitProcess.run(["hijri", "--offset", "3"]).status == 64)
        #expect(try await PraykitProcess.run(["hijri", "--calendar", "lunar"]).status == 64)
    }

    @Test(.tags(.process, .binary)) func theDayBeginsAtMaghrib() async throws {
        let base = [
            "hijri", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--date", "2026-11-29", "--format",
            "json",
        ]
        let before = try await PraykitProcess.run(base + ["--at", "17:00"])
        let after = try await PraykitProcess.run(base + ["--at", "18:00"])
        let first = try #require(try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any])
        let second = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        #expect((first["hijri"] as? [String: Any])?["day"] as? Int == 19)
        #expect((second["hijri"] as? [String: Any])?["day"] as? Int == 20)
        #expect(second["afterMaghrib"] as? Bool == true)
        #expect((second["maghrib"] as? String)?.hasPrefix("2026-11-29T17:3") == true)
        #expect(try await PraykitProcess.run(["hijri", "--at", "18:00"]).status == 64)
        #expect(try await PraykitProcess.run(base + ["--at", "25:00"]).status == 64)
    }

    @Test(.tags(.process, .binary)) func monthViewAndNextNotableDay() async throws {
        let month = try await PraykitProcess.run(["hijri", "--month", "1447-09", "--format", "json"])
        #expect(try array(month.stdout).count == 30)
        let next = try await PraykitProcess.run(["hijri", "--next-notable", "--date", "2026-11-29"])
        #expect(next.stdout.contains("White days"))
        #expect(try await PraykitProcess.run(["hijri", "--month", "1447-13"]).status == 64)
    }

    @Test(.tags(.process, .binary)) func timesCarryTheHijriDate() async throws {
        let result = try await PraykitProcess.run([
            "times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--date", "2026-11-29", "--format",
            "json",
        ])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let day = try #require((document["days"] as? [[String: Any]])?.first)
        #expect(day["hijri"] as? String == "1448-06-19")
    }

    // MARK: - In-process

    @Test func hijriRoundTripsAtTheTableEdge() async throws {
        for text in ["1342-12-29", "1343-01-01", "1500-12-29", "1501-01-01", "1342-01-01"] {
            let there = await CLI.run(["hijri", "--to-gregorian", text, "--format", "json"])
            let day = try #require(
                (try JSONSerialization.jsonObject(with: Data(there.stdout.utf8)) as? [[String: Any]])?.first)
            let gregorian = try #require(day["gregorian"] as? String)
            let back = await CLI.run(["hijri", "--date", gregorian, "--format", "json"])
            let backDay = try #require(
                (try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as? [[String: Any]])?.first)
            #expect((backDay["hijri"] as? [String: Any])?["date"] as? String == text, "\(text) → \(gregorian)")
        }
    }

    @Test func nightsKeptTheEveningBeforeSaySo() async throws {
        let table = await CLI.run(["hijri", "convert", "1448-09-27"])
        #expect(table.stdout.contains("Laylat al-Qadr (the night before)"))
        #expect(table.stdout.contains("kept from the maghrib of the previous civil day"))
        let json = await CLI.run(["hijri", "convert", "1448-07-27", "--format", "json"])
        #expect(json.stdout.contains("\"observedTheEveningBefore\": true"))
    }

    @Test func aGregorianDateIsNotReadAsHijri() async {
        let result = await CLI.run(["hijri", "convert", "2027-02-08"])
        #expect(result.status == 0 && result.stdout.contains("1448-09-01"), "\(result.stdout)")
        #expect(!result.stdout.contains("2588"))
    }

    @Test func hijriMonthDoesNotGoWithDate() async {
        let result = await CLI.run(["hijri", "--month", "1448-09", "--date", "2026-11-29"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--date does not go with --month"))
    }
}
