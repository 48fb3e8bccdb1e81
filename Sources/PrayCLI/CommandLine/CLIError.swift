import PrayCore

/// A failure the command-line tool reports: a usage mistake (exit 64, with the usage line) or a
/// runtime failure (exit 1).
struct CLIError: Error, Equatable {
    enum Kind: Equatable {
        /// The command line is wrong: exit 64 (`EX_USAGE`) and show the usage.
        case usage(command: String)
        /// The work failed: exit 1.
        case runtime
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
        case .runtime: 1
        }
    }
}
