import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The file that keeps a device's token beside its database (SYNC.md §7): 0600, created without
/// following a symbolic link, read only when it belongs to this user and no one else can read it.
/// The token is never kept in the database, an export, argv, a log line or a hook's environment.
struct SyncTokenFile {
    /// The file's path: the database's, with `.sync-token`.
    let path: String
    /// Where a refused file is said.
    let log: LogManager

    /// Writes the token to its own file, 0600, never through a symbolic link.
    /// - Throws: ``StorageError``.
    func write(_ token: String) throws {
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError(
                kind: .cannotOpen, message: "cannot create the token file: \(String(cString: strerror(errno)))",
                path: path)
        }
        defer { close(descriptor) }
        fchmod(descriptor, 0o600)
        let bytes = Array(token.utf8)
        guard systemWrite(descriptor, bytes, bytes.count) == bytes.count, fsync(descriptor) == 0 else {
            throw StorageError(kind: .full, message: "cannot write the token file", path: path)
        }
    }

    /// The token, when its file is there, belongs to this user and no one else can read it.
    func read() -> String? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            log.warning("Sync token file refused: it must belong to this user and be private (0600)", metadata: [:])
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = systemRead(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let token = String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespaceAndNewlines()
        return token.hasPrefix("pkd_") ? token : nil
    }

    /// Removes the file (a logout, a failed login).
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
