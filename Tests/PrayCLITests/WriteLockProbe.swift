import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sees from outside which process is inside a write transaction on a SQLite database, so a test
/// can tell that a child's write has begun — and whether it is still inside it — without changing
/// the child.
///
/// In WAL mode SQLite's unix VFS implements the WAL locks as POSIX advisory locks on bytes 120…127
/// of the `-shm` file (https://www.sqlite.org/walformat.html §2.3.1, "How The Locks Are
/// Implemented"): byte 120 is WAL_WRITE_LOCK, 122 WAL_RECOVER_LOCK, 123…127 the read marks. A write
/// transaction holds a shared read mark from `BEGIN IMMEDIATE` to the end of `COMMIT` and the write
/// lock within it; a process that rebuilds the index (the first to open the file, or after a crash)
/// holds the write lock too, with the recover lock and no shared read mark. So "writing" is: the
/// write lock, a shared read mark, and not the recover lock, all held by one process.
///
/// On Linux the probe reads `/proc/locks`, which lists every lock with its owner. Elsewhere it asks
/// `fcntl(F_GETLK)`, which names one owner per byte and cannot see shared read marks, so there
/// "writing" is only "the write lock without the recover lock". The calling process must then have
/// no SQLite connection open on the database: closing the probe's descriptor drops every POSIX lock
/// the process holds on the file.
struct WriteLockProbe: Sendable {
    /// What the locks say.
    enum State: Equatable {
        /// No process holds the write lock.
        case free
        /// `pid` is inside a write transaction.
        case writing(pid_t)
        /// `pid` holds the write lock to rebuild the index (or is taking or leaving it), not to write.
        case recovering(pid_t)
    }

    /// The `-shm` file of the database.
    let path: String

    /// A probe of the database at `database`.
    init(database: String) {
        path = database + "-shm"
    }

    /// The state now; `.free` when the `-shm` file does not exist (no process has the database open).
    ///
    /// On Linux one reading can miss a lock: the kernel writes `/proc/locks` a page at a time, and
    /// locks that other processes take or drop between two pages move the rest of the list, so lines
    /// are skipped. While the processes that matter are stopped, ``stoppedState(readings:)`` reads it
    /// again.
    func state() -> State {
        #if os(Linux)
            var status = stat()
            guard stat(path, &status) == 0, let table = Self.text(of: "/proc/locks") else { return .free }
            return Self.state(locks: table, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        #else
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return .free }
            defer { close(descriptor) }
            guard let writer = holder(of: 120, descriptor) else { return .free }
            return holder(of: 122, descriptor) == nil ? .writing(writer) : .recovering(writer)
        #endif
    }

    /// The state while the processes holding the database's locks are stopped (`freeze(limit:)`):
    /// their locks no longer change, so a reading that finds one inside its write transaction is the
    /// truth, and one that does not may have missed its lines (``state()``). Up to `readings` readings:
    /// the first that finds a writer; else a recovery if one found it; else `.free`.
    func stoppedState(readings: Int = 5) -> State {
        var found = State.free
        for _ in 0..<readings {
            switch state() {
            case .writing(let pid): return .writing(pid)
            case .recovering(let pid): found = .recovering(pid)
            case .free: break
            }
        }
        return found
    }

    /// The text of a `/proc` file. (Not `String(contentsOfFile:)`, which in Swift 6.3 on Linux leaks
    /// a buffer for files that report a size of zero, as `/proc` files do.)
    static func text(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }

    /// The state that a `/proc/locks` table gives for the file `device` and `inode` name (`st_dev`,
    /// `st_ino`). A line reads `1: POSIX  ADVISORY  WRITE 4242 fd:00:1234 120 120` (id, kind, mode,
    /// type, pid, the device's major and minor numbers in hexadecimal and the inode, first and last
    /// byte); a line with `->` is a process waiting for a lock, not holding it. The device counts: the
    /// same inode number on another file system (a database of another test) is another file.
    static func state(locks table: String, device: UInt64, inode: UInt64) -> State {
        // Linux's dev_t (glibc's makedev): the major number in bits 8–19 and 44–63, the minor in bits
        // 0–7 and 20–43.
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        var held: [(pid: pid_t, write: Bool, bytes: ClosedRange<Int>)] = []
        for line in table.split(separator: "\n") where !line.contains("->") {
            let fields = line.split(separator: " ")
            guard fields.count >= 8, fields[1] == "POSIX", let pid = pid_t(fields[4]) else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt64(file[0], radix: 16) == major, UInt64(file[1], radix: 16) == minor,
                UInt64(file[2]) == inode, let first = Int(fields[6])
            else { continue }
            let last = Int(fields[7]) ?? Int.max  // "EOF"
            guard first <= last else { continue }
            held.append((pid, fields[3] == "WRITE", first...last))
        }
        guard let writer = held.first(where: { $0.write && $0.bytes.contains(120) })?.pid else { return .free }
        let mine = held.filter { $0.pid == writer }
        let recovering = mine.contains { $0.bytes.contains(122) }
        let reading = mine.contains { !$0.write && $0.bytes.overlaps(123...127) }
        return !recovering && reading ? .writing(writer) : .recovering(writer)
    }

    #if !os(Linux)
        /// The process holding any lock on byte `offset`, or `nil`.
        private func holder(of offset: Int, _ descriptor: Int32) -> pid_t? {
            var lock = flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_start = off_t(offset)
            lock.l_len = 1
            guard fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
            return lock.l_pid
        }
    #endif
}

extension PraykitProcess.Running {
    /// The child's process id.
    var pid: pid_t { process.processIdentifier }

    /// Freezes the child (SIGSTOP) and returns once it no longer runs — stopped, or already exited —
    /// so that what it holds can be inspected before it is killed. `limit` only keeps a test from
    /// hanging if the system never reports the stop.
    func freeze(limit: TimeInterval = 60) {
        guard process.isRunning else { return }
        Foundation.kill(pid, SIGSTOP)
        let deadline = Date(timeIntervalSinceNow: limit)
        while process.isRunning, !Self.isStopped(pid), Date() < deadline { usleep(50) }
    }

    /// Whether `/proc` reports the process stopped (state `T`) or gone.
    private static func isStopped(_ pid: pid_t) -> Bool {
        guard let stat = WriteLockProbe.text(of: "/proc/\(pid)/stat"),
            let close = stat.lastIndex(of: ")")
        else { return true }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state == "T" || state == "t" || state == "Z" || state == "X"
    }
}
