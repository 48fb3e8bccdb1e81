/// `praykit help [<subcommand> …]`: the help of a command, or (`--man`) the manual page.
enum HelpCommand: Command {
    static let name = "help"
    static let abstract = "Show help for a subcommand (or the manual page with --man)."
    static let examples = ["praykit help times", "praykit help config set", "praykit help --man | man -l -"]
    static let subcommand = Argument<String>("subcommand", help: "The command to explain.", variadic: true)
    static let arguments: [any ArgumentDefinition] = [subcommand]
    static let man = Flag("man", help: "Print the manual page (roff) instead.")
    static let options: [any OptionDefinition] = [man]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let words = arguments.all(subcommand)
        if arguments[man] {
            guard words.isEmpty else { throw CLIError.usage("--man shows the whole manual; give no subcommand") }
            return try await ManCommand.run(.empty, context: context)
        }
        guard !words.isEmpty else { return try context.output.write(HelpText.root()) }
        var path: [any CommandNode.Type] = []
        let resolved = try CommandList.resolve(words, path: &path)
        if resolved.consumed < words.count { throw CLIError.usage("Unknown subcommand '\(words[resolved.consumed])'") }
        try context.output.write(HelpText.render(resolved.helpPath))
    }
}
