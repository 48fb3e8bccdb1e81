/// The one tree of commands. Help, the man page, completions, dispatch and the fuzz test all read
/// it; a command is one file in its group's folder under `Commands/` (`Config/ConfigSetCommand.swift`)
/// plus one line here or in its group's `subcommands` (a test fails when a command type is not
/// reachable).
enum CommandList {
    /// The commands under `praykit`.
    static let all: [any CommandNode.Type] = [
        TimesCommand.self,
        NextCommand.self,
        CalendarCommand.self,
        TimetableCommand.self,
        MosqueCommand.self,
        NotifyCommand.self,
        MQTTCommand.self,
        MethodsCommand.self,
        QiblaCommand.self,
        PlacesCommand.self,
        HijriCommand.self,
        ConfigCommand.self,
        LogCommand.self,
        QadaCommand.self,
        FastCommand.self,
        SyncCommand.self,
        ExportCommand.self,
        ImportCommand.self,
        ServeCommand.self,
        DisplayCommand.self,
        CompletionsCommand.self,
        ManCommand.self,
        HelpCommand.self,
    ]

    /// Where the words of a command line lead in the tree.
    struct Resolution {
        /// The command to run: the last word's, or its group's default; `nil` for a group without a
        /// default.
        let command: (any Command.Type)?
        /// How many words named the path.
        let consumed: Int
        /// The path whose help `--help` shows: a group's own when its default runs.
        let helpPath: [any CommandNode.Type]
    }

    /// Follows the words of `arguments` down the tree: a command stops the walk; a group takes the
    /// next word when it names one of its subcommands, else runs its default subcommand. `path`
    /// receives every node named (and a group's default), for usage lines.
    /// - Parameter root: The commands under `praykit` (``all``; tests give trees of their own).
    /// - Throws: ``CLIError`` (usage) for an unknown command or verb, with the closest name.
    static func resolve(
        _ arguments: [String], path: inout [any CommandNode.Type], root: [any CommandNode.Type] = all
    ) throws(CLIError) -> Resolution {
        var nodes = root
        var index = 0
        while true {
            let word = index < arguments.count ? arguments[index] : nil
            if let word, let node = nodes.first(where: { $0.names.contains(word) }) {
                path.append(node)
                index += 1
                if let command = node.asCommand {
                    return Resolution(command: command, consumed: index, helpPath: path)
                }
                nodes = node.asGroup?.subcommands ?? []
                continue
            }
            guard let group = path.last?.asGroup else {
                let first = word ?? ""
                if ParsedArguments.isOption(first) {
                    throw .usage(
                        "Unknown option '\(first)'" + Suggestion.didYouMean(first, among: ["--help", "--version"]))
                }
                throw .usage(
                    "Unknown subcommand '\(first)'" + Suggestion.didYouMean(first, among: root.flatMap { $0.names }))
            }
            let takesWord = word.map(ParsedArguments.isOption) ?? true
            if let fallback = group.defaultSubcommand, takesWord || !fallback.arguments.isEmpty {
                let helpPath = path
                path.append(fallback)
                return Resolution(command: fallback, consumed: index, helpPath: helpPath)
            }
            if let word, !ParsedArguments.isOption(word) {
                let verbs = group.subcommands.flatMap { $0.names }
                let name = words(path)
                throw .usage("Unknown subcommand '\(word)' of '\(name)'" + Suggestion.didYouMean(word, among: verbs))
            }
            return Resolution(command: nil, consumed: index, helpPath: path)
        }
    }

    /// The names of a path, as typed: `config set`. Not `joined(separator:)`, whose generic code makes
    /// the runtime look up conformances at every start.
    static func words(_ path: [any CommandNode.Type]) -> String {
        var text = ""
        for node in path { text += text.isEmpty ? node.name : " " + node.name }
        return text
    }

    /// The path named by `words` (`["config", "set"]`), or empty when they name none.
    static func path(named words: [String]) -> [any CommandNode.Type] {
        var path: [any CommandNode.Type] = []
        _ = try? resolve(words, path: &path)
        return path.count == words.count ? path : []
    }

    /// Every path of the tree, parents before children: `[times]`, `[config]`, `[config, set]`, ….
    static var paths: [[any CommandNode.Type]] {
        func expand(_ path: [any CommandNode.Type]) -> [[any CommandNode.Type]] {
            let children = path.last?.asGroup?.subcommands ?? []
            return [path] + children.flatMap { expand(path + [$0]) }
        }
        return all.flatMap { expand([$0]) }
    }
}
