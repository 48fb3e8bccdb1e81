import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit display units`: the systemd user units of a screen by the door — `praykit serve --display`
/// and Chromium in kiosk mode — with how to follow a mosque and check the clock. docs/display.md shows
/// what it prints; this command is the one source of those units.
enum DisplayUnitsCommand: Command {
    static let name = "units"
    static let abstract = "Print the systemd user units of the screen's server and its Chromium kiosk."
    static let discussion = """
        Two units for the user logged in on the screen: praykit-display.service runs 'praykit serve
        --display' on the loopback address, and praykit-kiosk.service runs Chromium in kiosk mode on its
        page; both are started again when they die. The commands to install them, to follow a mosque with
        its viewer code and to check the clock follow, as comments. --only prints one unit alone, to
        redirect into its file. The praykit path is this program's own unless --praykit gives another.
        """
    static let examples = [
        "praykit display units",
        "praykit display units --only kiosk --lang ar > ~/.config/systemd/user/praykit-kiosk.service",
    ]

    /// One of the two units.
    enum Unit: String, CaseIterable, ArgumentValue {
        case server
        case kiosk
    }

    /// The page's language.
    enum Language: String, CaseIterable, ArgumentValue {
        case en
        case ar
    }

    /// The page's digits.
    enum Digits: String, CaseIterable, ArgumentValue {
        case latin
        case arabic
    }

    static let port = Option(
        "port", value: "n", help: "The server's port on 127.0.0.1.", default: 8080,
        range: 1...ServerAPI.Configuration.ports.upperBound)
    static let language = Option<Language?>(
        "lang", value: "language", help: "The page's language: en, or ar (Arabic, right to left).",
        defaultText: "English")
    static let digits = Option<Digits?>(
        "digits", value: "digits", help: "The page's digits: latin (0-9) or arabic (Arabic-Indic).",
        defaultText: "the language's")
    static let praykit = Option<String?>(
        "praykit", value: "path", help: "The praykit program the server unit runs.", defaultText: "this program",
        completion: .file)
    static let chromium = Option<String?>(
        "chromium", value: "path", help: "The Chromium program the kiosk unit runs.",
        defaultText: "chromium or chromium-browser on PATH", completion: .file)
    static let only = Option<Unit?>(
        "only", value: "unit", help: "Print only this unit (server or kiosk), to redirect into its file.",
        defaultText: "both, with the set-up")
    static let options: [any OptionDefinition] = [port, language, digits, praykit, chromium, only]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        var query: [String] = []
        if let language = arguments[language] { query.append("lang=\(language.rawValue)") }
        if let digits = arguments[digits] { query.append("digits=\(digits.rawValue)") }
        var passed: [String] = []
        for (option, value) in [
            ("--port", arguments[port] == 8080 ? nil : String(arguments[port])),
            ("--lang", arguments[language]?.rawValue), ("--digits", arguments[digits]?.rawValue),
            ("--chromium", arguments[chromium]),
        ] {
            if let value { passed += [option, value] }
        }
        let units = DisplayUnits(
            praykit: try arguments[praykit] ?? ownPath(), chromium: arguments[chromium] ?? chromiumPath(context),
            port: arguments[port], query: query.joined(separator: "&"), options: passed)
        switch arguments[only] {
        case .server: try context.output.write(units.server)
        case .kiosk: try context.output.write(units.kiosk)
        case nil: try context.output.write(units.all)
        }
    }

    /// This program's absolute path.
    /// - Throws: ``CLIError`` (runtime) when it cannot be found: give --praykit.
    static func ownPath() throws -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        let first = CommandLine.arguments.first ?? ""
        guard first.hasPrefix("/") else {
            throw CLIError.runtime("cannot tell where this praykit is: give its path with --praykit")
        }
        return first
    }

    /// `chromium`, else `chromium-browser` (Raspberry Pi OS), on `PATH`; else Debian's path.
    static func chromiumPath(_ context: CommandContext) -> String {
        let folders = (context.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return "/usr/bin/chromium"
    }
}

/// The text of the two units and the set-up around them.
struct DisplayUnits {
    let praykit: String
    let chromium: String
    let port: Int
    /// The page's query, without `?` (`lang=ar`), or empty.
    let query: String
    /// The options given to `display units`, repeated in the set-up's commands (all but `--praykit`:
    /// those commands run that praykit, whose own path is the default).
    let options: [String]

    /// The page's address.
    var url: String { "http://127.0.0.1:\(port)/display" + (query.isEmpty ? "" : "?" + query) }

    /// `praykit-display.service`.
    var server: String {
        """
        [Unit]
        Description=PrayKit: the prayer times screen's server

        [Service]
        Type=notify
        ExecStart=\(Self.unitWord(praykit)) serve --display --host 127.0.0.1 --port \(port) --threads 1
        Restart=always
        RestartSec=2

        [Install]
        WantedBy=default.target

        """
    }

    /// `praykit-kiosk.service`.
    var kiosk: String {
        """
        [Unit]
        Description=PrayKit: the prayer times screen in Chromium's kiosk mode
        After=graphical-session.target praykit-display.service
        Wants=praykit-display.service
        PartOf=graphical-session.target

        [Service]
        ExecStart=\(Self.unitWord(chromium)) --kiosk --noerrdialogs --disable-session-crashed-bubble \\
            --disable-infobars --no-first-run --password-store=basic --check-for-update-interval=31536000 \\
            --user-data-dir=%h/.local/share/praykit/kiosk-profile \(url)
        Restart=always
        RestartSec=5

        [Install]
        WantedBy=graphical-session.target

        """
    }

    /// Both units, each under its file's name, and the set-up as comments.
    var all: String {
        let again = ([praykit, "display", "units"] + options).map(\.shellWord).joined(separator: " ")
        return """
            # ~/.config/systemd/user/praykit-display.service
            \(server)
            # ~/.config/systemd/user/praykit-kiosk.service
            \(kiosk)
            # Set up, as the user logged in on the screen (with automatic login in its display manager):
            #   mkdir -p ~/.config/systemd/user
            #   \(again) --only server > ~/.config/systemd/user/praykit-display.service
            #   \(again) --only kiosk > ~/.config/systemd/user/praykit-kiosk.service
            #   loginctl enable-linger "$USER"          # the server runs from boot
            #   systemctl --user daemon-reload
            #   systemctl --user enable --now praykit-display.service praykit-kiosk.service
            #   journalctl --user -u praykit-display -f  # the server's log
            #
            # The mosque it shows: follow it with the viewer code an editor of the mosque makes
            # ('praykit mosque invite NAME --role viewer'); the screen then needs no account:
            #   \(praykit.shellWord) mosque follow CODE --server https://pray.example.org
            # Its times, settings and notices are kept here and shown with no network; changes arrive
            # while the server runs. Without a mosque: \(praykit.shellWord) config set city NAME
            #
            # The clock: the page says "This screen's clock is wrong" when it is a minute off. Check it:
            #   timedatectl status        # "System clock synchronized: yes"
            # A Raspberry Pi keeps no time while it is off: keep NTP reachable, or fit a real-time clock.

            """
    }

    /// `word` as one word of a unit's command line: double-quoted when it holds a space or a quote,
    /// `%` and `$` doubled (systemd's specifiers and variables).
    static func unitWord(_ word: String) -> String {
        let escaped = word.replacing("%", with: "%%").replacing("$", with: "$$")
        guard escaped.contains(where: { " \t\"'\\;".contains($0) }) else { return escaped }
        return "\"" + escaped.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            + "\""
    }
}
