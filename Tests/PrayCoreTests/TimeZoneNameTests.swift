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

    @Test func withoutTZTheSystemZoneIsTheOneLocaltimeNames() throws {
        // Given: the zone this machine is set to, as /etc/localtime's link names it
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")
        let named = try #require(
            link?.firstRange(of: "zoneinfo/").map { String(link?[$0.upperBound...] ?? "") },
            "this machine's /etc/localtime is not a link into a zoneinfo folder")
        // When: TZ unset, or naming no zone
        let unset = TimeZoneParser(environment: [:]).local
        let unknown = TimeZoneParser(environment: ["TZ": "Nowhere/Land"]).local
        // Then: that zone by its name (FoundationEssentials' TimeZone.current would answer GMT)
        #expect(TimeZoneParser.systemZoneName() == named)
        #expect(unset.identifier == (TimeZoneName(named)?.identifier ?? named))
        #expect(unset.isLocal)
        #expect(unknown.identifier == unset.identifier)
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

/// A zone of the system's tz database is a name: computed with from its file, without a Foundation zone
/// until one is asked for, and equal to the same name however it was made.
@Suite struct TimeZoneNameWithoutFoundationTests {
    @Test func aSystemZoneIsItsNameAndItsFileGivesTheOffsets() throws {
        // Given: a name parsed, and the same zone made from Foundation's
        let parsed = try TimeZoneName(parsing: "America/New_York")
        let made = TimeZoneName(try #require(TimeZone(identifier: "America/New_York")))
        // Then: equal names, the same offsets, and Foundation's zone on request
        #expect(parsed == made)
        #expect(parsed.hashValue == made.hashValue)
        let july = Date(timeIntervalSince1970: 1_815_000_000)  // 2027-07-08
        #expect(parsed.offset(at: july) == -14_400)
        #expect(parsed.timeZone.identifier == "America/New_York")
        #expect(parsed.timeZone.secondsFromGMT(for: july) == -14_400)
    }

    @Test(arguments: ["posix/Europe/London", "right/Europe/London", "localtime", "posixrules"])
    func copiesOfTheTreeAreNoZones(_ name: String) {
        #expect(!TimeZoneName.isSystemZone(name))
        #expect(TimeZoneName(name) == nil)
    }

    @Test func theMachinesZoneIsMarkedButARequestKeepsTheZoneAlone() throws {
        // Given: the machine's zone, from TZ
        let local = TimeZoneParser(environment: ["TZ": ":Asia/Riyadh"]).local
        #expect(local.isLocal)
        #expect(local.identifier == "Asia/Riyadh")
        // When: a request and a schedule are made in it
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 21.4, longitude: 39.8), zone: local,
            date: try CivilDate(parsing: "2027-01-15"), parameters: CalculationParameters(method: .ummAlQura))
        // Then: they keep the zone, not the mark, and equal a request made with Foundation's zone
        #expect(!request.zone.isLocal)
        let same = PrayerAPI.Request(
            coordinates: request.coordinates, timeZone: try #require(TimeZone(identifier: "Asia/Riyadh")),
            date: request.date, parameters: request.parameters)
        #expect(request == same)
        var moved = request
        moved.timeZone = try #require(TimeZone(identifier: "Europe/London"))
        #expect(moved.zone.identifier == "Europe/London")
    }

    @Test func theDayContainingAnInstantIsTheSameByNameOrByFoundationsZone() throws {
        let instant = Date(timeIntervalSince1970: 1_795_989_600)  // 2026-11-29T22:00:00Z
        let name = try TimeZoneName(parsing: "Asia/Riyadh")
        #expect(try CivilDate(containing: instant, in: name) == (try CivilDate(containing: instant, in: name.timeZone)))
        #expect(try CivilDate(containing: instant, in: name) == (try CivilDate(parsing: "2026-11-30")))
    }
}
