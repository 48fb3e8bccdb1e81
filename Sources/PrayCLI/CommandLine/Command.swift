import Foundation
import PrayCore
import PrayKit

/// One `praykit` command, declared like a swift-argument-parser command: its name, help, typed
/// options, positional arguments and subcommands. Help, errors, completions and the man page are
/// all generated from these declarations (see ``CommandList``).
///
/// A command is created from its parsed arguments (``init(_:context:)`` checks them all, so that a
/// bad command line fails before any work), then run.
protocol Command: Sendable {
    /// The name typed after `praykit`: `times`.
    static var name: String { get }
    /// Other names that run it (old spellings kept working).
    static var aliases: [String] { get }
    /// One line: what it does.
    static var abstract: String { get }
    /// Paragraphs shown after the options in help and in the man page.
    static var discussion: String { get }
    /// Command lines shown under EXAMPLES.
    static var examples: [String] { get }
    /// The options, in the order help lists them.
    static var options: [any OptionDefinition] { get }
    /// The positional arguments, in order.
    static var arguments: [Positional] { get }
    /// The verbs of a command that has verbs (`config get|set|unset|list`).
    static var subcommands: [any Command.Type] { get }
    /// Whether the command runs by itself when no verb is given (`hijri` = `hijri days`);
    /// otherwise a missing verb is a usage error.
    static var runsWithoutSubcommand: Bool { get }

    /// Adjusts the process's one configuration for this command line (a published timetable, the
    /// network's timeout); called before any service is used.
    /// - Throws: ``CLIError`` (usage) for options that make no sense together.
    static func configure(
        _ configuration: inout PrayDependency.Configuration, _ arguments: ParsedArguments, environment: [String: String]
    )
        throws(CLIError)

    /// Reads and checks the parsed arguments (and stored preferences through the context).
    /// - Throws: ``CLIError``, a usage error for anything missing, invalid or conflicting.
    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError)

    /// Does the work, writing the result to ``CommandContext/output``.
    /// - Throws: ``CLIError``.
    func run(_ context: CommandContext) async throws(CLIError)
}

extension Command {
    static var aliases: [String] { [] }
    static var discussion: String { "" }
    static var examples: [String] { [] }
    static var options: [any OptionDefinition] { [] }
    static var arguments: [Positional] { [] }
    static var subcommands: [any Command.Type] { [] }
    static var runsWithoutSubcommand: Bool { subcommands.isEmpty }

    static func configure(
        _ configuration: inout PrayDependency.Configuration, _ arguments: ParsedArguments, environment: [String: String]
    )
        throws(CLIError)
    {}

    /// All names that run this command.
    static var names: [String] { [name] + aliases }
}

/// What a running command reaches: the services, the environment, the instant, and the outputs.
struct CommandContext: Sendable {
    /// The services: `PrayDependency` in the tool, a mock in tests.
    let dependency: any PrayKitDependency
    /// The process environment.
    let environment: [String: String]
    /// The current instant (pinned in tests).
    let now: Date
    /// The clock of commands that wait (`next --watch`, `notify`): the wall clock in the tool, a
    /// fake one in tests.
    let clock: any PrayClock
    /// Standard output: the result only.
    let output: OutputSink
    /// Standard error: notes and warnings, never results.
    let diagnostics: OutputSink
    /// Reads all of standard input (`praykit import -`).
    let readStandardInput: @Sendable () -> Data
    /// The global options given.
    let global: GlobalOptions
    /// The full command path being run (`config set`), for messages.
    let commandPath: String

    /// A usage error of the running command.
    func usage(_ message: String) -> CLIError {
        .usage(message, command: commandPath)
    }

    /// The stored preferences, or none when the database does not exist yet.
    /// - Throws: ``CLIError`` (runtime) when the database cannot be read.
    func preferences() throws(CLIError) -> Preferences {
        do {
            return try dependency.preferences().preferences()
        } catch {
            throw CLIError(error)
        }
    }
}
