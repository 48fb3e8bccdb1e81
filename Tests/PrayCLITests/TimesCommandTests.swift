import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit times`: the command-line contract of DESIGN §6 on the real binary; then, in-process on the
/// real engine, what its options and saved settings do — a time is never moved unasked, impossible
/// or conflicting options are usage errors, a saved value that does not apply is ignored — and what
/// the table says about the place, the elevation and a time on another day.
@Suite struct TimesCommandTests {
    let makkah = ["times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--date", "2026-11-29"]

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(.tags(.process, .binary)) func jsonFollowsTheContract() async throws {
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

    @Test(.tags(.process, .binary)) func unavailableTimesAreNull() async throws {
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

    @Test(.tags(.process, .binary)) func roundingNoneKeepsSeconds() async throws {
        let result = try await PraykitProcess.run(
            makkah + ["--method", "mwl", "--rounding", "none", "--format", "json"])
        let day = try #require((try json(result.stdout)["days"] as? [[String: Any]])?.first)
        let fajr = try #require(day["fajr"] as? String)
        #expect(fajr.hasPrefix("2026-11-29T05:22:"))  // 18° fajr at 05:22:07
        #expect(!fajr.hasPrefix("2026-11-29T05:22:00"))
    }

    @Test(.tags(.process, .binary)) func daysAndCSV() async throws {
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

    @Test(.tags(.process, .binary)) func tableNamesThePlaceZoneMethodAndRule() async throws {
        let result = try await PraykitProcess.run(makkah + ["--method", "makkah"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("21.4225, 39.8262"))
        #expect(result.stdout.contains("Asia/Riyadh"))
        #expect(result.stdout.contains("Umm al-Qura"))
        #expect(result.stdout.contains("High-latitude rule: middle-of-the-night"))
        #expect(result.stdout.contains("2026-11-29"))
    }

    @Test(.tags(.process, .binary)) func theZoneComesFromTheCoordinatesNeverTheMachine() async throws {
        // Given: a machine in Tokyo asked about London.
        let args = ["times", "--lat", "51.5", "--lon", "-0.12", "--date", "2026-07-01", "--format", "json"]
        let fromCoordinates = try await PraykitProcess.run(args, environment: ["TZ": "Asia/Tokyo"])
        let location = try #require(try json(fromCoordinates.stdout)["location"] as? [String: Any])
        #expect(location["timeZone"] as? String == "Europe/London")
        #expect(location["timeZoneSource"] as? String == "coordinates")
        let option = try await PraykitProcess.run(args + ["--tz", "Asia/Tokyo"], environment: ["TZ": "Europe/London"])
        #expect(((try json(option.stdout)["location"]) as? [String: Any])?["timeZone"] as? String == "Asia/Tokyo")
    }

    @Test(.tags(.process, .binary)) func theMachinesZoneIsTheOneLocaltimeNamesWhenTZNamesNone() async throws {
        // Given: the zone this machine is set to, by the name /etc/localtime links to
        let system = try #require(TimeZoneParser.systemZoneName(), "/etc/localtime names no zone here")
        let args = ["times", "--lat", "22.5726", "--lon", "88.3639", "--date", "2026-11-20", "--tz", "local"]
        // When: TZ names no zone (the binary has FoundationEssentials only, whose TimeZone.current says GMT)
        let result = try await PraykitProcess.run(args + ["--format", "json"], environment: ["TZ": "Bogus/Zone"])
        // Then: that zone, by its name
        let location = try #require(try json(result.stdout)["location"] as? [String: Any])
        #expect(location["timeZone"] as? String == TimeZoneName(system)?.identifier)
    }

    @Test(.tags(.process, .binary)) func customMethodUsesOnlyWhatIsGiven() async throws {
        let result = try await PraykitProcess.run(
            makkah + ["--method", "custom", "--fajr-angle", "16", "--isha-interval", "80", "--format", "json"])
        let document = try json(result.stdout)
        let day = try #require((document["days"] as? [[String: Any]])?.first)
        #expect(day["fajr"] is String)
        #expect(day["isha"] is String)
        #expect((document["parameters"] as? [String: Any])?["ishaAngle"] is NSNull)
        #expect((document["parameters"] as? [String: Any])?["highLatitudeRule"] as? String == "none")
    }

    @Test(
        .tags(.process, .binary),
        arguments: [
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

    @Test(.tags(.process, .binary)) func valuesMayBeJoinedWithEquals() async throws {
        let result = try await PraykitProcess.run([
            "times", "--lat=21.4225", "--lon=39.8262", "--tz=Asia/Riyadh", "--date=2026-11-29", "--format=json",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"date\": \"2026-11-29\""))
    }

    // MARK: - Options, rules and the header, in-process

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

    @Test(arguments: [
        (["--imsak-angle", "5"], "--imsak-angle 5° is below fajr-angle 18.5°"),
        (["--fajr-angle", "0"], "--fajr-angle must be more than 0.8333°"),
        (["--isha-angle", "0.5"], "--isha-angle must be more than 0.8333°"),
        (["--adjust", "sunrise=-120"], "put sunrise before fajr"),
        (["--adjust", "dhuhr=-400"], "put dhuhr before"),
    ])
    func impossibleTimesAreRefusedNotMoved(options: [String], message: String) async {
        // When
        let result = await CLI.run(makkah + options)
        // Then
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aTimeARuleHoldsBackIsMarkedInTableJSONAndCSV() async throws {
        // Given: a method whose own minutes (dhuhr +5 h) would put Asr before dhuhr.
        var dependency = CLI.dependency()
        dependency.prayers = EngineWithMethodMinutes(minutes: PrayerAdjustments([.dhuhr: 300]))
        // When
        let table = await CLI.run(makkah, dependency: dependency)
        let json = await CLI.run(makkah + ["--format", "json"], dependency: dependency)
        let csv = await CLI.run(makkah + ["--format", "csv"], dependency: dependency)
        // Then: Asr starts with dhuhr and says why; dhuhr is where its minutes put it.
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("17:09*"))
        #expect(table.stdout.contains("* set by a rule"))
        let day = try #require((try CLI.json(json.stdout)["days"] as? [[String: Any]])?.first)
        #expect((day["rules"] as? [String: String])?["asr"]?.contains("held back") == true)
        #expect(day["asr"] as? String == day["dhuhr"] as? String)
        #expect(csv.stdout.contains("asr: held back"))
    }

    @Test(arguments: [
        (["--isha-angle", "17", "--isha-interval", "90"], "--isha-angle and --isha-interval"),
        (["--imsak-minutes", "10", "--imsak-angle", "20"], "--imsak-minutes and --imsak-angle"),
        (["--maghrib-angle", "4", "--maghrib-interval", "3"], "--maghrib-angle and --maghrib-interval"),
        (["--adjust", "fajr=1,fajr=2"], "fajr is adjusted twice"),
        (["--adjust", "fajr=1", "--adjust", "isha=2"], "'--adjust' was given twice"),
        (["--imsak-minutes", "121"], "--imsak-minutes must be between 0 and 120 minutes"),
        (["--method", "custom"], "--method custom needs a fajr rule (--fajr-angle) and an isha rule"),
        (["--method", "custom", "--fajr-angle", "18"], "needs an isha rule (--isha-angle or --isha-interval)"),
    ])
    func conflictsAreUsageErrors(options: [String], message: String) async {
        let result = await CLI.run(makkah + options)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aSavedShafaqDoesNotBreakAnotherMethod() async throws {
        // Given
        let memory = LogServiceMemory()
        let saved = try CLI.preferences([.method: "moonsighting-committee", .shafaq: "ahmer"])
        let dependency = CLI.dependency(preferences: saved, memory: memory)
        // When
        let result = await CLI.run(makkah + ["--method", "isna", "--format", "json"], dependency: dependency)
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        let parameters = try #require(try CLI.json(result.stdout)["parameters"] as? [String: Any])
        #expect(parameters["method"] as? String == "north-america")
        #expect(parameters["shafaq"] is NSNull)
        #expect(memory.events.contains { $0.message == "Saved setting ignored" && $0.level == .info })
    }

    @Test func theSavedPlaceNameIsShown() async throws {
        let saved = try CLI.preferences([
            .latitude: "21.4225", .longitude: "39.8262", .timeZone: "Asia/Riyadh", .placeName: "Makkah",
        ])
        let dependency = CLI.dependency(preferences: saved)
        let table = await CLI.run(["times", "--date", "2026-11-29"], dependency: dependency)
        let json = await CLI.run(["times", "--date", "2026-11-29", "--format", "json"], dependency: dependency)
        #expect(table.stdout.hasPrefix("Place: Makkah — 21.4225, 39.8262"))
        #expect(table.stdout.contains("Asia/Riyadh (UTC+03:00, saved with the place)"))
        let location = try #require(try CLI.json(json.stdout)["location"] as? [String: Any])
        #expect(location["name"] as? String == "Makkah")
        #expect(location["timeZoneSource"] as? String == "saved")
        // Another place is not called Makkah.
        let elsewhere = await CLI.run(["times", "--lat", "24.47", "--lon", "39.61"], dependency: dependency)
        #expect(!elsewhere.stdout.hasPrefix("Place: Makkah"))
    }

    @Test func belowSeaLevelIsARealPlace() async throws {
        // The Dead Sea shore, −430 m.
        let arguments = ["times", "--lat", "31.5", "--lon", "35.47", "--elevation", "-430", "--tz", "Asia/Amman"]
        let table = await CLI.run(arguments)
        let json = await CLI.run(arguments + ["--format", "json"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("elevation -430 m (below sea level: the horizon dip applies only above it)"))
        let location = try #require(try CLI.json(json.stdout)["location"] as? [String: Any])
        #expect(location["elevation"] as? Double == -430)
        #expect(location["horizonDip"] as? Double == 0)
    }

    @Test func aTimeOnAnotherDayIsMarked() async {
        // Tromsø at the end of March: fajr by the middle of the night falls before midnight, on the
        // civil day before; the last third of the night after it.
        let result = await CLI.run([
            "times", "--lat", "69.6492", "--lon", "18.9553", "--tz", "Europe/Oslo", "--date", "2026-03-28",
            "--method", "mwl",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("23:48*-1"))
        #expect(result.stdout.contains("01:33+1"))
        #expect(result.stdout.contains("-1 / +1: on the day before / after the row's date"))
    }

    // MARK: - Helpers

    /// The real engine with a method's own minutes changed, as a method could have them.
    private struct EngineWithMethodMinutes: PrayerService {
        let minutes: PrayerAdjustments

        func prayerTimes(for request: PrayerAPI.Request) async throws -> PrayerAPI.Response {
            var request = request
            request.parameters.methodAdjustments = minutes
            return try PrayerServiceAstronomical(log: .silent).prayerTimes(for: request)
        }
    }
}
