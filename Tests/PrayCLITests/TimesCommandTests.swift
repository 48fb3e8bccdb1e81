import Foundation
import Testing

/// The real `praykit` binary: the command-line contract of DESIGN §6.
@Suite struct TimesCommandTests {
    let makkah = ["times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--date", "2026-11-29"]

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func jsonFollowsTheContract() async throws {
        // When
        let result = try await PraykitProcess.run(makkah + ["--method", "umm-al-qura", "--format", "json"])
        // Then
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let document = try json(result.stdout)
        let location = try #require(document["location"] as? [String: Any])
        #expect(location["latitude"] as? Double == 21.4225)
        #expect(location["timeZone"] as? String == "Asia/Riyadh")
        let parameters = try #require(document["parameters"] as? [String: Any])
        #expect(parameters["method"] as? String == "umm-al-qura")
        #expect(parameters["fajrAngle"] as? Double == 18.5)
        #expect(parameters["ishaInterval"] as? Int == 90)
        #expect(parameters["ishaAngle"] is NSNull)
        #expect(parameters["madhab"] as? String == "shafi")
        #expect(parameters["highLatitudeRule"] as? String == "middle-of-the-night")
        #expect(parameters["rounding"] as? String == "nearest")
        #expect(parameters["adjustments"] is [String: Any])
        let days = try #require(document["days"] as? [[String: Any]])
        #expect(days.count == 1)
        let day = days[0]
        #expect(day["date"] as? String == "2026-11-29")
        for field in [
            "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "imsak", "midnight", "firstThird",
            "lastThird",
        ] {
            let value = try #require(day[field] as? String, "\(field)")
            #expect(value.hasSuffix("+03:00"), "\(field): \(value)")
            #expect(value.count == 25, "\(field): \(value)")
        }
        #expect(day["fajr"] as? String == "2026-11-29T05:20:00+03:00")
        #expect(day["dhuhr"] as? String == "2026-11-29T12:09:00+03:00")
        #expect(day["isha"] as? String == "2026-11-29T19:07:00+03:00")
    }

    @Test func unavailableTimesAreNull() async throws {
        let result = try await PraykitProcess.run([
            "times", "--lat", "59.9139", "--lon", "10.7522", "--tz", "Europe/Oslo", "--date", "2026-06-21",
            "--high-latitude-rule", "none", "--format", "json",
        ])
        #expect(result.status == 0)
        let day = try #require((try json(result.stdout)["days"] as? [[String: Any]])?.first)
        #expect(day["fajr"] is NSNull)
        #expect(day["isha"] is NSNull)
        #expect(day["sunrise"] is String)
        let reasons = try #require(day["unavailable"] as? [String: String])
        #expect(reasons["fajr"]?.contains("does not reach") == true)
    }

    @Test func roundingNoneKeepsSeconds() async throws {
        let result = try await PraykitProcess.run(
            makkah + ["--method", "mwl", "--rounding", "none", "--format", "json"])
        let day = try #require((try json(result.stdout)["days"] as? [[String: Any]])?.first)
        let fajr = try #require(day["fajr"] as? String)
        #expect(fajr.hasPrefix("2026-11-29T05:22:"))  // 18° fajr at 05:22:07
        #expect(!fajr.hasPrefix("2026-11-29T05:22:00"))
    }

