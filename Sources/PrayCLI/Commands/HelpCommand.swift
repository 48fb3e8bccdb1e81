/// `praykit help [<subcommand> …]`: the help of a command, or (`--man`) the manual page.
struct HelpCommand: Command {
    static let name = "help"
    static let abstract = "Show help for a subcommand (or the manual page with --man)."
    static let examples = ["praykit help times", "praykit help config set", "praykit help --man | man -l -"]
    static let arguments = [
        Positional(name: "subcommand", help: "The command to explain.", isOptional: true, isVariadic: true)
    ]
    static let man = Flag("man", help: "Print the manual page (roff) instead.")
    static let options: [any OptionDefinition] = [man]

    let path: [any Command.Type]
    let wantsManual: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        wantsManual = arguments.has(Self.man)
        let words = arguments.positionals
        if wantsManual, !words.isEmpty { throw context.usage("--man shows the whole manual; give no subcommand") }
        do {
            path = try CommandList.resolve(words)
        } catch {
            throw context.usage(error.message)
        }
        if path.count < words.count { throw context.usage("Unknown subcommand '\(words[path.count])'") }
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        if wantsManual { return try await ManCommand(ParsedArguments.empty, context: context).run(context) }
        try context.output.write(path.isEmpty ? HelpText.root() : HelpText.render(path))
    }
}
