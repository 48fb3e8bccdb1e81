import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// Every zone file of the system's tz database, given to `times`, `next` and the server's
/// `/v1/timings`, is read by the one parser: each names the same zone, with the same offset.
@Suite struct ZoneWalkTests {
    /// The names of the zone files under `/usr/share/zoneinfo`: every TZif file but the `posix/` and
    /// `right/` copies of the tree (the same zones again, the second counting leap seconds) and
    /// `localtime` and `posixrules`, which name the machine's zone and the default rules, not a zone.
    static func zoneFiles(root: String = "/usr/share/zoneinfo") -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var names: [String] = []
        while let path = walker.nextObject() as? String {
            if path.hasPrefix("posix") || path.hasPrefix("right") || ["localtime", "posixrules"].contains(path) {
                continue
            }
            guard let handle = FileHandle(forReadingAtPath: root + "/" + path) else { continue }
            defer { try? handle.close() }
            if (try? handle.read(upToCount: 4)) == Data("TZif".utf8) { names.append(path) }
        }
        return names.sorted()
    }

    @Test func everyZoneFileIsTheSameZoneInTimesNextAndTheServer() async throws {
        // Given: the system's zone files (Debian's tzdata has about 600)
        let zones = Self.zoneFiles()
        try #require(zones.count > 500, "the system's tz database is missing: apt-get install tzdata")
        let dependency = CLI.dependency()
        let routes = dependency.serverRoutes()
        let place = ["--lat", "21.4225", "--lon", "39.8262", "--date", "2027-01-15"]
        var failures: [String] = []
        for name in zones {
            // When
            let times = await CLI.run(["times"] + place + ["--tz", name, "--format", "json"], dependency: dependency)
            let next = await CLI.run(
                ["next", "--lat", "21.4225", "--lon", "39.8262", "--tz", name, "--format", "json"],
                dependency: dependency)
            let query =
                "latitude=21.4225&longitude=39.8262&method=4&timezonestring=\(name.replacingOccurrences(of: "+", with: "%2B"))"
            let answer = routes.respond(to: ServerAPI.Request(target: "/v1/timings/15-01-2027?" + query))
            // Then: the zone named, and fajr's offset, agree everywhere
            let timesZone = (try? CLI.json(times.stdout)["location"] as? [String: Any])?["timeZone"] as? String
            let nextZone = (try? CLI.json(next.stdout)["location"] as? [String: Any])?["timeZone"] as? String
            let body = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]) ?? [:]
            let data = body["data"] as? [String: Any]
            let serverZone = (data?["meta"] as? [String: Any])?["timezone"] as? String
            let fajr = ((try? CLI.json(times.stdout)["days"] as? [[String: Any]])?.first?["fajr"] as? String) ?? ""
            let expected = TimeZone(identifier: name).map { zone in
                LocalClock.offset(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_800_000_000)))
            }
            let fajrOffset = String(fajr.suffix(6)).replacingOccurrences(of: "Z", with: "+00:00")
            if times.status != 0 || next.status != 0 || answer.status != 200 || timesZone != name || nextZone != name
                || serverZone != name || expected.map({ fajrOffset == $0 }) != true
            {
                failures.append(
                    "\(name): times \(times.status) \(timesZone ?? "-") \(fajr), next \(next.status) \(nextZone ?? "-"), "
                        + "server \(answer.status) \(serverZone ?? "-") \(times.stderr)\(next.stderr)")
            }
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(zones.count) zones:\n\(failures.prefix(20).joined(separator: "\n"))")
    }
}
