import Foundation
import PrayCore
import Testing

/// The tz database read directly: the TZif reader (RFC 8536) and the rule of a file's footer (a POSIX
/// `TZ` string), on bytes made here and on every zone file of the system.
@Suite struct ZoneDatabaseTests {
    // MARK: - The footer's rule

    /// Unix seconds of a UTC date and time.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int64 {
        let date = try? CivilDate(year: year, month: month, day: day)
        return Int64((date?.daysSince1970 ?? 0) * 86_400 + hour * 3600 + minute * 60)
    }

    static func rule(_ text: String) -> POSIXZoneRule? { POSIXZoneRule(Substring(text).utf8) }

    @Test func londonsRuleChangesOnTheLastSundays() throws {
        // Given: British time's footer; 2041 changes on 31 March and 27 October, at 01:00 UTC
        let rule = try #require(Self.rule("GMT0BST,M3.5.0/1,M10.5.0"))
        // Then: GMT before the change, BST after it, and each period says when it ends
        #expect(rule.period(at: Self.utc(2041, 3, 31, 0, 59)).offset == 0)
        #expect(rule.period(at: Self.utc(2041, 3, 31, 0, 59)).until == Self.utc(2041, 3, 31, 1))
        #expect(rule.period(at: Self.utc(2041, 3, 31, 1)).offset == 3600)
        #expect(rule.period(at: Self.utc(2041, 7, 1)).until == Self.utc(2041, 10, 27, 1))
        #expect(rule.period(at: Self.utc(2041, 10, 27, 1)).offset == 0)
        #expect(rule.period(at: Self.utc(2041, 12, 1)).from == Self.utc(2041, 10, 27, 1))
        #expect(rule.period(at: Self.utc(2041, 12, 31, 23)).until == Self.utc(2042, 3, 30, 1))
    }

    @Test func aZoneWithoutDaylightTimeKeepsItsOffsetForever() throws {
        let rule = try #require(Self.rule("<+0330>-3:30"))
        #expect(rule.period(at: Self.utc(2100, 6, 1)) == (12_600, nil, nil))
        #expect(rule.daylight == nil)
        #expect(try #require(Self.rule("EST5")).period(at: 0) == (-18_000, nil, nil))
    }

    @Test func southernAndNegativeDaylightTime() throws {
        // Sydney: daylight time from October to April, across the year's end
        let sydney = try #require(Self.rule("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        #expect(sydney.period(at: Self.utc(2040, 1, 15)).offset == 39_600)
        #expect(sydney.period(at: Self.utc(2040, 6, 15)).offset == 36_000)
        // 2040-04-01 is a Sunday: 03:00 AEDT is 16:00 UTC the day before
        #expect(sydney.period(at: Self.utc(2040, 1, 15)).until == Self.utc(2040, 3, 31, 16))
        // Dublin: standard time (IST, +1) in summer, "daylight" time GMT in winter
        let dublin = try #require(Self.rule("IST-1GMT0,M10.5.0,M3.5.0/1"))
        #expect(dublin.period(at: Self.utc(2040, 1, 15)).offset == 0)
        #expect(dublin.period(at: Self.utc(2040, 7, 15)).offset == 3600)
    }

    @Test func transitionTimesBeyondTheDayAndBeforeIt() throws {
        // Nuuk (RFC 8536's version 3): −02:00 from the last Sunday of March at −01:00 local time
        let nuuk = try #require(Self.rule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
        // 2041-03-31 is a Sunday; −01:00 that day on −02:00's clock is 2041-03-31T01:00Z
        #expect(nuuk.period(at: Self.utc(2041, 3, 1)).until == Self.utc(2041, 3, 31, 1))
        // Daylight time all year (RFC 8536 §3.3.1's example): it never ends
        let always = try #require(Self.rule("EST5EDT,0/0,J365/25"))
        #expect(always.period(at: Self.utc(2041, 1, 1, 12)).offset == -14_400)
        #expect(always.period(at: Self.utc(2041, 12, 31, 23)).offset == -14_400)
        #expect(always.period(at: Self.utc(2041, 1, 1, 4, 59)).offset == -14_400)
    }

    @Test func julianDaysSkipTheLeapDayAndZeroBasedDaysCountIt() throws {
        // J60 is 1 March in every year; 59 (zero-based) is 29 February in a leap year, 1 March otherwise
        let julian = try #require(Self.rule("AAA0BBB,J60/0,J300/0"))
        #expect(julian.period(at: Self.utc(2040, 2, 29, 12)).offset == 0)
        #expect(julian.period(at: Self.utc(2040, 3, 1, 0)).offset == 3600)
        let zeroBased = try #require(Self.rule("AAA0BBB,59/0,300/0"))
        #expect(zeroBased.period(at: Self.utc(2040, 2, 28, 23)).offset == 0)
        #expect(zeroBased.period(at: Self.utc(2040, 2, 29, 0)).offset == 3600)
        #expect(zeroBased.period(at: Self.utc(2041, 2, 28, 23)).offset == 0)
        #expect(zeroBased.period(at: Self.utc(2041, 3, 1, 0)).offset == 3600)
    }

    @Test(arguments: [
        "", "G", "GMT", "GMT0BST,M3.5.0", "GMT0BST,M13.1.0,M10.5.0", "GMT0BST,M3.6.0,M10.5.0",
        "GMT0BST,J366,J300", "<+03", "<+3>-3", "GMT25", "GMT0BST,M3.5.0/168,M10.5.0", "GMT0 ",
    ])
    func textThatIsNoRule(_ text: String) {
        #expect(Self.rule(text) == nil)
    }

    // MARK: - TZif files

    /// A TZif file of `version` (1 writes the 32-bit block only) with these transitions, types and footer.
    static func tzif(
        version: UInt8, transitions: [(Int64, UInt8)], types: [Int32], footer: String = "", leap: Int = 0
    ) -> [UInt8] {
        func header(_ timeCount: Int) -> [UInt8] {
            var bytes =
                Array("TZif".utf8) + [version == 1 ? 0 : UInt8(ascii: "0") + version] + Array(repeating: 0, count: 15)
            for count in [0, 0, leap, timeCount, types.count, 4] { bytes += be(Int64(count), 4) }
            return bytes
        }
        func be(_ value: Int64, _ size: Int) -> [UInt8] {
            (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
        }
        func block(_ size: Int, _ list: [(Int64, UInt8)]) -> [UInt8] {
            var bytes = header(list.count)
            for (time, _) in list { bytes += be(time, size) }
            bytes += list.map(\.1)
            for offset in types { bytes += be(Int64(offset), 4) + [0, 0] }
            bytes += Array("LMT\0".utf8)
            for _ in 0..<leap { bytes += be(0, size) + be(0, 4) }
            return bytes
        }
        let small = transitions.filter { Int64(Int32.min)...Int64(Int32.max) ~= $0.0 }
        guard version >= 2 else { return block(4, small) }
        return block(4, small) + block(8, transitions) + Array("\n\(footer)\n".utf8)
    }

    static func zone(_ bytes: [UInt8]) -> TZifZone? { bytes.withUnsafeBytes { TZifZone($0) } }

    @Test(arguments: [UInt8(2), 3, 4])
    func versionsTwoToFourReadTheSixtyFourBitDataAndTheFooter(_ version: UInt8) throws {
        // Given: local mean time until 1847 (before the 32-bit range), GMT, then the footer's rule
        let bytes = Self.tzif(
            version: version, transitions: [(-3_852_662_325, 1), (Self.utc(2037, 3, 29, 1), 2)],
            types: [-75, 0, 3600], footer: "GMT0BST,M3.5.0/1,M10.5.0")
        let zone = try #require(Self.zone(bytes))
        // Then: time type 0 before the first transition, the table, then the footer after the last
        #expect(zone.period(at: -4_000_000_000) == (-75, nil, -3_852_662_325))
        #expect(zone.period(at: Self.utc(2000, 1, 1)) == (0, -3_852_662_325, Self.utc(2037, 3, 29, 1)))
        #expect(zone.period(at: Self.utc(2037, 6, 1)).offset == 3600)
        #expect(zone.period(at: Self.utc(2037, 6, 1)).until == Self.utc(2037, 10, 25, 1))
        #expect(zone.period(at: Self.utc(2099, 1, 1)).offset == 0)
    }

    @Test func versionOneHasNoFooterTheLastOffsetHolds() throws {
        let bytes = Self.tzif(version: 1, transitions: [(0, 1), (86_400, 0)], types: [3600, 7200])
        let zone = try #require(Self.zone(bytes))
        #expect(zone.period(at: -1) == (3600, nil, 0))
        #expect(zone.period(at: 10) == (7200, 0, 86_400))
        #expect(zone.period(at: Self.utc(2200, 1, 1)) == (3600, 86_400, nil))
    }

    @Test func transitionsThatKeepTheOffsetAreStepsWithin() throws {
        // A change of name or of daylight flag only: the offset's period runs on to the real change
        let bytes = Self.tzif(version: 2, transitions: [(0, 1), (100, 2), (200, 0)], types: [0, 3600, 3600])
        let zone = try #require(Self.zone(bytes))
        #expect(zone.period(at: 50) == (3600, 0, 200))
        #expect(zone.period(at: 150) == (3600, 0, 200))
    }

    @Test func damagedFilesAreRefused() {
        let good = Self.tzif(version: 2, transitions: [(0, 1), (100, 0)], types: [0, 3600], footer: "AAA0")
        #expect(Self.zone(good) != nil)
        // Truncated anywhere, a wrong magic, a type out of range, times out of order, leap seconds
        for length in [0, 10, 44, 60, good.count - 8] { #expect(Self.zone(Array(good.prefix(length))) == nil) }
        var magic = good
        magic[0] = UInt8(ascii: "X")
        #expect(Self.zone(magic) == nil)
        #expect(Self.zone(Self.tzif(version: 2, transitions: [(0, 5)], types: [0])) == nil)
        #expect(Self.zone(Self.tzif(version: 2, transitions: [(100, 0), (0, 0)], types: [0])) == nil)
        #expect(Self.zone(Self.tzif(version: 2, transitions: [], types: [0], leap: 1)) == nil)
        #expect(Self.zone(Self.tzif(version: 2, transitions: [], types: [0], footer: "not a rule")) == nil)
        #expect(Self.zone(Self.tzif(version: 2, transitions: [], types: [100_000])) == nil)
    }

    @Test func namesThatAreNotZoneFilesAreNotOpened() {
        let database = ZoneDatabase(folders: ["/usr/share/zoneinfo"])
        for name in ["", "/etc/passwd", "../../etc/passwd", "Europe/../../etc/passwd", "Europe/London\0", "Europe"] {
            #expect(database.zone(named: name) == nil, "\(name)")
        }
    }

    // MARK: - The system's zone files

    /// Every zone file of the system, as the zone walk test finds them.
    static func zoneNames() -> [String] {
        let root = "/usr/share/zoneinfo"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var names: [String] = []
        while let path = walker.nextObject() as? String {
            if path.hasPrefix("posix") || path.hasPrefix("right") || ["localtime", "posixrules"].contains(path) {
                continue
            }
            if FileManager.default.contents(atPath: root + "/" + path)?.starts(with: Array("TZif".utf8)) == true {
                names.append(path)
            }
        }
        return names.sorted()
    }

    @Test func everyZoneFilesFooterAgreesWithItsOwnTable() throws {
        // Given: the system's files, whose tables run to 2037 where the footer's rule takes over (zones
        // whose changes follow no rule, Morocco's and Palestine's around Ramadan, list them to 2087)
        let names = Self.zoneNames()
        try #require(names.count > 500, "the system's tz database is missing: apt-get install tzdata")
        var failures: [String] = []
        for name in names {
            let zone = try #require(ZoneDatabase.system.zone(named: name), "\(name) was not read")
            guard let footer = zone.footer, let last = zone.transitions.last,
                (Self.utc(2037, 1, 1)..<Self.utc(2038, 1, 1)).contains(last)
            else { continue }
            // When: the rule is asked about every day of the years its table also states
            var instant = Self.utc(2025, 1, 1, 12)
            while instant < last {
                // Then: the same offset
                let table = zone.period(at: instant).offset
                if footer.period(at: instant).offset != table {
                    failures.append(
                        "\(name) at \(instant): table \(table), footer \(footer.period(at: instant).offset)")
                    break
                }
                instant += 86_400
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
    }

    /// Whether the system's tz database is the release of Foundation's (ICU's) data: different releases
    /// disagree where zones changed between them.
    static var sameReleaseAsFoundation: Bool {
        let release = (try? String(contentsOfFile: "/usr/share/zoneinfo/tzdata.zi", encoding: .utf8))?
            .split(separator: "\n").first.map { String($0.dropFirst("# version ".count)) }
        return release == TimeZone.timeZoneDataVersion
    }

    @Test(
        .enabled(
            if: sameReleaseAsFoundation, "the system's tz database is not the release of Foundation's (ICU's) data"))
    func everyZoneFileAgreesWithFoundationSince1970() throws {
        // Given: the system's zone files and Foundation's zones (ICU's data), of the same tz release
        let names = Self.zoneNames()
        try #require(names.count > 500, "the system's tz database is missing: apt-get install tzdata")
        // tzdata 2024b made these old names links (WET is Europe/Lisbon's, EET Europe/Athens's); ICU's
        // data keeps their former rules. Before 1970 about a hundred zones differ the same way (ICU keeps
        // the history of zones that the system's files link to others).
        let redefined: Set = ["EET", "WET"]
        var failures: [String] = []
        for name in names where !redefined.contains(name) {
            guard let foundation = TimeZone(identifier: name) else { continue }
            let zone = try #require(ZoneDatabase.system.zone(named: name))
            // When: at every transition Foundation knows from 1970 to 2100, and a second before it
            var date = Date(timeIntervalSince1970: 0)
            if foundation.secondsFromGMT(for: date) != zone.period(at: 0).offset {
                failures.append("\(name) at 1970")
            }
            while let next = foundation.nextDaylightSavingTimeTransition(after: date),
                next.timeIntervalSince1970 < 4_102_444_800
            {
                let at = Int64(next.timeIntervalSince1970)
                let before = zone.period(at: at - 1)
                // Then: the same offsets on both sides, and the period before ends there
                if before.offset != foundation.secondsFromGMT(for: next.addingTimeInterval(-1))
                    || zone.period(at: at).offset != foundation.secondsFromGMT(for: next)
                    || (before.offset != zone.period(at: at).offset && before.until != at)
                {
                    failures.append("\(name) at \(next)")
                    break
                }
                date = next
            }
        }
        #expect(failures.isEmpty, "\(failures.count) zones:\n\(failures.prefix(20).joined(separator: "\n"))")
    }
}
