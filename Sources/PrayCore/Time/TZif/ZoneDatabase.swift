#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's tz database, read directly: a zone's TZif file (RFC 8536) under `/usr/share/zoneinfo`
/// (Apple's `/var/db/timezone/zoneinfo` where that is missing), read once on first use and kept for the
/// life of the process — a few kilobytes a zone.
///
/// This is how PrayKit computes a zone's offsets: Foundation's `TimeZone` on Linux asks ICU, whose first
/// answer maps and reads ICU's data (a quarter of a one-day command's start-up) and whose every answer
/// takes the zone's lock. Where the folder or a zone's file is missing (an app's sandbox on Apple
/// platforms), ``ZonePeriods`` asks Foundation instead.
package struct ZoneDatabase: Sendable {
    /// The folders searched, in order.
    package let folders: [String]

    /// A database of the zones under `folders`.
    package init(folders: [String]) {
        self.folders = folders
    }

    /// The system's: `/usr/share/zoneinfo`, else `/var/db/timezone/zoneinfo`.
    package static let system = ZoneDatabase(folders: ["/usr/share/zoneinfo", "/var/db/timezone/zoneinfo"])

    /// The zone named `identifier` (`Europe/London`, `US/Eastern`), or `nil` when no folder has a TZif
    /// file of that name this reader accepts.
    package func zone(named identifier: String) -> TZifZone? {
        guard Self.isZoneName(identifier) else { return nil }
        for folder in folders {
            guard let bytes = Self.contents(of: folder + "/" + identifier) else { continue }
            return bytes.withUnsafeBytes { TZifZone($0) }
        }
        return nil
    }

    /// The zones read so far by identifier (`nil`: no file), shared by the process; at most
    /// ``capacity``, then the cache starts again (a zone's name is checked before it gets here, so
    /// the names are those of the database: about 600).
    private static let zones = ReadMostly<[String: TZifZone?]>([:])
    private static let capacity = 4096

    /// The system database's zone named `identifier`, read once.
    package static func systemZone(named identifier: String) -> TZifZone? {
        if let found = zones.read({ $0[identifier] }) { return found }
        let zone = system.zone(named: identifier)
        zones.write { zones in
            if zones.count >= capacity { zones.removeAll(keepingCapacity: true) }
            zones[identifier] = .some(zone)
        }
        return zone
    }

    // MARK: - Helpers

    /// Whether `identifier` can be a file's name under the folder: letters, digits, `_`, `+`, `-` and
    /// `/` between parts, never `.` (so never `..`), never a leading `/`.
    static func isZoneName(_ identifier: String) -> Bool {
        guard let first = identifier.utf8.first, first != UInt8(ascii: "/"), identifier.utf8.count <= 64 else {
            return false
        }
        return identifier.utf8.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte)
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+")
        }
    }

    /// A regular file's bytes (at most 1 MB: a TZif file of the tz database is a few kilobytes), or
    /// `nil` when it cannot be read.
    private static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size <= 1 << 20 else {
            return nil
        }
        let size = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return -1 }
                return read(descriptor, base + done, size - done)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }
}
