import PrayCore
import Synchronization

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

/// Appends log events to a file, one line each, and rotates it when it would grow past a size:
/// `praykit.log` becomes `praykit.log.1` (and `.1` becomes `.2`, …), and the line goes whole to the
/// new file. Each line is one `write(2)` to a descriptor opened with `O_APPEND`, so a line is never
/// split or lost across a rotation, and several processes can share the file.
///
/// ```swift
/// let file = try LogServiceFile(path: "/var/log/praykit.log", maximumBytes: 1_000_000, backups: 3)
/// let log = LogManager(services: [file], minLevel: .info)
/// ```
public final class LogServiceFile: LogService {
    /// The log file.
    public let path: String
    /// The size at which the file is rotated, bytes.
    public let maximumBytes: Int
    /// How many rotated files are kept.
    public let backups: Int
    private let descriptor: Mutex<Int32>

    /// Opens (creating if needed, mode 0600) the log file. A symbolic link, a file of another user and
    /// a file with other hard links are refused; a file of this user that others could read is made
    /// private (0600) first.
    /// - Parameters:
    ///   - path: The log file; its folder must exist.
    ///   - maximumBytes: The size at which the file is rotated (at least 1 KiB); 5 MiB by default.
    ///   - backups: How many rotated files are kept (at least 1); 3 by default.
    /// - Throws: ``ValidationError`` (field `log file`) when the file cannot be opened for appending
    ///   or is refused.
    public init(path: String, maximumBytes: Int = 5 * 1024 * 1024, backups: Int = 3) throws(ValidationError) {
        self.path = path
        self.maximumBytes = max(1024, maximumBytes)
        self.backups = max(1, backups)
        descriptor = Mutex(try Self.open(path))
    }

    deinit {
        descriptor.withLock { _ = close($0) }
    }

    /// Appends `event`, rotating first if the line would take the file past ``maximumBytes``.
    public func write(_ event: LogEvent) {
        let line = Array(LogLine.format(event).utf8)
        descriptor.withLock { descriptor in
            reopenIfMoved(&descriptor)
            var status = stat()
            if fstat(descriptor, &status) == 0, Int(status.st_size) > 0, Int(status.st_size) + line.count > maximumBytes
            {
                rotate(&descriptor)
            }
            systemWriteAll(descriptor, line)
        }
    }

    /// Follows a rotation made by another process (or `logrotate`): when ``path`` no longer names
    /// the open file, opens the file that it names now.
    private func reopenIfMoved(_ descriptor: inout Int32) {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0 else { return }
        if stat(path, &named) == 0, named.st_ino == open.st_ino, named.st_dev == open.st_dev { return }
        guard let fresh = try? Self.open(path) else { return }
        close(descriptor)
        descriptor = fresh
    }

    /// Renames the file to `.1` (shifting older ones) and opens a new one. If the new file cannot be
    /// opened, logging carries on in the old descriptor rather than dropping lines.
    private func rotate(_ descriptor: inout Int32) {
        for index in stride(from: backups - 1, through: 1, by: -1) {
            rename("\(path).\(index)", "\(path).\(index + 1)")
        }
        guard rename(path, "\(path).1") == 0, let fresh = try? Self.open(path) else { return }
        close(descriptor)
        descriptor = fresh
    }

    /// Opens the file for appending through ``PrivateFile``: created with mode 0600; a symbolic link,
    /// a file of another user or with other hard links refused; a file of this user that others could
    /// read made 0600.
    private static func open(_ path: String) throws(ValidationError) -> Int32 {
        do throws(PrivateFile.Refusal) {
            return try PrivateFile.open(path, flags: O_WRONLY | O_APPEND | O_NONBLOCK, create: true)
        } catch {
            throw ValidationError(
                field: "log file",
                message: error.isInsecure
                    ? "the log file \(path) was not opened: \(error.message)"
                    : "cannot open the log file \(path): \(error.message); check that its folder exists and is writable"
            )
        }
    }
}
