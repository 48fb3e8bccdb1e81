import PrayCore
import PrayKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What every node of the command tree has: its name and help. A node is either a ``Command``,
/// which runs, or a ``CommandGroup``, which only names its subcommands. Help, errors, completions
/// and the man page are all generated from these declarations (see ``CommandList``).
protocol CommandNode: Sendable {
    /// The name typed after the parent's: `times`, `set`.
    static var name: String { get }
    /// Other names that run it (old spellings kept working).
    static var aliases: [String] { get }
    /// One line: what it does.
    static var abstract: String { get }
    /// Paragraphs shown after the options in help and in the man page.
    static var discussion: String { get }
    /// Command lines shown under EXAMPLES.
    static var examples: [String] { get }
    /// This node as a command that runs, or `nil` for a group. Asked of the node rather than found with
    /// `as?`: a cast to a protocol makes the runtime search every conformance in the binary the first
    /// time, a tenth of a millisecond at each start-up.
    static var asCommand: (any Command.Type)? { get }
    /// This node as a group, or `nil` for a command that runs.
    static var asGroup: (any CommandGroup.Type)? { get }
}

extension CommandNode {
    static var asCommand: (any Command.Type)? { nil }
    static var asGroup: (any CommandGroup.Type)? { nil }

    static var aliases: [String] { [] }
    static var discussion: String { "" }
    static var examples: [String] { [] }

    /// All names that run this node.
    static var names: [String] { [name] + aliases }
}

/// A command with verbs and nothing else: `config` is `config list|get|set|unset`. It declares its
/// subcommands (commands or groups, to any depth) and, optionally, the one that runs when no verb
/// is given; it has no options and no `run` of its own.
protocol CommandGroup: CommandNode {
    /// The verbs, in the order help lists them.
    static var subcommands: [any CommandNode.Type] { get }
    /// The subcommand that runs when none is named (`hijri` is `hijri days`); without one, a missing
    /// verb is a usage error.
    static var defaultSubcommand: (any Command.Type)? { get }
}

extension CommandGroup {
    static var defaultSubcommand: (any Command.Type)? { nil }
    static var asGroup: (any CommandGroup.Type)? { self }
}

/// A command that runs, declared like a swift-argument-parser command: typed options and arguments
/// (each with its default, range and help, declared once), then `run`.
///
/// ```swift
/// enum LogDeleteCommand: Command {
///     static let name = "delete"
///     static let abstract = "Delete the entries of prayers on a day."
///     static let date = Option<CivilDate>("date", value: "YYYY-MM-DD", help: "The day.")
///     static let options: [any OptionDefinition] = [LogCommand.prayer, date]
///
///     static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
///         let removed = try context.dependency.prayerLog().delete(…, on: arguments[date])
///         …
///     }
/// }
/// ```
///
/// `run` throws any error: ``PrayCommandLine`` maps every error to its message and exit status in one
/// place (``CLIError/init(_:)``).
protocol Command: CommandNode {
    /// The options, in the order help lists them.
    static var options: [any OptionDefinition] { get }
    /// The positional arguments, in order.
    static var arguments: [any ArgumentDefinition] { get }
    /// The usage line after the command's path, when the declarations alone would mislead
    /// (`<shell> | --zones`); `nil` derives it from them.
    static var synopsis: String? { get }

    /// Adjusts the process's one configuration for this command line (a published timetable, the
    /// network's timeout, a hook); called before any service is used.
    /// - Throws: A usage error for options that make no sense together.
    static func configure(
        _ configuration: inout PrayDependency.Configuration, _ arguments: ParsedArguments, environment: [String: String]
    ) throws

    /// Does the work, writing the result to ``CommandContext/output``. Checks that the types cannot
    /// make (options that go together) come first, so that a bad command line fails before any work.
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws
}

extension Command {
    static var asCommand: (any Command.Type)? { self }
    static var options: [any OptionDefinition] { [] }
    static var arguments: [any ArgumentDefinition] { [] }
    static var synopsis: String? { nil }

    static func configure(
        _ configuration: inout PrayDependency.Configuration, _ arguments: ParsedArguments, environment: [String: String]
    ) throws {}
}

/// What a running command reaches: the services, the environment, the instant, and the outputs.
struct CommandContext: Sendable {
    /// The services: `PrayDependency` in the tool, a mock in tests. Every service a command uses
    /// comes from here.
    let dependency: any PrayKitDependency
    /// The process environment.
    let environment: [String: String]
    /// The instant the command started (the container's clock).
    let now: Date
    /// Standard output: the result only.
    let output: OutputSink
    /// Standard error: notes and warnings, never results.
    let diagnostics: OutputSink
    /// Reads standard input to its end or up to the given number of bytes, whichever comes first
    /// (`praykit import -`).
    let readStandardInput: @Sendable (Int) -> Data
    /// The global options given.
    let global: GlobalOptions
    /// The full command path being run (`config set`), for messages.
    let commandPath: String

    /// The clock of commands that wait (`next --watch`, `notify`, `serve`): the container's.
    var clock: any PrayClock { dependency.clock() }

    /// Reads zones as the user writes them, `local` being `$TZ` of this environment, else the
    /// system's.
    var zones: TimeZoneParser { TimeZoneParser(environment: environment) }

    /// The stored preferences (none when the database does not exist yet).
    /// - Throws: What the store throws.
    func preferences() throws -> Preferences {
        try dependency.preferences().preferences()
    }

    /// The Hijri calendar the person follows: the chosen mosque's, else the saved one
    /// (``HijriCalendarChoice``).
    /// - Throws: What the stores throw.
    func hijriChoice() throws -> HijriCalendarChoice {
        try HijriCalendarChoice(saved: preferences(), mosques: dependency.mosqueTimetables())
    }
}
