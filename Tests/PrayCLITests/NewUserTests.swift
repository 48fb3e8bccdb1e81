import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// Every sharp edge a new user hit (issue 9), in-process on mocks and the real engine.
@Suite struct NewUserTests {
    let makkah = ["times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--date", "2026-11-29"]

    // MARK: 1. Never move a time the user did not ask to move

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

    @Test func theEngineRefusesUserAdjustmentsThatReorderAndHoldsBackMethodOnes() async throws {
        // Given
        let engine = PrayerServiceAstronomical(log: .silent)
        var request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
            timeZone: try #require(TimeZone(identifier: "Asia/Riyadh")), date: try CivilDate(parsing: "2026-11-29"),
            parameters: CalculationParameters(method: .ummAlQura))
        // When the user's own minutes reorder the day: refused.
        request.parameters.adjustments = PrayerAdjustments([.sunrise: -120])
        #expect(throws: ValidationError.self) { try engine.prayerTimes(for: request) }
        // When the method's minutes do: held back and marked.
        request.parameters.adjustments = PrayerAdjustments([:])
        request.parameters.methodAdjustments = PrayerAdjustments([.dhuhr: 300])
        let schedule = try #require(try engine.prayerTimes(for: request).schedules.first)
        #expect(schedule[.asr]?.isHeldBack == true)
        #expect(schedule[.dhuhr]?.isHeldBack == false)
        #expect(schedule[.asr]?.date == schedule[.dhuhr]?.date)
    }

    // MARK: 3. Negative numbers are values

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

    // MARK: 4. A published timetable belongs to its place

    @Test func londonsTimetableRefusesOtherPlaces() async {
        let result = await CLI.run(
            makkah + ["--source", "london"], environment: ["TZ": "UTC", "PRAYKIT_API_KEY": "k"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("is London's"))
        #expect(result.stderr.contains("km from London"))
    }

    // MARK: 5. Saved values that do not apply are ignored

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

    @Test func configSetShafaqNeedsTheMoonsightingMethod() async throws {
        let dependency = CLI.dependency(preferences: try CLI.preferences([.method: "isna"]))
        let refused = await CLI.run(["config", "set", "shafaq", "ahmer"], dependency: dependency)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("moonsighting-committee"))
        #expect(try dependency.preferenceStore.preferences()[.shafaq] == nil)
        _ = await CLI.run(["config", "set", "method", "moonsighting"], dependency: dependency)
        let accepted = await CLI.run(["config", "set", "shafaq", "ahmer"], dependency: dependency)
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    // MARK: 6. The place name is shown

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

    // MARK: 7. Hijri at the table's edge, Tashreeq, nights kept the evening before

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

    // MARK: 8. Exit codes and messages

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

    @Test func aBadBackupIsDescribedInWordsAndChangesNothing() async throws {
        let entry = """
            {"date": "2026-11-28", "prayer": "fajr", "status": "prayed", "recordedAt": "2026-11-28T05:00:00.000Z"}
            """
        let duplicate = Data(
            """
            {"format": "praykit-backup", "version": 1, "preferences": {}, "prayerLog": [\(entry), \(entry)]}
            """.utf8)
        let cases: [(Data, String)] = [
            (Data("{".utf8), "the file is not JSON"),
            (Data(#"{"format": "praykit-backup", "version": 1, "preferences": {}}"#.utf8), "'prayerLog' is missing"),
            (duplicate, "logs fajr on 2026-11-28 twice"),
        ]
        for (data, message) in cases {
            // A backup service with nothing set: importing would fail the test.
            var dependency = CLI.dependency()
            let backup = BackupServiceMock()
            dependency.backupService = backup
            let result = await CLI.run(["import", "-"], dependency: dependency, standardInput: data)
            #expect(result.status == 1)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains("Domain") && !result.stderr.contains("DecodingError"))
            #expect(backup.importDataCalls.isEmpty)
        }
    }

    @Test func theInsecureHTTPErrorSuggestsWhatTheToolCanDo() {
        let error = NetworkError(
            kind: .insecure, url: URL(fileURLWithPath: "/"), message: "plain http to example.com was refused")
        #expect(CLIError(error).message.contains("give --api-url an https:// URL"))
        #expect(!CLIError(error).message.contains("allow insecure"))
    }

    @Test(arguments: [["help", "--help"], ["-v"], ["-V"], ["--version"], ["help", "config", "set"]])
    func helpAndVersionWork(arguments: [String]) async {
        let result = await CLI.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
    }

    // MARK: 9. Conflicting or inapplicable options

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

    @Test func hexIsNotALatitude() async {
        let result = await CLI.run(["times", "--lat", "0x10", "--lon", "0"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --lat must be a number, got '0x10'"))
    }

    @Test func hijriMonthDoesNotGoWithDate() async {
        let result = await CLI.run(["hijri", "--month", "1448-09", "--date", "2026-11-29"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--date does not go with --month"))
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

    // MARK: 10. Times on another day, Ramadan's isha

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

    // MARK: 11. Suggestions, AlAdhan numbers, zones

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

    // MARK: 12. Qibla at the Kaaba and its antipode

    @Test func qiblaNearTheKaabaAndItsAntipode() async {
        let near = await CLI.run(["qibla", "--lat", "21.4230", "--lon", "39.8262"])
        #expect(near.stdout.contains("Distance: 55.") || near.stdout.contains(" m\n"), "\(near.stdout)")
        #expect(near.stdout.contains("only meaningful beyond a few metres"))
        let antipode = await CLI.run(["qibla", "--lat", "-20", "--lon", "-141"])
        #expect(antipode.stdout.contains("directions of the shortest paths diverge"), "\(antipode.stdout)")
        let newYork = await CLI.run(["qibla", "--lat", "40.7128", "--lon", "-74.0060"])
        #expect(!newYork.stdout.contains("Note:"))
    }

    // MARK: 13. Config and log

    @Test func unsetConfirmsWhatItRemoved() async throws {
        let dependency = CLI.dependency(preferences: try CLI.preferences([.method: "isna"]))
        let removed = await CLI.run(["config", "unset", "method"], dependency: dependency)
        #expect(removed.stdout == "Removed method (was north-america)\n")
        let again = await CLI.run(["config", "unset", "method"], dependency: dependency)
        #expect(again.stdout == "method was not set; nothing changed\n")
    }

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

    // MARK: 14. Timeouts and offline

    @Test func theTimeoutSetsTheNetworkAndOfflineServesTheCacheOnly() async throws {
        let aladhan = makkah + ["--source", "aladhan", "--api-url", "http://127.0.0.1:9"]
        let defaults = await CLI.run(aladhan + ["--offline"], dependency: try offlineDependency())
        #expect(defaults.configuration?.network.totalTimeout == 10)
        #expect(defaults.configuration?.remoteTimetable?.cacheOnly == true)
        #expect(defaults.status == 1)
        #expect(defaults.stderr.contains("is cached, and the server is not asked offline"), "\(defaults.stderr)")
        let short = await CLI.run(aladhan + ["--timeout", "3"], dependency: try offlineDependency())
        #expect(short.configuration?.network.totalTimeout == 3)
        #expect(short.configuration?.network.connectTimeout == 3)
        let bad = await CLI.run(aladhan + ["--timeout", "0"])
        #expect(bad.status == 64)
        let calculated = await CLI.run(makkah + ["--offline"])
        #expect(calculated.status == 64 && calculated.stderr.contains("--offline goes with --source"))
    }

    /// A remote service that reads an empty cache and fails the test if it touches the network.
    private func offlineDependency() throws -> PrayDependencyMock {
        var dependency = CLI.dependency()
        let database = try TestDatabase()
        let timetable = RemoteTimetable(
            provider: .aladhan, baseURL: try #require(URL(string: "http://127.0.0.1:9")), cacheOnly: true)
        dependency.remotePrayers = PrayerServiceRemote(
            timetable: timetable, network: NetworkServiceMock(), database: database.database, log: .silent)
        return dependency
    }
}

/// The real engine with a method's own minutes changed, as a method could have them.
private struct EngineWithMethodMinutes: PrayerService {
    let minutes: PrayerAdjustments

    func prayerTimes(for request: PrayerAPI.Request) async throws -> PrayerAPI.Response {
        var request = request
        request.parameters.methodAdjustments = minutes
        return try PrayerServiceAstronomical(log: .silent).prayerTimes(for: request)
    }
}
