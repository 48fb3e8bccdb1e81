import Foundation
import PrayCore

/// `praykit config`: the stored defaults of `praykit times` and `praykit hijri`.
struct ConfigCommand {
    static let name = "config"
    static let overview = "Show or change the stored defaults (place, method, Hijri offset, clock)."
    static let usage = "praykit config list | get <key> | set <key> <value> | unset <key>"
    static let options: [OptionSpec] = [
        .format(["table", "json"], help: "Output of 'list'.")
    ]

    static var help: String {
        HelpText.render(
            overview: overview, usage: usage, options: options,
            footer: """
                KEYS:
                \(Preferences.Key.allCases.map { HelpText.row($0.rawValue, $0.valueDescription) }.joined(separator: "\n"))

                The keys are the 'praykit times' options without dashes; a value set here is used when the
                option is not given on the command line. The database is $PRAYKIT_DATABASE, else
                $XDG_DATA_HOME/praykit/praykit.sqlite, else ~/.local/share/praykit/praykit.sqlite.

                EXAMPLES:
                  praykit config set latitude 21.4225
                  praykit config set method umm-al-qura
                  praykit config unset method
                """
        )
    }

    enum Action {
        case list
        case get(Preferences.Key)
        case set(Preferences.Key, String)
        case unset(Preferences.Key)
    }

    let action: Action
    let format: String

    init(_ arguments: ParsedArguments) throws(CLIError) {
        func fail(_ message: String) -> CLIError { .usage(message, command: Self.name) }
        func key(_ text: String) throws(CLIError) -> Preferences.Key {
            guard let key = Preferences.Key(rawValue: text) else {
                throw fail(
                    "Unknown key '\(text)'; use one of \(Preferences.Key.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            return key
        }
        let words = arguments.positionals
        format = try CommandValues.format(arguments["format"], allowed: ["table", "json"], command: Self.name)
        switch (words.first, words.count) {
        case ("list", 1): action = .list
        case ("get", 2): action = .get(try key(words[1]))
        case ("set", 3): action = .set(try key(words[1]), words[2])
        case ("unset", 2): action = .unset(try key(words[1]))
        case (nil, _): throw fail("Missing subcommand: list, get, set or unset")
        case (let word?, _) where ["list", "get", "set", "unset"].contains(word):
            throw fail("Wrong number of arguments for 'config \(word)'")
        case (let word?, _): throw fail("Unknown config subcommand '\(word)'")
        }
    }

    func run(store: any PreferencesStore) throws(CLIError) -> String {
        do {
            switch action {
            case .list:
                return list(try store.preferences())
            case .get(let key):
                guard let value = try store.preferences()[key] else { throw CLIError.runtime("\(key) is not set") }
                return value + "\n"
            case .set(let key, let text):
                // Check before touching the database, so a bad value changes nothing.
                var check = Preferences()
                do { try check.set(text, for: key) } catch { throw CLIError.usage(error.message, command: Self.name) }
                let saved = try store.update { try $0.set(text, for: key) }
                return "\(key) = \(saved[key] ?? "")\n"
            case .unset(let key):
                try store.update { $0.unset(key) }
                return ""
            }
        } catch let error as CLIError {
            throw error
        } catch let error as StorageError {
            throw .runtime(error.description)
        } catch {
            throw .runtime("\(error)")
        }
    }

    private func list(_ preferences: Preferences) -> String {
        if format == "json" {
            let members = Preferences.Key.allCases.compactMap { key in
                preferences[key].map { (key.rawValue, JSON.string($0)) }
            }
            return JSON.object(members).rendered() + "\n"
        }
        let rows = [["Key", "Value"]] + Preferences.Key.allCases.map { [$0.rawValue, preferences[$0] ?? "-"] }
        return Table.render(rows)
    }
}
