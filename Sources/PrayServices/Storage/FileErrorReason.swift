#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file operation of `FileManager` or `Data` failed, for a message that names the file: the
/// system's reason (`strerror`: "No such file or directory", "Permission denied") of the POSIX error
/// under Foundation's `CocoaError`. `localizedDescription`, which said it before, lives in full
/// Foundation and on Linux said little more ("The operation could not be completed. The file doesn’t
/// exist.", or only the error's number).
enum FileErrorReason {
    /// The reason of `error`: its system reason where it carries one, else its description.
    static func of(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return reason(posix.code.rawValue) }
        if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
            return reason(posix.code.rawValue)
        }
        return "\(error)"
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
