import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// The command model: one list, and help, completions and the man page generated from it.
@Suite struct CommandModelTests {
    /// Every path of the tree.
    static var paths: [[any CommandNode.Type]] { CommandList.paths }

    /// The options of a path's node: a command's, or a group's default's.
    static func options(_ path: [any CommandNode.Type]) -> [any OptionDefinition] {
        (path.last?.asCommand ?? path.last?.asGroup?.defaultSubcommand)?.options ?? []
    }

    @Test func everyCommandTypeIsInTheList() throws {
        // Given: the command types declared in Sources/PrayCLI/Commands (a folder per group).
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/PrayCLI/Commands")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var declared: Set<String> = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /(?:struct|enum) (\w+): (?:Command|CommandGroup)\b/) {
                declared.insert(String(match.output.1))
            }
        }
        // When
        let listed = Set(Self.paths.compactMap { $0.last.map { String(describing: $0) } })
        // Then: a command file without its line in CommandList fails here.
        #expect(declared.count >= 20)
        #expect(
            declared == listed,
            "not listed: \(declared.subtracting(listed)); not declared: \(listed.subtracting(declared))")
    }

    @Test func commandFilesDeclareEachDefaultOnceAndNoMissingMessage() throws {
        // Given: the command files
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/PrayCLI/Commands")
        for file in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            // Then: "missing" errors come from the declarations, not from the commands…
            #expect(!text.contains("Missing expected"), "\(file) writes a missing-argument message by hand")
            // …a default is the declaration's, never a second literal where the value is read…
            #expect(
                text.firstMatch(of: /arguments\[[A-Za-z.]+\] \?\? [0-9"\[.]/) == nil,
                "\(file) repeats a default where it reads an option")
            // …and options are typed, not text parsed again.
            #expect(!text.contains("default: \""), "\(file) gives a default as text")
        }
    }

    @Test func namesAndOptionsAreUnique() {
        let names = CommandList.all.flatMap { $0.names }
        #expect(Set(names).count == names.count)
        for path in Self.paths {
            guard let node = path.last else { continue }
            let options = Self.options(path).map { $0.name } + GlobalOptions.definitions.map { $0.name }
            #expect(Set(options).count == options.count, "\(node.name)")
            #expect(!node.abstract.isEmpty)
            let verbs = node.asGroup?.subcommands.flatMap { $0.names } ?? []
            #expect(Set(verbs).count == verbs.count, "\(node.name)")
        }
    }

    @Test func everyNodeIsACommandOrAGroupAsItsConformanceSays() {
        // The tree asks a node what it is (`asCommand`, `asGroup`) instead of casting: both must agree
        // with the conformances, and a node is exactly one of the two.
        for path in Self.paths {
            guard let node = path.last else { continue }
            #expect((node.asCommand != nil) == (node is any Command.Type), "\(node.name)")
            #expect((node.asGroup != nil) == (node is any CommandGroup.Type), "\(node.name)")
            #expect((node.asCommand != nil) != (node.asGroup != nil), "\(node.name)")
        }
    }

    @Test func everyCommandHasHelpOnStandardOutput() async {
        for path in Self.paths {
            let words = path.map { $0.name }
            let result = await CLI.run(words + ["--help"])
            #expect(result.status == 0, "\(words)")
            #expect(result.stdout.hasPrefix("OVERVIEW: "), "\(words)")
            #expect(result.stdout.contains("USAGE: praykit \(words.joined(separator: " "))"), "\(words)")
            for option in Self.options(path) { #expect(result.stdout.contains("--\(option.name)"), "\(words)") }
            let viaHelp = await CLI.run(["help"] + words)
            #expect(viaHelp.stdout == result.stdout)
        }
        let root = await CLI.run([])
        for command in CommandList.all { #expect(root.stdout.contains("  \(command.name)")) }
    }

    @Test func aUsageErrorShowsTheUsageOfItsCommand() async {
        let result = await CLI.run(["config", "set", "method"])
        #expect(result.status == 64)
        #expect(
            result.stderr == """
                Error: Missing expected argument '<value>'
                Usage: praykit config set <key> <value>
                  See 'praykit config set --help' for more information.

                """)
    }

    @Test func oldSpellingsKeepWorking() async {
        let old = await CLI.run(["hijri", "--to-gregorian", "1448-09-01"])
        let new = await CLI.run(["hijri", "convert", "1448-09-01"])
        #expect(old.status == 0 && old.stdout == new.stdout)
        let oldMonth = await CLI.run(["hijri", "--month", "1448-09"])
        let newMonth = await CLI.run(["hijri", "month", "1448-09"])
        #expect(oldMonth.stdout == newMonth.stdout)
        let oldDays = await CLI.run(["hijri", "--date", "2027-02-06", "--days", "3"])
        let newDays = await CLI.run(["hijri", "days", "--date", "2027-02-06", "--days", "3"])
        #expect(oldDays.stdout == newDays.stdout && oldDays.stdout.contains("1448-09-01"))
    }

    @Test(.tags(.process)) func bashAcceptsTheCompletionScript() async throws {
        // Given
        let script = await CLI.run(["completions", "bash"]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-completion-\(UUID()).bash")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // When: bash parses it, registers it, and completes a command, an option and a value.
        let probe = """
            set -e
            bash -n '\(file.path)'
            source '\(file.path)'
            complete -p praykit
            COMP_WORDS=(praykit tim); COMP_CWORD=1; _praykit; echo "words: ${COMPREPLY[*]}"
            COMP_WORDS=(praykit times --mad); COMP_CWORD=2; _praykit; echo "options: ${COMPREPLY[*]}"
            COMP_WORDS=(praykit times --madhab ha); COMP_CWORD=3; _praykit; echo "values: ${COMPREPLY[*]}"
            COMP_WORDS=(praykit times --method umm); COMP_CWORD=3; _praykit; echo "methods: ${COMPREPLY[*]}"
            COMP_WORDS=(praykit config s); COMP_CWORD=2; _praykit; echo "verbs: ${COMPREPLY[*]}"
            """
        let result = try await Shell.run("/bin/bash", ["-c", probe])
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("complete -F _praykit praykit"))
        #expect(result.stdout.contains("words: times"))
        #expect(result.stdout.contains("options: --madhab"))
        #expect(result.stdout.contains("values: hanafi"))
        #expect(result.stdout.contains("methods: umm-al-qura"))
        #expect(result.stdout.contains("verbs: set"))
    }

    @Test func zshAndFishScriptsNameEveryCommand() async {
        for shell in ["zsh", "fish"] {
            let script = await CLI.run(["completions", shell]).stdout
            for command in CommandList.all { #expect(script.contains(command.name), "\(shell) \(command.name)") }
            #expect(script.contains("moonsighting-committee"))
        }
        let unknown = await CLI.run(["completions", "tcsh"])
        #expect(unknown.status == 64)
    }

    @Test(.tags(.process), .needsMan) func manRendersTheManualPage() async throws {
        // Given
        let page = await CLI.run(["help", "--man"]).stdout
        #expect(page == (await CLI.run(["man"])).stdout)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-\(UUID()).1")
        try page.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // When
        let result = try await Shell.run(
            "/usr/bin/man", ["-l", file.path], environment: ["MANWIDTH": "100", "MAN_KEEP_FORMATTING": ""])
        // Then: man renders it without a warning, with every command and the exit codes.
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        for command in CommandList.all { #expect(result.stdout.contains("praykit \(command.name)")) }
        #expect(result.stdout.contains("EXIT STATUS"))
        #expect(result.stdout.contains("--high-latitude-rule"))
    }

    @Test(.tags(.process)) func completionsOfferKeysAndShellsAndHelpOnce() async throws {
        let script = await CLI.run(["completions", "bash"]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-completion-\(UUID()).bash")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let probe = """
            source '\(file.path)'
            COMP_WORDS=(praykit config set hij); COMP_CWORD=3; _praykit; echo "keys: ${COMPREPLY[*]}"
            COMP_WORDS=(praykit completions z); COMP_CWORD=2; _praykit; echo "shells: ${COMPREPLY[*]}"
            COMP_WORDS=(praykit hel); COMP_CWORD=1; _praykit; echo "help: ${COMPREPLY[*]}"
            """
        let result = try await Shell.run("/bin/bash", ["-c", probe])
        #expect(result.stdout.contains("keys: hijri-calendar hijri-offset"), "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("shells: zsh"))
        #expect(result.stdout.contains("help: help\n"))
        #expect(
            await CLI.run(["completions", "--help"]).stdout.contains("USAGE: praykit completions <shell> | --zones"))
    }

    @Test(.tags(.process), .needsMan) func theManualRendersInTheCLocale() async throws {
        let page = await CLI.run(["man"]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-\(UUID()).1")
        try page.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Shell.run(
            "/usr/bin/man", ["-l", file.path], environment: ["LANG": "C", "LC_ALL": "C", "MANWIDTH": "200"])
        #expect(result.stdout.contains("(-90...90 degrees)"), "\(result.stderr)")
    }
}
