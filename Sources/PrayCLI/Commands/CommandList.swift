/// The one list of commands. Help, the man page, completions, dispatch and the fuzz test all read
/// it; a command is one file in `Commands/` plus one line here (a test fails when a command type is
/// not listed).
enum CommandList {
    static let all: [any Command.Type] = [
        TimesCommand.self,
        NextCommand.self,
        CalendarCommand.self,
        NotifyCommand.self,
        MethodsCommand.self,
        QiblaCommand.self,
        PlacesCommand.self,
        HijriCommand.self,
        ConfigCommand.self,
        LogCommand.self,
        ExportCommand.self,
        ImportCommand.self,
        ServeCommand.self,
        CompletionsCommand.self,
        ManCommand.self,
        HelpCommand.self,
    ]

    /// The command path that `arguments` start with: the command, then a verb if the command has
    /// verbs and the next argument names one.
    /// - Throws: ``CLIError`` (usage) for an unknown command or verb, with the closest name.
    static func resolve(_ arguments: [String]) throws(CLIError) -> [any Command.Type] {
        guard let first = arguments.first else { return [] }
        guard let command = all.first(where: { $0.names.contains(first) }) else {
            if ParsedArguments.isOption(first) {
                throw .usage(
                    "Unknown option '\(first)'" + Suggestion.didYouMean(first, among: ["--help", "--version"]),
                    command: "")
            }
            throw .usage(
                "Unknown subcommand '\(first)'" + Suggestion.didYouMean(first, among: all.flatMap { $0.names }),
                command: "")
        }
        guard !command.subcommands.isEmpty, arguments.count > 1, !ParsedArguments.isOption(arguments[1]) else {
            return [command]
        }
        let word = arguments[1]
        if let verb = command.subcommands.first(where: { $0.names.contains(word) }) { return [command, verb] }
        if command.runsWithoutSubcommand, !command.arguments.isEmpty { return [command] }
        let verbs = command.subcommands.flatMap { $0.names }
        throw .usage(
            "Unknown subcommand '\(word)' of '\(command.name)'" + Suggestion.didYouMean(word, among: verbs),
            command: command.name)
    }

    /// The command path named `path` (`config set`), or empty.
    static func path(named path: String) -> [any Command.Type] {
        let words = path.split(separator: " ").map(String.init)
        return (try? resolve(words)) ?? []
    }
}
