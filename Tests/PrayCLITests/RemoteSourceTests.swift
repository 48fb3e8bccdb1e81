import Foundation
import PrayCore
import PrayMocks
import Testing

/// `praykit times --source aladhan` end to end: fetched from a local server, then served from the
/// cache when the server is gone.
@Suite struct RemoteSourceTests {
    /// A local AlAdhan server with Makkah's months (`/v1/calendar/YYYY/MM`).
    static func makkahServer() throws -> TestHTTPServer {
        let zone = TimeZone(identifier: "Asia/Riyadh")!
        let place = try Coordinates(latitude: 21.4225, longitude: 39.8262)
        return try TestHTTPServer { request in
            let parts = request.path.split(separator: "?")[0].split(separator: "/")
            guard parts.count == 4, let year = Int(parts[2]), let month = Int(parts[3]),
                let body = try? PublishedTimetableFixtures.aladhanMonth(
                    year: year, month: month, coordinates: place, timeZone: zone)
            else { return .respond(status: 404) }
            return .respond(status: 200, body: body)
        }
    }

    @Test func theCacheServesWhenTheServerIsGone() async throws {
        let server = try Self.makkahServer()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "praykit-remote-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["PRAYKIT_DATABASE": folder.appendingPathComponent("praykit.sqlite").path]
        let arguments = [
            "times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--date", "2026-11-10", "--days",
            "2",
            "--source", "aladhan", "--api-url", server.url().absoluteString, "--format", "json",
        ]
        // When fetched
        let fetched = try await PraykitProcess.run(arguments, environment: environment)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let first = try #require(try JSONSerialization.jsonObject(with: Data(fetched.stdout.utf8)) as? [String: Any])
        #expect(first["source"] as? String == "aladhan")
        #expect(((first["days"] as? [[String: Any]])?.first?["fajr"] as? String)?.hasPrefix("2026-11-10T0") == true)
        // and fetched again with the server gone
        server.goAway()
        let cached = try await PraykitProcess.run(arguments, environment: environment)
        #expect(cached.status == 0, "\(cached.stderr)")
        let second = try #require(try JSONSerialization.jsonObject(with: Data(cached.stdout.utf8)) as? [String: Any])
        // Then the same times come from the cache, with when they were fetched
        #expect(second["source"] as? String == "aladhan (cached)")
        #expect((second["sourceFetchedAt"] as? String)?.hasSuffix("Z") == true)
        #expect(
            (second["days"] as? [[String: Any]])?.first?["fajr"] as? String == (first["days"] as? [[String: Any]])?
                .first?["fajr"] as? String)
        let table = try await PraykitProcess.run(Array(arguments.dropLast(2)), environment: environment)
        #expect(table.stdout.contains("Source: aladhan (cached), fetched"))
        // A month never fetched is a clear runtime error.
        var other = arguments
        other[8] = "2027-03-01"
        let missing = try await PraykitProcess.run(other, environment: environment)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot fetch the aladhan timetable"))
        #expect(missing.stderr.contains("no copy"))
    }

    @Test func sourceFlagsAreChecked() async throws {
        for arguments in [
            ["--source", "nope"], ["--source", "london"], ["--api-url", "http://x"],
            ["--source", "aladhan", "--api-url", "ftp://x"],
        ] {
            let result = try await PraykitProcess.run(
                ["times", "--lat", "1", "--lon", "1"] + arguments, environment: ["PRAYKIT_API_KEY": ""])
            #expect(result.status == 64, "\(arguments)")
        }
    }
}
