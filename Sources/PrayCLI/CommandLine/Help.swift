import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Help text in the layout of swift-argument-parser — OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS — generated from a command's declarations.
enum HelpText {
    /// The help of the command or group at `path` (`[ConfigCommand.self, ConfigSetCommand.self]`).
    static func render(_ path: [any CommandNode.Type]) -> String {
        guard let node = path.last else { return root() }
        var lines = ["OVERVIEW: \(node.abstract)", "", "USAGE: \(usage(path))"]
        // A group shows the options of its default subcommand, which run without the verb.
        let command = node.asCommand ?? node.asGroup?.defaultSubcommand
        if let command {
            if !command.arguments.isEmpty {
                lines += ["", "ARGUMENTS:"] + command.arguments.map { row("<\($0.name)>", $0.help) }
            }
            let title = node.asGroup != nil ? "OPTIONS (of '\(command.name)', the default):" : "OPTIONS:"
            lines += ["", title] + command.options.map(row) + [row("-h, --help", "Show help information.")]
        } else {
            lines += ["", "OPTIONS:", row("-h, --help", "Show help information.")]
        }
        lines += ["", "GLOBAL OPTIONS:"] + GlobalOptions.definitions.map(row)
        if let group = node.asGroup {
            lines += ["", "SUBCOMMANDS:"]
            let fallback = group.defaultSubcommand.map { ObjectIdentifier($0) }
            lines += group.subcommands.map { child in
                row(child.name, child.abstract + (ObjectIdentifier(child) == fallback ? " (default)" : ""))
            }
            let name = (["praykit"] + path.map { $0.name }).joined(separator: " ")
            lines += ["", "  See '\(name) <subcommand> --help' for detailed help."]
        }
        if !node.discussion.isEmpty { lines += ["", node.discussion] }
        if !node.examples.isEmpty {
            lines += ["", node.examples.count == 1 ? "EXAMPLE:" : "EXAMPLES:"] + node.examples.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The top-level help: every command.
    static func root() -> String {
        var lines = [
            "OVERVIEW: \(PrayCommandLine.abstract)", "",
            "USAGE: praykit [--log-level <level>] [--log-file <path>] <subcommand>",
            "", "OPTIONS:", row("-v, -V, --version", "Show the version (with --verbose: the data licences)."),
        ]
        lines += GlobalOptions.definitions.map(row) + [row("-h, --help", "Show help information.")]
        lines += ["", "SUBCOMMANDS:"] + CommandList.all.map { row($0.name, $0.abstract) }
        lines += [
            "", "  See 'praykit help <subcommand>' for detailed help, 'praykit help --man' for the manual.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `praykit config set <key> <value> [<options>]`, or `praykit config <subcommand>`.
    static func usage(_ path: [any CommandNode.Type]) -> String {
        guard let node = path.last else { return "praykit <subcommand>" }
        var parts = ["praykit"] + path.map { $0.name }
        if let group = node.asGroup {
            parts.append(group.defaultSubcommand == nil ? "<subcommand>" : "[<subcommand>]")
            return parts.joined(separator: " ")
        }
        guard let command = node.asCommand else { return parts.joined(separator: " ") }
        if let synopsis = command.synopsis { return (parts + [synopsis]).joined(separator: " ") }
        parts += command.arguments.map { argument in
            let name = "<\(argument.name)>" + (argument.isVariadic ? " ..." : "")
            return argument.isOptional ? "[\(name)]" : name
        }
        let required = command.options.filter(\.isRequired).map(\.synopsis)
        parts += required
        if command.options.count > required.count { parts.append("[<options>]") }
        return parts.joined(separator: " ")
    }

    /// An option and its help, with its values and default, as one help row.
    static func row(_ option: any OptionDefinition) -> String {
        var help = option.help
        if !option.choices.isEmpty { help += " (values: \(option.choices.joined(separator: ", ")))" }
        if let defaultText = option.defaultText { help += " (default: \(defaultText))" }
        if option.isRequired { help += " (required)" }
        if option.isRepeatable { help += " (may be repeated)" }
        return row(option.synopsis, help)
    }

    /// A name and its help, aligned at column 28, the help wrapped at 100 columns.
    static func row(_ left: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: 28)
        var first = "  " + left
        first += first.count < 27 ? String(repeating: " ", count: 28 - first.count) : "\n" + indent
        var lines: [String] = []
        var current = ""
        for word in help.split(separator: " ") {
            if current.count + word.count + 1 > 72, !current.isEmpty {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        lines.append(current)
        return first + lines.joined(separator: "\n" + indent)
    }
}

/// The manual page, roff (`man 7 man`), from the same declarations as help.
enum ManPage {
    static func render(date: CivilDate) -> String {
        var lines = [
            ".TH PRAYKIT 1 \"\(date)\" \"praykit \(PrayKitInfo.version)\" \"User Commands\"",
            ".SH NAME", "praykit \\- \(escape(PrayCommandLine.abstract))",
            ".SH SYNOPSIS", ".B praykit",
            "[\\fB\\-\\-log\\-level\\fR \\fIlevel\\fR] [\\fB\\-\\-log\\-file\\fR \\fIpath\\fR]",
            "\\fIsubcommand\\fR [\\fIoptions\\fR]",
            ".SH DESCRIPTION",
            escape(
                "praykit prints Muslim prayer times calculated from the sun's position (NREL SPA), the qibla, "
                    + "Hijri dates, and keeps a prayer log. Results go to standard output; errors and log events "
                    + "to standard error."),
            ".SH GLOBAL OPTIONS",
        ]
        lines += GlobalOptions.definitions.flatMap(option)
        lines += [".SH COMMANDS"]
        for command in CommandList.all { lines += section([command]) }
        lines += [
            ".SH ENVIRONMENT",
            ".TP", ".B PRAYKIT_DATABASE", "The database file.",
            ".TP", ".B XDG_DATA_HOME",
            "Without PRAYKIT_DATABASE, the database is \\fI$XDG_DATA_HOME/praykit/praykit.sqlite\\fR.",
            ".TP", ".B PRAYKIT_LOG_LEVEL", "The default of \\fB\\-\\-log\\-level\\fR.",
            ".TP", ".B PRAYKIT_API_KEY",
            "The key of the London timetable (\\fBtimes \\-\\-source london\\fR), unless \\fB\\-\\-api\\-key\\-file\\fR "
                + "names a file that holds it. Never on the command line, which other users can read.",
            ".TP", ".B TZ", "The zone of \\fB\\-\\-tz local\\fR.",
            ".SH FILES", ".TP", ".I ~/.local/share/praykit/praykit.sqlite",
            "The default database: preferences, the prayer log, cached timetables.",
            ".SH EXIT STATUS", ".TP", ".B 0", "Success.", ".TP", ".B 1",
            "The work failed (a file, the database, the network).",
            ".TP", ".B 64", "The command line is wrong (EX_USAGE).",
            ".SH SEE ALSO", "\\fBpraykit help\\fR \\fIsubcommand\\fR, \\fBpraykit completions\\fR \\fIshell\\fR",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func section(_ path: [any CommandNode.Type]) -> [String] {
        guard let node = path.last else { return [] }
        var lines = [".SS \(escape(HelpText.usage(path)))", escape(node.abstract)]
        if !node.discussion.isEmpty {
            lines += [".PP"] + node.discussion.split(separator: "\n\n").map { [escape(String($0))] }.joined(by: ".PP")
        }
        if let command = node.asCommand {
            for argument in command.arguments {
                lines += [".TP", "\\fI\(escape(argument.name))\\fR", escape(argument.help)]
            }
            lines += command.options.flatMap(option)
        }
        if !node.examples.isEmpty {
            lines += [".PP", "Examples:", ".nf"] + node.examples.map { "    " + escape($0) } + [".fi"]
        }
        for child in node.asGroup?.subcommands ?? [] { lines += section(path + [child]) }
        return lines
    }

    private static func option(_ option: any OptionDefinition) -> [String] {
        var head = "\\fB\\-\\-\(escape(option.name))\\fR"
        if let value = option.valueName { head += " \\fI\(escape(value))\\fR" }
        var help = option.help
        if !option.choices.isEmpty { help += " Values: \(option.choices.joined(separator: ", "))." }
        if let defaultText = option.defaultText { help += " Default: \(defaultText)." }
        if option.isRequired { help += " Required." }
        return [".TP", head, escape(help)]
    }

    /// Text safe in roff: backslashes and dashes escaped, no line starting with a dot or quote, and
    /// the typographic characters of the help as roff's own glyphs, which every locale renders (under
    /// `LANG=C`, a raw `…` vanishes: `(-90…90)` became `(-9090)`).
    static func escape(_ text: String) -> String {
        var escaped = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        for (character, glyph) in glyphs { escaped = escaped.replacing(character, with: glyph) }
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}

extension ManPage {
    /// Characters of the help text and the roff glyph that stands for each.
    fileprivate static let glyphs: [(String, String)] = [
        ("…", "\\&..."), ("—", "\\(em"), ("–", "\\(en"), ("°", "\\(de"), ("±", "\\(+-"), ("×", "\\(mu"),
        ("’", "'"), ("‘", "`"), ("→", "\\(->"), ("≤", "\\(<="), ("≥", "\\(>="), ("−", "\\-"),
    ]
}

extension Array where Element == [String] {
    /// The arrays joined with `separator` between them.
    fileprivate func joined(by separator: String) -> [String] {
        enumerated().flatMap { index, element in index == 0 ? element : [separator] + element }
    }
}
