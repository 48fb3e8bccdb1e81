import Foundation
import PrayCore
import Testing

/// The one time-zone parser: every name of the tz database in any case, UTC, offsets, and `local`
/// from the environment it is given.
@Suite struct TimeZoneNameTests {
    @Test(arguments: [
        ("Asia/Kolkata", "Asia/Kolkata", 19_800), ("Asia/Calcutta", "Asia/Calcutta", 19_800),
        ("asia/kolkata", "Asia/Kolkata", 19_800), ("US/Eastern", "US/Eastern", -18_000),
        ("Asia/Saigon", "Asia/Saigon", 25_200), ("Etc/GMT-3", "Etc/GMT-3", 10_800), ("EST5EDT", "EST5EDT", -18_000),
        ("ASIA/RIYADH", "Asia/Riyadh", 10_800), (" Europe/London ", "Europe/London", 0), ("utc", "UTC", 0),
        ("Z", "UTC", 0), ("Zulu", "Zulu", 0), ("Etc/UTC", "Etc/UTC", 0),
    ])
    func namesOfTheTzDatabase(text: String, identifier: String, januaryOffset: Int) throws {
        // When
        let zone = try TimeZoneName(parsing: text)
        // Then: the tz database's spelling, and the zone's real offset on 2027-01-15
        #expect(zone.identifier == identifier)
        #expect(zone.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_800_000_000)) == januaryOffset)
        #expect(!zone.isLocal)
    }

    @Test(arguments: [
        ("+03:00", 10_800), ("-0930", -34_200), ("+3", 10_800), ("UTC+05:30", 19_800), ("GMT-9", -32_400),
        ("+14:00", 50_400), ("-12", -43_200),
    ])
    func fixedOffsets(text: String, seconds: Int) throws {
        let zone = try TimeZoneName(parsing: text)
        #expect(zone.timeZone.secondsFromGMT() == seconds)
        #expect(TimeZoneName(zone.identifier)?.timeZone.secondsFromGMT() == seconds, "its name parses back")
    }

    @Test(arguments: [
        "Mars/Olympus", "", "+15:00", "+03:60", "Europe/London\u{A0}", "local", "../etc/passwd", "GMT+3x",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(TimeZoneName(text) == nil)
        #expect(throws: ValidationError.self) { try TimeZoneName(parsing: text) }
    }

    @Test func localIsTZOfTheGivenEnvironmentElseTheSystemZone() throws {
        // Given
        let system = try #require(TimeZone(identifier: "America/Chicago"))
        // When / Then: $TZ, with POSIX's optional colon and in any case
        let colon = TimeZoneParser(environment: ["TZ": ":Europe/London"], systemTimeZone: system)
        #expect(try colon.parse("local").identifier == "Europe/London")
        #expect(try colon.parse("LOCAL").isLocal)
        let lower = TimeZoneParser(environment: ["TZ": "asia/kolkata"], systemTimeZone: system)
        #expect(lower.local.identifier == "Asia/Kolkata")
        // An unset or unknown TZ: the system's zone
        #expect(TimeZoneParser(environment: [:], systemTimeZone: system).local.timeZone == system)
        #expect(TimeZoneParser(environment: ["TZ": "Nowhere/Land"], systemTimeZone: system).local.timeZone == system)
        // Names are names, whatever the environment
        #expect(try colon.parse("Asia/Tokyo").identifier == "Asia/Tokyo")
    }

    @Test func theKnownNamesIncludeTheAliases() {
        let names = TimeZoneName.knownIdentifiers
        for name in ["Asia/Kolkata", "Asia/Calcutta", "US/Eastern", "UTC", "Europe/Kyiv"] {
            #expect(names.contains(name), "\(name)")
        }
        #expect(names == names.sorted())
    }

    @Test func theSavedZoneIsNormalisedByTheSameParser() throws {
        var preferences = Preferences()
        try preferences.set("asia/kolkata", for: .timeZone)
        #expect(preferences[.timeZone] == "Asia/Kolkata")
        try preferences.set("+03:00", for: .timeZone)
        #expect(preferences.timeZone?.secondsFromGMT() == 10_800)
        #expect(throws: ValidationError.self) { try preferences.set("Mars/Olympus", for: .timeZone) }
    }
}
