import Foundation
import PrayCore
import PrayMocks
import Testing

/// The command `timetable import` tells a person to run next is one a shell reads as written, whatever
/// the mosque's name holds (spaces, quotes, `$`, a leading `-`).
@Suite struct MosqueHintTests {
    typealias Sandbox = MosqueTimetableCommandTests.Sandbox

    /// The words a POSIX shell makes of `line`, as `sh` itself splits them (one a line).
    static func shellWords(_ line: String) async throws -> [String] {
        let result = try await Shell.run("/bin/sh", ["-c", "printf '%s\\n' " + line])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test(arguments: ["East London Mosque", "Bait'ul \"Nur\" $HOME `id`", "-Masjid; rm -rf x", "مسجد النور"])
    func theHintIsOneShellWordForTheName(_ name: String) async throws {
        // Given: London saved, and a timetable imported under the name
        let sandbox = try Sandbox()
        for (key, value) in [("lat", "51.5074"), ("lon", "-0.1278"), ("tz", "Europe/London")] {
            #expect(try await sandbox.run(["config", "set", key, value]).status == 0)
        }
        let path = try sandbox.file("mosque.csv", Data(Sandbox.csv.utf8))
        let result = try await sandbox.run(["timetable", "import", path, "--mosque", name])
        #expect(result.status == 0, "\(result.stderr)")
        // When: the hint's command line is read by a shell
        let line = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("Use its times with: ") }?
                .dropFirst("Use its times with: ".count))
        let words = try await Self.shellWords(String(line))
        // Then: `praykit config set mosque` and the name, whole (after `--` when it starts with `-`)
        #expect(Array(words.prefix(4)) == ["praykit", "config", "set", "mosque"], "\(line)")
        #expect(words.last == name && words.count == (name.hasPrefix("-") ? 6 : 5), "\(line)")
        // And run as printed, it chooses the mosque
        let chosen = try await sandbox.run(Array(words.dropFirst()))
        #expect(chosen.status == 0, "\(chosen.stderr)")
    }
}
