/// `praykit completions`: a shell completion script generated from the command model.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let abstract = "Print a completion script for bash, zsh or fish."
    static let discussion = """
        bash:  praykit completions bash > ~/.local/share/bash-completion/completions/praykit
        zsh:   praykit completions zsh > "${fpath[1]}/_praykit"
        fish:  praykit completions fish > ~/.config/fish/completions/praykit.fish
        """
    static let shell = Argument<Completions.Shell?>("shell", help: "bash, zsh or fish.")
    static let arguments: [any ArgumentDefinition] = [shell]
    static let synopsis: String? = "<shell> | --zones"
    static let zones = Flag("zones", help: "Instead of a script: the time-zone names completion offers, one a line.")
    static let options: [any OptionDefinition] = [zones]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let shell = arguments[shell]
        if arguments[zones] {
            guard shell == nil else { throw CLIError.usage("--zones takes no shell") }
            return try context.output.write(Completions.zoneList)
        }
        guard let shell else { throw Self.shell.missing }
        try context.output.write(Completions.script(for: shell))
    }
}
