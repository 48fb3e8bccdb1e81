import PrayCore
import PrayKit

/// A failure the command-line tool reports: a usage mistake (exit 64, with the usage line), a
/// runtime failure (exit 1), or a reader that went away (exit 1, nothing printed).
struct CLIError: Error, Equatable {
    enum Kind: Equatable {
        /// The command line is wrong: exit 64 (`EX_USAGE`) and show the usage of this command path.
        case usage(command: String)
        /// The work failed: exit 1.
        case runtime
        /// Standard output was closed by its reader (`praykit times … | head -1`): exit 1 quietly.
        case closedOutput
    }

    let kind: Kind
    let message: String

    static func usage(_ message: String, command: String) -> CLIError {
        CLIError(kind: .usage(command: command), message: message)
    }

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
    /// The error a failure of the library becomes, in words for a user of the tool: bad input is a
    /// usage error, everything else a runtime one, with the remedy the tool offers.
    init(_ error: any Error, command: String = "") {
        switch error {
        case let error as CLIError:
            self = error
        case let error as ValidationError:
            self = .usage(Self.optionMessage(error), command: command)
        case let error as PrayError:
            self = error.kind == .unsupportedDate ? .usage(error.message, command: command) : .runtime(error.message)
        case let error as HijriError:
            switch error.kind {
            case .invalidDate, .invalidOffset, .outOfRange: self = .usage(error.message, command: command)
            }
        case let error as StorageError:
            self = .runtime(Self.storageMessage(error))
        case let error as NetworkError:
            self = .runtime(Self.networkMessage(error))
        case let error as PrayDependency.ConfigurationError:
            self = .runtime(error.message)
        default:
            self = .runtime(Self.describe(error))
        }
    }

    /// A validation message in terms of the option: `fajr-angle must be …` becomes
    /// `--fajr-angle must be …`; a message that does not start with its field's name is kept.
    static func optionMessage(_ error: ValidationError) -> String {
        let option = PreferenceOptions.optionName(forField: error.field)
        let prefix = error.field + " "
        guard error.message.hasPrefix(prefix) else { return error.message }
        return "--" + option + " " + error.message.dropFirst(prefix.count)
    }

    /// A storage failure with what the tool lets the user do about it.
    static func storageMessage(_ error: StorageError) -> String {
        switch error.kind {
        case .cannotOpen, .notADatabase:
            error.description + "; PRAYKIT_DATABASE=<file> uses another database"
        case .corrupt:
            error.description + " ('praykit import <backup.json>' restores a backup)"
        case .schemaTooNew:
            error.description.replacingOccurrences(of: "update PrayKit", with: "update praykit")
        default:
            error.description
        }
    }

    /// A network failure with what the tool lets the user do about it.
    static func networkMessage(_ error: NetworkError) -> String {
        switch error.kind {
        case .insecure: "\(error.message); give --api-url an https:// URL"
        case .timeout, .connection:
            "\(error.description); --offline serves only what is cached, --timeout <s> waits longer"
        default: error.description
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
