import PrayCore
import PrayKit

/// A failure the command-line tool reports: a usage mistake (exit 64, with the usage line), a
/// runtime failure (exit 1), or a reader that went away (exit 1, nothing printed).
///
/// Commands throw it for their own mistakes (`throw CLIError.usage("--updates goes with --watch")`)
/// and let every other error through; ``init(_:)`` is the one place where the library's errors
/// become messages and exit statuses.
struct CLIError: Error, Equatable {
    enum Kind: Equatable {
        /// The command line is wrong: exit 64 (`EX_USAGE`) and show the usage of the command.
        case usage
        /// The work failed: exit 1.
        case runtime
        /// Standard output was closed by its reader (`praykit times … | head -1`): exit 1 quietly.
        case closedOutput
    }

    let kind: Kind
    let message: String

    /// A usage error of the command being run.
    static func usage(_ message: String) -> CLIError {
        CLIError(kind: .usage, message: message)
    }

    /// A runtime failure.
    static func runtime(_ message: String) -> CLIError {
        CLIError(kind: .runtime, message: message)
    }

    /// The exit status for this error.
    var exitCode: Int32 {
        switch kind {
        case .usage: 64
        case .runtime, .closedOutput: 1
        }
    }
}

extension CLIError {
    /// The error a failure becomes, in words for a user of the tool: bad input is a usage error,
    /// everything else a runtime one, with the remedy the tool offers — the remedies of the command
    /// that failed (`--offline` only where the command has it).
    /// - Parameters:
    ///   - error: The failure.
    ///   - path: The command that ran, from the root; empty before one was found.
    init(_ error: any Error, path: [any CommandNode.Type] = []) {
        self.init(error, options: Set(path.last?.asCommand?.options.map(\.name) ?? []), group: path.first?.name)
    }

    private init(_ error: any Error, options: Set<String>, group: String?) {
        switch error {
        case let error as CLIError:
            self = error
        case let error as ValidationError:
            self = .usage(Self.optionMessage(error))
        case let error as PrayError:
            self = error.kind == .unsupportedDate ? .usage(error.message) : .runtime(error.message)
        case let error as HijriError:
            switch error.kind {
            case .invalidDate, .invalidOffset, .outOfRange: self = .usage(error.message)
            }
        case let error as StorageError:
            self = .runtime(Self.storageMessage(error))
        case let error as NetworkError:
            self = .runtime(Self.networkMessage(error, options: options, group: group))
        case let error as ServerError:
            self = error.kind == .startFailed ? .runtime(error.message) : .usage(error.message)
        case let error as PDFError:
            self = .runtime(error.message)
        case let error as PrayDependency.ConfigurationError:
            self = .runtime(error.message)
        case let error as SyncError:
            self = error.kind == .invalidServer ? .usage(error.message) : .runtime(Self.syncMessage(error))
        case let error as SyncServerError:
            // The administration commands: a name out of the rules is the command line's fault; an
            // unknown user or device, or a name taken, is the store's state.
            self = error.code == .badRequest ? .usage(error.message) : .runtime(error.message)
        case let error as MQTTError:
            // A broker address or a topic prefix is the command line's; a refusal or TLS the broker's.
            self =
                [.invalidBroker, .invalidTopic].contains(error.kind) ? .usage(error.message) : .runtime(error.message)
        case let error as SyncStoreError:
            self = error.kind == .invalidLocation ? .usage(error.message) : .runtime(error.message)
        default:
            self = .runtime(Self.describe(error))
        }
    }

    /// A validation message in terms of the options: `fajr-angle must be …` becomes
    /// `--fajr-angle must be …`, and `isha-angle and isha-interval say …` names both options; a
    /// message that does not start with its field's name is kept.
    static func optionMessage(_ error: ValidationError) -> String {
        let prefix = error.field + " "
        guard error.message.hasPrefix(prefix) else { return error.message }
        var rest = error.message.dropFirst(prefix.count)
        var head = "--" + PreferenceOptions.optionName(forField: error.field)
        if rest.hasPrefix("and "), let other = rest.dropFirst(4).split(separator: " ").first,
            let key = Preferences.Key(rawValue: String(other))
        {
            head += " and --" + PreferenceOptions.optionName(key)
            rest = rest.dropFirst(4 + other.count)
            return head + rest
        }
        return head + " " + rest
    }

    /// A storage failure with what the tool lets the user do about it.
    static func storageMessage(_ error: StorageError) -> String {
        switch error.kind {
        case .cannotOpen, .notADatabase, .insecure:
            error.description + "; PRAYKIT_DATABASE=<file> uses another database"
        case .corrupt:
            error.description + " ('praykit import <backup.json>' restores a backup)"
        case .schemaTooNew:
            error.description.replacing("update PrayKit", with: "update praykit")
        case .invalidData where error.message.hasPrefix("a stored setting"):
            error.description + " ('praykit config set' or 'unset' fixes it)"
        default:
            error.description
        }
    }

    /// A network failure with what the command that failed lets the user do about it.
    static func networkMessage(_ error: NetworkError, options: Set<String> = [], group: String? = nil) -> String {
        switch error.kind {
        case .insecure where options.isEmpty || options.contains("api-url"):
            "\(error.message); give --api-url an https:// URL"
        case .timeout, .connection:
            if group == "sync" {
                error.description + "; nothing is lost: changes wait on this device until the server can be reached"
            } else {
                error.description
                    + [
                        options.contains("offline") ? "--offline serves only what is cached" : nil,
                        options.contains("timeout") ? "--timeout <s> waits longer" : nil,
                    ].compactMap { $0 }.map { "; " + $0 }.joined()
            }
        default: error.description
        }
    }

    /// A sync failure with the command that mends it: the sync service's messages name no command,
    /// since an app's user has none to run.
    static func syncMessage(_ error: SyncError) -> String {
        switch error.kind {
        case .notLoggedIn: error.message + " ('praykit sync login --server URL')"
        case .unauthorized:
            error.message
                + " ('praykit sync login'; a screen that followed a mosque with a code: 'praykit sync logout', then "
                + "'praykit mosque follow NEWCODE --server URL' with a new code from its owner or an editor)"
        case .copiedDatabase: error.message + " ('praykit sync login')"
        case .unsyncedChanges:
            error.message
                + ": run 'praykit sync now' first, or 'praykit sync logout --force' (the data stays on this device and "
                + "goes to the server at the next login; only waiting deletions are dropped)"
        case .pairingRefused: error.message + " (on the server, 'praykit serve sync pair USER' makes one)"
        case .cycleTooLong: error.message + "; 'praykit sync now' goes on from there"
        default: error.message
        }
    }

    /// Any other error in words, never Foundation's domain and code.
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if !text.contains("NSCocoaErrorDomain"), !text.contains("Error Domain="), !text.contains("DecodingError") {
            return text
        }
        return "the operation failed (\(type(of: error)))"
    }
}