    @Test func daysAndCSV() async throws {
        let result = try await PraykitProcess.run(makkah + ["--days", "7", "--format", "csv"])
        let lines = result.stdout.split(separator: "\n")
        #expect(result.status == 0)
        #expect(lines.count == 8)
        #expect(
            lines[0]
                == "date,hijri,fajr,sunrise,dhuhr,asr,sunset,maghrib,isha,imsak,midnight,firstThird,lastThird,notes")
        #expect(lines[7].hasPrefix("2026-12-05,1448-06-25,2026-12-05T"))
        #expect(lines[7].hasSuffix(",midnight: +1 day; lastThird: +1 day"))
    }

    @Test func tableNamesThePlaceZoneMethodAndRule() async throws {
        let result = try await PraykitProcess.run(makkah + ["--method", "makkah"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("21.4225, 39.8262"))
        #expect(result.stdout.contains("Asia/Riyadh"))
        #expect(result.stdout.contains("Umm al-Qura"))
        #expect(result.stdout.contains("High-latitude rule: middle-of-the-night"))
        #expect(result.stdout.contains("2026-11-29"))
    }

    @Test func theZoneComesFromTheCoordinatesNeverTheMachine() async throws {
        // Given: a machine in Tokyo asked about London.
        let args = ["times", "--lat", "51.5", "--lon", "-0.12", "--date", "2026-07-01", "--format", "json"]
        let fromCoordinates = try await PraykitProcess.run(args, environment: ["TZ": "Asia/Tokyo"])
        let location = try #require(try json(fromCoordinates.stdout)["location"] as? [String: Any])
        #expect(location["timeZone"] as? String == "Europe/London")
        #expect(location["timeZoneSource"] as? String == "coordinates")
        let option = try await PraykitProcess.run(args + ["--tz", "Asia/Tokyo"], environment: ["TZ": "Europe/London"])
        #expect(((try json(option.stdout)["location"]) as? [String: Any])?["timeZone"] as? String == "Asia/Tokyo")
    }

    @Test func customMethodUsesOnlyWhatIsGiven() async throws {
        let result = try await PraykitProcess.run(
            makkah + ["--method", "custom", "--fajr-angle", "16", "--isha-interval", "80", "--format", "json"])
        let document = try json(result.stdout)
        let day = try #require((document["days"] as? [[String: Any]])?.first)
        #expect(day["fajr"] is String)
        #expect(day["isha"] is String)
        #expect((document["parameters"] as? [String: Any])?["ishaAngle"] is NSNull)
        #expect((document["parameters"] as? [String: Any])?["highLatitudeRule"] as? String == "none")
    }

    @Test(arguments: [
        ["--lat", "91", "--lon", "0"], ["--lat", "10", "--lon", "200"],
        ["--lat", "10", "--lon", "10", "--date", "2026-02-30"],
        ["--lat", "10", "--lon", "10", "--tz", "Mars/Olympus"], ["--lat", "10", "--lon", "10", "--method", "nope"],
        ["--lat", "10", "--lon", "10", "--days", "0"], ["--lon", "10"], ["--lat", "x", "--lon", "1"],
        ["--lat", "1", "--lon", "1", "--frobnicate"], ["--lat", "1", "--lon", "1", "--format", "xml"],
        ["--lat", "1", "--lon", "1", "--days", "3661"], ["--lat", "1", "--lon", "1", "--adjust", "noon=3"],
        ["--lat", "1", "--lon", "1", "--shafaq", "ahmer"], ["--lat", "1", "--lon", "1", "--fajr-angle", "100"],
    ])
    func badUsageExits64WithAClearMessage(_ arguments: [String]) async throws {
        let result = try await PraykitProcess.run(["times"] + arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.contains("Usage: praykit times"))
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test func valuesMayBeJoinedWithEquals() async throws {
        let result = try await PraykitProcess.run([
            "times", "--lat=21.4225", "--lon=39.8262", "--tz=Asia/Riyadh", "--date=2026-11-29", "--format=json",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"date\": \"2026-11-29\""))
    }
}

@Suite struct GeneralCommandTests {
    @Test func helpGoesToStandardOutput() async throws {
        for arguments in [
            ["--help"], ["-h"], ["help"], ["help", "times"], ["times", "--help"], ["methods", "-h"], [],
        ] {
            let result = try await PraykitProcess.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdout.contains("USAGE:"), "\(arguments)")
            #expect(result.stderr.isEmpty)
        }
        let times = try await PraykitProcess.run(["help", "times"])
        #expect(times.stdout.contains("--high-latitude-rule <rule>"))
        #expect(times.stdout.contains("middle-of-the-night"))
    }

    @Test func thePolarResolutionsHelpSaysTheRealDefault() async throws {
        // Given: places at 65° and above resolve polar days with nearest-latitude unless told otherwise
        let help = await CLI.run(["times", "--help"]).stdout
        // The option's lines: its own, and those wrapped under it up to the next option
        let lines = help.split(separator: "\n").drop { !$0.contains("--polar-resolution") }
        let text = ([lines.first ?? ""] + lines.dropFirst().prefix { !$0.hasPrefix("  --") }).joined(separator: " ")
        // Then
        #expect(text.contains("nearest-latitude") && text.contains("65°"), "\(text)")
        let north = try CLI.json(
            await CLI.run(["times", "--lat", "69.65", "--lon", "18.96", "--date", "2026-06-21", "--format", "json"])
                .stdout)
        #expect((north["parameters"] as? [String: Any])?["polarResolution"] as? String == "nearest-latitude")
    }

    @Test func versionPrintsTheVersion() async throws {
        let result = try await PraykitProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("praykit "))
    }

    @Test func unknownSubcommandIsAUsageError() async throws {
        let result = try await PraykitProcess.run(["pray"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Unknown subcommand 'pray'"))
    }

    @Test func methodsListsEveryPreset() async throws {
        let table = try await PraykitProcess.run(["methods"])
        #expect(table.status == 0)
        for name in ["muslim-world-league", "umm-al-qura", "moonsighting-committee", "jafari", "custom"] {
            #expect(table.stdout.contains(name))
        }
        let json = try await PraykitProcess.run(["methods", "--format", "json"])
        let methods = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(methods.count == 26)
        let makkah = try #require(methods.first { $0["name"] as? String == "umm-al-qura" })
        #expect((makkah["parameters"] as? [String: Any])?["ishaInterval"] as? Int == 90)
        // Every method says where it comes from, in the table and in JSON (JAKIM's current rule cited).
        #expect(methods.allSatisfy { ($0["source"] as? String)?.isEmpty == false })
        #expect(table.stdout.contains("Sources:"))
        let jakim = try #require(methods.first { $0["name"] as? String == "jakim" })
        #expect((jakim["source"] as? String)?.contains("2019") == true)
    }
}
