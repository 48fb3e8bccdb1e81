import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// Random command lines built from the command model — real commands and options with random,
/// empty, huge, negative, NaN and non-ASCII values, missing values and repeats — run in-process:
/// none may trap, every exit is 0, 1 or 64, and a failure starts with `Error:`.
@Suite struct FuzzTests {
    /// The seeded generator of the tests (SplitMix64), so that a failure can be replayed.
    typealias Generator = SeededGenerator

    static let strangeValues = [
        "", "-", "--", "0", "-0", "1", "-1", "1e400", "-1e-400", "nan", "NaN", "inf", "-inf", "0x10", "91", "-181",
        "3660", "3661", "60000", "9999999999999999999999", "2026-02-30", "2026-11-29", "0001-01-01", "9999-12-31",
        "1448-09-01", "1342-12-29", "12:00", "25:61", "fajr=2,isha=-3", "fajr=9999", "dhuhr=-400", "all", "isna",
        "custom", "3", "99", "Asia/Riyadh", "Europe/Lodnon", "+03:00", "local", "UTC", "مكة", "Köln", "👍",
        "a,b,c", " ", "\t", String(repeating: "x", count: 5000), "json", "csv", "table", "12h", "bash", "/dev/null",
        "/nonexistent/file", "shafi", "hanafi", "ahmer", "none", "up",
    ]

    static func value(for option: any OptionDefinition, _ random: inout Generator) -> String {
        if !option.choices.isEmpty, Bool.random(using: &random) {
            return option.choices.randomElement(using: &random) ?? ""
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return String(Double.random(in: -1000...1000, using: &random))
        case 1: return String(Int.random(in: -100_000...100_000, using: &random))
        default: return strangeValues.randomElement(using: &random) ?? ""
        }
    }

    static func commandLine(_ random: inout Generator) -> [String] {
        let paths = CommandModelTests.paths
        var path = paths.randomElement(using: &random) ?? []
        if Int.random(in: 0..<10, using: &random) == 0 { path = Array(path.prefix(1)) }
        var words = path.map { $0.name }
        let options = CommandModelTests.options(path) + GlobalOptions.definitions.filter { $0.name == "log-level" }
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            switch Int.random(in: 0..<12, using: &random) {
            case 0: words.append(strangeValues.randomElement(using: &random) ?? "")
            case 1: words.append("--" + (strangeValues.randomElement(using: &random) ?? ""))
            case 2:
                if let option = options.randomElement(using: &random) { words.append("--" + option.name) }
            default:
                guard let option = options.randomElement(using: &random) else { continue }
                let value = value(for: option, &random)
                if option.isFlag {
                    words.append("--" + option.name)
                } else if Bool.random(using: &random) {
                    words += ["--" + option.name, value]
                } else {
                    words.append("--\(option.name)=\(value)")
                }
            }
        }
        // The commands that run until stopped are bounded, as a script would bound them: the fake
        // clock's waits return at once, so an unbounded watch or daemon would never end.
        if words.first == NotifyCommand.name || words.first == MQTTCommand.name { words += ["--dry-run"] }
        if words.contains("--watch") { words += ["--updates", "3"] }
        return words
    }

    /// 2,000 in CI; `PRAYKIT_FUZZ_COUNT=100000 swift test --filter FuzzTests` for a long run (and
    /// `PRAYKIT_FUZZ_SEED` for another sequence).
    @Test func randomCommandLinesNeverTrap() async throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["PRAYKIT_FUZZ_COUNT"].flatMap { Int($0) } ?? 2_000
        var random = Generator(seed: environment["PRAYKIT_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_261_130)
        var exits: [Int32: Int] = [:]
        for index in 0..<count {
            let words = Self.commandLine(&random)
            let result = await CLI.run(words, dependency: CLI.dependency())
            exits[result.status, default: 0] += 1
            #expect([0, 1, 64].contains(result.status), "#\(index) \(words)")
            if result.status != 0 {
                #expect(result.stderr.hasPrefix("Error: "), "#\(index) \(words): \(result.stderr.prefix(200))")
            }
        }
        // The vectors reach both the work and the checks.
        #expect((exits[0] ?? 0) > count / 20)
        #expect((exits[64] ?? 0) > count / 4)
        print("fuzz: \(count) command lines, exits \(exits.sorted { $0.key < $1.key })")
    }
}
