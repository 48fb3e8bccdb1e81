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

/// Reads files and standard input with the system's `open` and `read`, at most a given number of
/// bytes (what Foundation's `FileHandle` did, which full Foundation has and FoundationEssentials has
/// not; docs/performance.md, "Zones, Foundation and ICU").
enum FileBytes {
    /// Why a read failed: the system's `errno`.
    struct Failure: Error {
        let code: Int32

        /// The system's words for it (`Permission denied`).
        var reason: String { String(cString: strerror(code)) }

        /// Whether the file may not be read (`EACCES`).
        var isPermissionDenied: Bool { code == EACCES }

        /// The failure of the last system call.
        static var last: Failure { Failure(code: errno) }
    }

    /// Whether `path` is a folder (following symbolic links); `nil` when nothing is there.
    static func isFolder(_ path: String) -> Bool? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR
    }

    /// The first `limit` bytes of the file at `path`.
    /// - Throws: ``Failure`` when it cannot be opened or read.
    static func read(path: String, limit: Int) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .last }
        defer { close(descriptor) }
        return try read(descriptor: descriptor, limit: limit)
    }

    /// The next `limit` bytes of an open file (fewer at its end), read until the end or the limit.
    /// - Throws: ``Failure`` when a read fails.
    static func read(descriptor: Int32, limit: Int) throws(Failure) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while data.count < limit {
            let wanted = min(chunk.count, limit - data.count)
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .last
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
        }
        return data
    }

    /// The system's `read(2)` (named apart from ``read(descriptor:limit:)``).
    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(descriptor, buffer, count)
        #else
            Darwin.read(descriptor, buffer, count)
        #endif
    }
}
