/// `praykit completions`: a shell completion script generated from the command model.
struct CompletionsCommand: Command {
    static let name = "completions"
    static let abstract = "Print a completion script for bash, zsh or fish."
    static let discussion = """
        bash:  praykit completions bash > ~/.local/share/bash-completion/completions/praykit
        zsh:   praykit completions zsh > "${fpath[1]}/_praykit"
        fish:  praykit completions fish > ~/.config/fish/completions/praykit.fish
        """
    static let arguments = [
        Positional(
            name: "shell", help: "bash, zsh or fish.", isOptional: true,
            completion: .list(Completions.Shell.allValueStrings))
    ]
    static let zones = Flag("zones", help: "Print the time-zone names completion offers, one a line.")
    static let options: [any OptionDefinition] = [zones]

    let shell: Completions.Shell?

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        if arguments.has(Self.zones) {
            guard arguments.positionals.isEmpty else { throw context.usage("--zones takes no shell") }
            shell = nil
            return
        }
        guard let text = arguments.positionals.first else { throw context.usage("Missing expected argument '<shell>'") }
        do {
            shell = try Completions.Shell(argument: text)
        } catch {
            throw context.usage("<shell> \(error.reason), got '\(text)'\(error.suggestion)")
        }
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        try context.output.write(shell.map(Completions.script(for:)) ?? Completions.zoneList)
    }
}
