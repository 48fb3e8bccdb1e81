import Foundation
import PrayMocks
import Testing

/// `praykit` itself: help and the version on standard output, an unknown subcommand, and `methods`.
@Suite struct GeneralCommandTests {
    @Test(.tags(.process, .binary)) func helpGoesToStandardOutput() async throws {
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

    @Test(.tags(.process, .binary)) func versionPrintsTheVersion() async throws {
        let result = try await PraykitProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("praykit "))
    }

    @Test(.tags(.process, .binary)) func unknownSubcommandIsAUsageError() async throws {
        let result = try await PraykitProcess.run(["pray"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Unknown subcommand 'pray'"))
    }

    @Test(.tags(.process, .binary)) func methodsListsEveryPreset() async throws {
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

    @Test(arguments: [["help", "--help"], ["-v"], ["-V"], ["--version"], ["help", "config", "set"]])
    func helpAndVersionWork(arguments: [String]) async {
        let result = await CLI.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
    }
}
