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

/// Opens the files that hold what a user records — the database and its `-wal` and `-shm` files, the
/// log file — so that no other user can read them or slip in a file of their own.
///
/// Every check is made on the open descriptor (`fstat`), never on a path that is then opened: the
/// file is opened with `O_NOFOLLOW` (a symbolic link is refused, not followed), created with mode
/// 0600 from its first moment, and refused when it is not a regular file, belongs to another user or
/// has other hard links. A file of this user that others could read or write is made 0600
/// (`fchmod`).
enum PrivateFile {
    /// Opens `path` with `flags` (and `O_CREAT`, mode 0600, when `create`), checked as the type's
    /// summary says.
    /// - Returns: The descriptor; the caller closes it.
    /// - Throws: ``Refusal``.
    static func open(_ path: String, flags: Int32, create: Bool) throws(Refusal) -> Int32 {
        let descriptor = systemOpen(path, flags | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0), 0o600)
        guard descriptor >= 0 else { throw refusal(errno) }
        do {
            try check(descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Creates the file at `path` (mode 0600) if it is not there, and checks it, as
    /// ``open(_:flags:create:)`` does, without keeping it open.
    /// - Throws: ``Refusal``.
    static func createOrCheck(_ path: String) throws(Refusal) {
        close(try open(path, flags: O_RDONLY | O_NONBLOCK, create: true))
    }

    /// Checks the file at `path` when there is one, as ``open(_:flags:create:)`` would, without
    /// creating it (the `-wal` and `-shm` files SQLite opens next to a database).
    /// - Throws: ``Refusal``.
    static func checkIfPresent(_ path: String) throws(Refusal) {
        let descriptor = systemOpen(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw refusal(errno)
        }
        defer { close(descriptor) }
        try check(descriptor)
    }

    /// Checks the folder of a database: it must be a folder of this user or of root that neither its
    /// group nor others can write. Otherwise another user could plant the `-wal` or `-shm` file
    /// SQLite opens beside the database, or swap the file between two opens — a sticky folder such
    /// as `/tmp` included, since it lets anyone create new names.
    /// - Throws: ``Refusal``.
    static func checkFolder(_ folder: String) throws(Refusal) {
        var status = stat()
        guard stat(folder, &status) == 0 else { throw Refusal(isInsecure: false, message: describe(errno)) }
        guard status.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) else {
            throw Refusal(isInsecure: false, message: "\(folder) is not a folder")
        }
        guard status.st_uid == geteuid() || status.st_uid == 0 else {
            throw Refusal(
                isInsecure: true,
                message: "its folder \(folder) belongs to another user (uid \(status.st_uid)), who could replace it")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw Refusal(
                isInsecure: true,
                message: "other users can write in its folder \(folder) and could plant or replace its files; "
                    + "use a folder only you can write (chmod go-w \(folder), or mktemp -d)")
        }
    }

    /// Checks an open descriptor, making a file of this user private when others could read it.
    private static func check(_ descriptor: Int32) throws(Refusal) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Refusal(isInsecure: false, message: describe(errno)) }
        guard status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            throw Refusal(isInsecure: true, message: "it is not a regular file")
        }
        guard status.st_uid == geteuid() else {
            throw Refusal(
                isInsecure: true,
                message: "it belongs to another user (uid \(status.st_uid)), who could read or change it")
        }
        guard status.st_nlink == 1 else {
            throw Refusal(
                isInsecure: true,
                message: "it has \(status.st_nlink) hard links, and so another name it may be reached by")
        }
        if status.st_mode & 0o077 != 0, fchmod(descriptor, 0o600) != 0 {
            throw Refusal(
                isInsecure: true, message: "others may read it and it cannot be made private: \(describe(errno))")
        }
    }

    private static func refusal(_ code: Int32) -> Refusal {
        guard code == ELOOP else { return Refusal(isInsecure: false, message: describe(code)) }
        return Refusal(
            isInsecure: true,
            message: "it is a symbolic link; PrayKit opens only the file itself, so that a link cannot lead it to "
                + "another user's file (point to the real file instead)")
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Why a file or folder was not opened.
    struct Refusal: Error {
        /// Whether the file is refused for safety (a link, another user's file, a folder others can
        /// write) rather than because it could not be opened at all.
        let isInsecure: Bool
        /// What is wrong, for a sentence that names the file.
        let message: String
    }
}

/// Writes every byte of `bytes` to `descriptor` with `write(2)` — in one call unless the system writes
/// fewer — retrying after a signal; stops silently at an error (a log line has nowhere else to go).
func systemWriteAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { bytes in
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let count = systemWrite(descriptor, base + written, bytes.count - written)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}

/// The first bytes of the file at `path`, up to `count` (fewer at its end), read with `open(2)` and
/// `read(2)`; `nil` when it cannot be opened.
func systemReadPrefix(of path: String, count: Int) -> [UInt8]? {
    let descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC, 0)
    guard descriptor >= 0 else { return nil }
    defer { _ = close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let got = bytes.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + filled, count - filled) }
        if got < 0 && errno == EINTR { continue }
        // An error while reading gives what a failed read always gave: no bytes.
        guard got >= 0 else { return [] }
        if got == 0 { break }
        filled += got
    }
    return Array(bytes.prefix(filled))
}

// `open(2)`, `write(2)` and `read(2)`, apart from the types whose own `open` and `write` would shadow them (for
// the log file too).
#if canImport(Glibc)
    private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        Glibc.open(path, flags, mode)
    }
    func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        Glibc.write(descriptor, buffer, count)
    }
    func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        Glibc.read(descriptor, buffer, count)
    }
#else
    private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        Darwin.open(path, flags, mode)
    }
    func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        Darwin.write(descriptor, buffer, count)
    }
    func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        Darwin.read(descriptor, buffer, count)
    }
#endif
