import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

/// `praykit times --source`: a published timetable end to end — fetched from a local server, then
/// served from the cache when the server is gone — and in-process: a city's timetable only for its
/// place, the timeout and `--offline`, and what a refused plain-http URL suggests.
@Suite struct RemoteSourceTests {
    let makkah = ["times", "--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh", "--date", "2026-11-29"]

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

    @Test(.tags(.process, .binary, .server)) func theCacheServesWhenTheServerIsGone() async throws {
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

    @Test(.tags(.process, .binary)) func sourceFlagsAreChecked() async throws {
        for arguments in [
            ["--source", "nope"], ["--source", "london"], ["--api-url", "http://x"],
            ["--source", "aladhan", "--api-url", "ftp://x"],
        ] {
            let result = try await PraykitProcess.run(
                ["times", "--lat", "1", "--lon", "1"] + arguments, environment: ["PRAYKIT_API_KEY": ""])
            #expect(result.status == 64, "\(arguments)")
        }
    }

    // MARK: - In-process

    @Test func londonsTimetableRefusesOtherPlaces() async {
        let result = await CLI.run(
            makkah + ["--source", "london"], environment: ["TZ": "UTC", "PRAYKIT_API_KEY": "k"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("is London's"))
        #expect(result.stderr.contains("km from London"))
    }

    @Test func aTimetableServesOnlyItsOwnPlace() async {
        let london = await CLI.run(
            ["times", "--lat", "21.4225", "--lon", "39.8262", "--source", "london"],
            environment: ["TZ": "UTC", "PRAYKIT_API_KEY": "k"])
        #expect(london.status == 64)
        #expect(london.stderr.contains("km from London; use --source calculated or aladhan here"), "\(london.stderr)")
        #expect(london.configuration?.remoteTimetable?.baseURL == RemoteTimetable.Provider.london.defaultBaseURL)
    }

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

    @Test func theInsecureHTTPErrorSuggestsWhatTheToolCanDo() {
        let error = NetworkError(
            kind: .insecure, url: URL(fileURLWithPath: "/"), message: "plain http to example.com was refused")
        #expect(CLIError(error).message.contains("give --api-url an https:// URL"))
        #expect(!CLIError(error).message.contains("allow insecure"))
    }
}
