import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// A tree three levels deep, to show that groups nest: `outer inner leaf`, with a default at each
/// group level.
private enum OuterGroup: CommandGroup {
    static let name = "outer"
    static let abstract = "A group of groups."
    static let subcommands: [any CommandNode.Type] = [InnerGroup.self, SiblingCommand.self]
}

private enum InnerGroup: CommandGroup {
    static let name = "inner"
    static let abstract = "A group inside a group."
    static let subcommands: [any CommandNode.Type] = [LeafCommand.self]
    static let defaultSubcommand: (any Command.Type)? = LeafCommand.self
}

private enum LeafCommand: Command {
    static let name = "leaf"
    static let abstract = "A command three levels down."
    static let count = Option("count", value: "n", help: "How many.", default: 2, range: 1...9)
    static let options: [any OptionDefinition] = [count]
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {}
}

private enum SiblingCommand: Command {
    static let name = "sibling"
    static let abstract = "A command beside the inner group."
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {}
}

@Suite struct CommandTreeTests {
    func resolve(_ words: [String]) throws(CLIError) -> ([String], CommandList.Resolution) {
        var path: [any CommandNode.Type] = []
        let resolution = try CommandList.resolve(words, path: &path, root: [OuterGroup.self])
        return (path.map { $0.name }, resolution)
    }

    @Test func groupsNestToAnyDepth() throws {
        // A verb three levels down, with its options after it
        let (leaf, resolved) = try resolve(["outer", "inner", "leaf", "--count", "3"])
        #expect(leaf == ["outer", "inner", "leaf"])
        #expect(resolved.consumed == 3 && resolved.command == LeafCommand.self)
        let arguments = try ParsedArguments(["--count", "3"], for: LeafCommand.self)
        #expect(arguments[LeafCommand.count] == 3)
        #expect(throws: CLIError.usage("--count must be between 1 and 9, got 10")) {
            try ParsedArguments(["--count", "10"], for: LeafCommand.self)
        }
        // A group's default verb runs when none is named; its help is the group's
        let (fallback, byDefault) = try resolve(["outer", "inner", "--count", "4"])
        #expect(fallback == ["outer", "inner", "leaf"] && byDefault.consumed == 2)
        #expect(byDefault.helpPath.map { $0.name } == ["outer", "inner"])
        // A group without a default needs its verb
        let (group, needsVerb) = try resolve(["outer"])
        #expect(group == ["outer"] && needsVerb.command == nil)
        #expect(throws: CLIError.usage("Unknown subcommand 'lef' of 'outer inner'; did you mean 'leaf'?")) {
            _ = try resolve(["outer", "inner", "lef"])
        }
    }

    @Test func helpAndUsageFollowTheTree() {
        let path: [any CommandNode.Type] = [OuterGroup.self, InnerGroup.self]
        let help = HelpText.render(path)
        #expect(help.contains("USAGE: praykit outer inner [<subcommand>]"))
        #expect(help.contains("OPTIONS (of 'leaf', the default):"))
        #expect(help.contains("--count <n>") && help.contains("(1…9)") && help.contains("(default: 2)"))
        #expect(help.contains("leaf                      A command three levels down. (default)"))
        #expect(HelpText.render([OuterGroup.self]).contains("USAGE: praykit outer <subcommand>"))
        #expect(HelpText.usage(path + [LeafCommand.self]) == "praykit outer inner leaf [<options>]")
    }
}
