import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

@testable import PrayCLI

#if canImport(Glibc)
    import Glibc
#endif

/// Where the published timetable's API key comes from: never the command line (refused, naming the
/// ways to pass it, without repeating it), a file of the user's alone, or the environment.
@Suite struct APIKeyTests {
    @Test func anAPIKeyOnTheCommandLineIsRefusedWithTheWaysToPassIt() async throws {
        let london = ["times", "--lat", "51.5074", "--lon", "-0.1278", "--source", "london"]
        let result = await CLI.run(london + ["--api-key", "SECRET"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("PRAYKIT_API_KEY") && result.stderr.contains("--api-key-file"), "\(result.stderr)")
        #expect(!result.stderr.contains("SECRET"))
    }

    @Test func anAPIKeyFileMustBeTheUsersAlone() async throws {
        let folder = try TestFolder("key")
        defer { withExtendedLifetime(folder) {} }
        let file = folder.url.appendingPathComponent("key")
        try Data("SECRET-KEY\n".utf8).write(to: file)
        let london = [
            "times", "--lat", "51.5074", "--lon", "-0.1278", "--source", "london", "--api-key-file", file.path,
        ]
        // (the published timetable's service: the calculation, so that the command completes)
        var dependency = CLI.dependency()
        dependency.remotePrayers = dependency.prayers
        // A file others may read is refused, and says how to fix it
        chmod(file.path, 0o644)
        let open = await CLI.run(london, dependency: dependency)
        #expect(open.status == 1)
        #expect(open.stderr.contains("chmod 600"), "\(open.stderr)")
        // A file of the user's alone gives the key, and wins over the environment
        chmod(file.path, 0o600)
        let private_ = await CLI.run(london, dependency: dependency, environment: ["PRAYKIT_API_KEY": "FROM-ENV"])
        #expect(private_.status == 0, "\(private_.stderr)")
        #expect(private_.configuration?.remoteTimetable?.apiKey == "SECRET-KEY")
        // The environment still works
        let environment = await CLI.run(
            Array(london.dropLast(2)), dependency: dependency,
            environment: ["TZ": "UTC", "PRAYKIT_API_KEY": "FROM-ENV"])
        #expect(environment.configuration?.remoteTimetable?.apiKey == "FROM-ENV")
    }
}
