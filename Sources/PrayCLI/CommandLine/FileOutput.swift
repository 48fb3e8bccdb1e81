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

/// A file a command writes itself (`--output`): written whole beside the target under a temporary
/// name, then renamed over it, so that the path holds the old file or the new one, never half of one.
/// The temporary file is created first, before the work, so that a folder that does not exist or
/// cannot be written fails at once; a failure removes it (a killed process may leave it, never a half
/// target).
///
/// ```swift
/// let file = try FileOutput(path)      // fails now for a bad path
/// let data = try await work()
/// try file.commit(data)                // or file.discard() when the work failed
/// ```
final class FileOutput {
    /// The path given.
    let path: String
    private let temporary: String
    private var descriptor: Int32

    /// Creates the temporary file beside `path` (mode 0666 less the umask, as `>` does).
    /// - Throws: ``CLIError`` (runtime) naming the path and the reason.
    init(_ path: String) throws {
        self.path = path
        let target = URL(fileURLWithPath: path)
        temporary =
            target.deletingLastPathComponent().appendingPathComponent(
                ".\(target.lastPathComponent).praykit-\(UUID().uuidString)"
            ).path
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Self.failure(path) }
    }

    deinit {
        discard()
    }

    /// Writes `data` to the temporary file and renames it over the target.
    /// - Throws: ``CLIError`` (runtime) naming the path and the reason; the temporary file is removed.
    func commit(_ data: Data) throws {
        let failed = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += count
            }
            return false
        }
        if failed || fsync(descriptor) != 0 || close(descriptor) != 0 {
            let error = Self.failure(path)
            descriptor = -1
            discard()
            throw error
        }
        descriptor = -1
        guard rename(temporary, path) == 0 else {
            let error = Self.failure(path)
            discard()
            throw error
        }
    }

    /// Removes the temporary file (nothing once committed).
    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
            unlink(temporary)
        } else if access(temporary, F_OK) == 0 {
            unlink(temporary)
        }
    }

    /// `cannot write <path>: <errno's reason>`.
    private static func failure(_ path: String) -> CLIError {
        .runtime("cannot write \(path): \(String(cString: strerror(errno)))")
    }
}
