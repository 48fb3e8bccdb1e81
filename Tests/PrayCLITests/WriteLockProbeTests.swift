import Testing

/// The kill tests' reading of `/proc/locks` (``WriteLockProbe``): who holds a database's WAL locks,
/// from a table as Linux writes it.
@Suite struct WriteLockProbeTests {
    /// `/tmp`'s device here: major 0xfe, minor 0 (`fe:00` in the table), as glibc's makedev packs it.
    static let device: UInt64 = 0xfe00
    static let inode: UInt64 = 253_853

    /// A table's line: a POSIX lock of `pid` on bytes `first...last` of `file`.
    static func line(_ id: Int, _ type: String, _ pid: Int, _ file: String, _ first: Int, _ last: Int) -> String {
        "\(id): POSIX  ADVISORY  \(type) \(pid) \(file) \(first) \(last)"
    }

    @Test func aWriterIsTheWriteLockWithAReadMarkAndNoRecovery() {
        // Given: process 4242 holds the write lock (byte 120) and a shared read mark (124) of the file
        let file = "fe:00:\(Self.inode)"
        let writing = [Self.line(1, "WRITE", 4242, file, 120, 120), Self.line(2, "READ", 4242, file, 124, 124)]
        // Then: it is inside a write transaction
        let state = WriteLockProbe.state(
            locks: writing.joined(separator: "\n"), device: Self.device, inode: Self.inode)
        #expect(state == .writing(4242))
        // and with the recover lock (122) as well, it is rebuilding the index, not writing
        let recovering = writing + [Self.line(3, "WRITE", 4242, file, 121, 122)]
        #expect(
            WriteLockProbe.state(locks: recovering.joined(separator: "\n"), device: Self.device, inode: Self.inode)
                == .recovering(4242))
        // and a process waiting for the lock (`->`) holds nothing
        let waiting = "1: -> POSIX  ADVISORY  WRITE 5151 \(file) 120 120"
        #expect(WriteLockProbe.state(locks: waiting, device: Self.device, inode: Self.inode) == .free)
    }

    @Test func theSameInodeOnAnotherDeviceIsAnotherFile() {
        // Given: another test's database, on another file system, with the same inode number, written
        let other = "00:2d:\(Self.inode)"
        let table = [Self.line(1, "WRITE", 5151, other, 120, 120), Self.line(2, "READ", 5151, other, 124, 124)]
            .joined(separator: "\n")
        // Then: this file is free
        #expect(WriteLockProbe.state(locks: table, device: Self.device, inode: Self.inode) == .free)
        // and the other one is written, read with its own device (major 0, minor 0x2d)
        #expect(WriteLockProbe.state(locks: table, device: 0x2d, inode: Self.inode) == .writing(5151))
        // and a major or minor number past 8 bits is packed as glibc packs it
        let large = "103:1a5:\(Self.inode)"
        let packed: UInt64 = (0x103 & 0xfff) << 8 | (0x1a5 & 0xff) | (0x1a5 & ~0xff) << 12
        let lines = [Self.line(1, "WRITE", 6161, large, 120, 120), Self.line(2, "READ", 6161, large, 124, 127)]
        #expect(
            WriteLockProbe.state(locks: lines.joined(separator: "\n"), device: packed, inode: Self.inode)
                == .writing(6161))
    }
}
