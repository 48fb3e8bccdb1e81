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

/// Reads a secret (an API key) from a file that only its owner can read, so that the secret is
/// never on a command line, where every user of the machine can read it (`/proc/<pid>/cmdline`).
enum SecretFile {
    /// The largest secret file read.
    static let maximumBytes = 64 * 1024

    /// The text of the file at `path`, without surrounding white space (or as it is, with `trimmed`
    /// false: a file of `name=value` lines whose values may end in spaces). The checks are made on the
    /// open file: a regular file of this user that neither its group nor others may read or write
    /// (mode 0600 or 0400).
    /// - Parameters:
    ///   - path: The file.
    ///   - what: The file in words, for messages (`the API key file`).
    ///   - trimmed: Whether white space around the text is dropped.
    /// - Throws: ``CLIError`` (runtime) saying what is wrong and how to fix it.
    static func read(_ path: String, what: String, trimmed: Bool = true) throws(CLIError) -> String {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .runtime("cannot read \(what) \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            throw .runtime("\(what) \(path) is not a regular file")
        }
        guard status.st_uid == geteuid() else {
            throw .runtime("\(what) \(path) belongs to another user (uid \(status.st_uid)); use a file of your own")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw .runtime(
                "\(what) \(path) can be read or changed by other users (mode \(String(status.st_mode & 0o777, radix: 8))); "
                    + "make it yours alone with 'chmod 600 \(path)', and consider the key seen")
        }
        let data: Data
        do {
            data = try FileBytes.read(descriptor: descriptor, limit: maximumBytes)
        } catch {
            throw .runtime("cannot read \(what) \(path): \(error.reason)")
        }
        let read = String(decoding: data, as: UTF8.self)
        let text = trimmed ? read.trimmingWhitespaceAndNewlines() : read
        guard !text.trimmingWhitespaceAndNewlines().isEmpty else { throw .runtime("\(what) \(path) is empty") }
        return text
    }
}
