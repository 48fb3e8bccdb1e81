internal import CSQLite
import Dispatch
import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// PrayKit's database file: one serialized SQLite connection, opened on first use, migrated to the
/// current schema, and a list of observers told after every committed write.
///
/// The connection runs in WAL mode with `synchronous=FULL` (a commit that returned survives a killed
/// process and a power cut), `foreign_keys=ON` and a busy timeout, so two processes writing at once
/// wait for each other instead of failing. Nothing is ever deleted or rewritten to "repair" a file
/// that is damaged or not a database: the error says so and the file stays as it was.
///
/// The stores' `async` views (``PreferencesStoreSQLite``'s and the others') run on ``workQueue``, a
/// serial Dispatch queue of this database: a write that waits for another process's lock waits there,
/// on a thread of its own, never on the caller's actor or a cooperative thread of Swift concurrency.
/// The synchronous methods run on the caller's thread; both kinds take turns on one connection.
public final class SQLiteDatabase: Sendable {
    /// The database file.
    public let path: String
    /// The serial queue on which the stores' `async` views run their work, one per database.
    public let workQueue = WorkQueue(label: "org.praykit.database")
    private let log: LogManager
    private let migrations: [Schema.Migration]
    private let state = Mutex(State())
    /// Apart from the connection, so that a stream can be made or ended while a write waits for a
    /// lock (with the connection held) without waiting for it.
    private let observers = Mutex<Observers>(Observers())
    /// How often the streams look for another process's commits (``observe(buffering:_:)``).
    static let otherProcessesInterval: TimeInterval = 1

    /// The observers by token, and the watch for other processes' commits while any wants them.
    private struct Observers {
        var lastToken = 0
        var all: [Int: (call: @Sendable () -> Void, otherProcesses: Bool)] = [:]
        var watch: (any DispatchSourceTimer)?
        /// `PRAGMA data_version` at the last look: it changes when another connection commits.
        var dataVersion: Int64?
    }

    /// How long a statement waits for another process's lock, in milliseconds.
    public static let busyTimeout: Int32 = 10_000

    private struct State {
        var connection: SQLiteConnection?
    }

    /// Creates a handle on the file at `path`; nothing is opened or created until first use.
    /// - Parameters:
    ///   - path: The database file.
    ///   - log: The logger; opening and migrating are logged at `info`.
    public convenience init(path: String, log: LogManager) {
        self.init(path: path, log: log, migrations: Schema.migrations)
    }

    /// Creates a handle on a database of another schema (the sync server's store, in PrayServer).
    package init(path: String, log: LogManager, migrations: [Schema.Migration]) {
        self.path = path
        self.log = log
        self.migrations = migrations
    }

    /// Whether the file exists, so that readers can answer "nothing stored" without creating it.
    public var exists: Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Runs `body` with the connection, outside any explicit transaction.
    /// - Throws: What `body` throws, or ``StorageError`` when the database cannot be opened.
    package func read<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try state.withLock { state in
            try body(try open(&state))
        }
    }

    /// Runs `body` in one read transaction: everything it reads is one snapshot, and in WAL mode other
    /// connections go on writing meanwhile, so `body` may take its time (an export writing to a slow
    /// pipe). Unlike ``read(_:)``, `body` need not be `Sendable`: it runs on the caller's thread.
    /// - Throws: What `body` throws, or ``StorageError``.
    package func snapshot<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try state.withLock { state in
            let connection = try open(&state)
            try connection.execute("BEGIN DEFERRED")
            // Nothing was written: ending the transaction either way only releases the snapshot.
            defer { sqlite3_exec(connection.handle, "ROLLBACK", nil, nil, nil) }
            return try body(connection)
        }
    }

    /// Runs `body` in an immediate transaction, commits, then tells the observers.
    /// - Throws: What `body` throws, or ``StorageError``; then nothing was written.
    package func write<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        let result = try state.withLock { state in
            let connection = try open(&state)
            return try connection.transaction { try body(connection) }
        }
        for observer in observers.withLock({ $0.all.values.map(\.call) }) { observer() }
        return result
    }

    /// Whether a thread holds the connection at this moment: running a statement, or inside a write
    /// that waits for another connection's lock. Tests use it to see that a write has begun.
    package var isConnectionInUse: Bool {
        state.withLockIfAvailable { _ in true } == nil
    }

    /// A stream of what `read` returns: now, then after every committed write that changed it — of
    /// this process at once, of another process (another `praykit`, a sync run elsewhere) within
    /// about ``otherProcessesInterval``, seen through `PRAGMA data_version` (a write elsewhere in the
    /// database, or one that wrote the same values, yields nothing; a slow reader gets the newest).
    /// Each read runs on ``workQueue``, so making the stream never waits for the connection, and the
    /// reads run in turn, so the last value yielded is the latest.
    /// - Parameters:
    ///   - buffering: What the stream keeps for a slow reader: the newest value (a test may keep all).
    ///   - read: What the stream yields.
    func observe<Value: Sendable & Equatable>(
        buffering: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1),
        _ read: @escaping @Sendable () throws -> Value
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: buffering)
        let queue = workQueue
        // Touched only on the work queue, one read at a time; the mutex makes that visible to the checker.
        let last = Mutex<Value?>(nil)
        let yieldLatest: @Sendable () -> Void = { [log] in
            queue.submit {
                do {
                    let value = try read()
                    let changed = last.withLock { last in
                        defer { last = value }
                        return last != value
                    }
                    if changed { continuation.yield(value) }
                } catch {
                    // Nothing to yield; the next write reads again. Said, so that a stream that seems
                    // stuck can be explained.
                    log.warning("Database read for a stream failed", metadata: ["error": "\(error)"])
                }
            }
        }
        let token = addObserver(yieldLatest, otherProcesses: true)
        continuation.onTermination = { [self] _ in removeObserver(token) }
        yieldLatest()
        return stream
    }

    /// Calls `observer` after every committed write of this process — and, with `otherProcesses`,
    /// within about ``otherProcessesInterval`` of another process's — until the returned token is
    /// passed to ``removeObserver(_:)``.
    func addObserver(_ observer: @escaping @Sendable () -> Void, otherProcesses: Bool = false) -> Int {
        let (token, start) = observers.withLock { observers in
            observers.lastToken += 1
            observers.all[observers.lastToken] = (observer, otherProcesses)
            return (observers.lastToken, otherProcesses && observers.watch == nil)
        }
        if start { watchOtherProcesses() }
        return token
    }

    /// Stops calling the observer of `token`; the watch for other processes stops with the last
    /// observer that wanted it.
    func removeObserver(_ token: Int) {
        observers.withLock { observers in
            observers.all.removeValue(forKey: token)
            guard !observers.all.values.contains(where: \.otherProcesses) else { return }
            // Cancelling calls nothing back: no handler runs under the lock.
            observers.watch?.cancel()
            observers.watch = nil
            observers.dataVersion = nil
        }
    }

    /// Looks at `PRAGMA data_version` every ``otherProcessesInterval`` — on this process's own
    /// connection, whose value changes only when another connection commits — and calls the
    /// observers that want other processes' writes when it changed. A look is skipped while the
    /// connection is busy (a write that waits for a lock) or not open yet.
    private func watchOtherProcesses() {
        observers.withLock { observers in
            guard observers.watch == nil, observers.all.values.contains(where: \.otherProcesses) else { return }
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(
                deadline: .now() + Self.otherProcessesInterval, repeating: Self.otherProcessesInterval,
                leeway: .milliseconds(100))
            timer.setEventHandler { [weak self] in self?.lookForOtherProcesses() }
            timer.resume()
            observers.watch = timer
        }
    }

    private func lookForOtherProcesses() {
        let looked: Int64?? = state.withLockIfAvailable { state in
            try? state.connection?.integer("PRAGMA data_version")
        }
        guard let version = looked ?? nil else { return }
        let due = observers.withLock { observers -> [@Sendable () -> Void] in
            defer { observers.dataVersion = version }
            // The first look calls them too: a commit made before it cannot be told from one after.
            guard observers.dataVersion != version else { return [] }
            return observers.all.values.filter(\.otherProcesses).map(\.call)
        }
        for observer in due { observer() }
    }

    /// Closes the connection; the next use opens the file again (for tests that replace it).
    public func close() {
        state.withLock { $0.connection = nil }
    }

    // MARK: - Opening

    private func open(_ state: inout State) throws(StorageError) -> SQLiteConnection {
        if let connection = state.connection { return connection }
        // A failure is thrown, not logged: the caller reports it once (log or throw, never both).
        let connection = try openAndMigrate()
        state.connection = connection
        return connection
    }

    private func openAndMigrate() throws(StorageError) -> SQLiteConnection {
        let existed = exists
        if !existed { try createFolder() }
        try checkWritable(existed: existed)
        try checkPrivate()
        let connection = try SQLiteConnection(path: path)
        sqlite3_busy_timeout(connection.handle, Self.busyTimeout)
        // Reading the journal mode reads the header first: a file that is not a database fails here,
        // before anything is written to it.
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
        if !existed {
            log.info("Database created", metadata: ["storage.path": path])
        } else {
            log.debug("Database opened", metadata: ["storage.path": path])
        }
        try Schema.migrate(connection, migrations: migrations, log: log)
        return connection
    }

    /// A folder or file that cannot be written is said at open, as `readOnly`, rather than found by
    /// the first write: WAL keeps its `-wal` and `-shm` files beside the database, so even reading
    /// needs a folder that takes new files. (`access` also reports a read-only file system to root.)
    private func checkWritable(existed: Bool) throws(StorageError) {
        let folder = FilePath.folder(of: path)
        let checks = [(folder.isEmpty ? "." : folder, "the folder"), (existed ? path : "", "the file")]
        for (target, what) in checks where !target.isEmpty && access(target, W_OK) != 0 {
            let reason = String(cString: strerror(errno))
            throw StorageError(
                kind: .readOnly, message: "\(what) \(target) is read-only for this user: \(reason)", path: path)
        }
    }

    /// Only the user may read what they record, and no one else may plant a file SQLite then uses:
    /// the folder must be one only this user (or root) can write, and the database and its `-wal`
    /// and `-shm` files, when present, regular files of this user (see ``PrivateFile``). A new
    /// database is created here with mode 0600, before SQLite opens it, so it is never readable by
    /// others, not even for a moment; SQLite gives the `-wal` and `-shm` files the database's mode.
    ///
    /// Each descriptor is closed before SQLite opens the file: closing a descriptor of a file drops
    /// every POSIX lock the process holds on it, SQLite's included.
    private func checkPrivate() throws(StorageError) {
        func storageError(_ refusal: PrivateFile.Refusal, file: String = "") -> StorageError {
            StorageError(
                kind: refusal.isInsecure ? .insecure : .cannotOpen, message: file + refusal.message, path: path)
        }
        let folder = FilePath.folder(of: path)
        do throws(PrivateFile.Refusal) {
            try PrivateFile.checkFolder(folder.isEmpty ? "." : folder)
            try PrivateFile.createOrCheck(path)
        } catch {
            throw storageError(error)
        }
        for suffix in ["-wal", "-shm"] {
            do throws(PrivateFile.Refusal) {
                try PrivateFile.checkIfPresent(path + suffix)
            } catch {
                throw storageError(error, file: "its \(suffix) file: ")
            }
        }
    }

    private func createFolder() throws(StorageError) {
        let folder = FilePath.folder(of: path)
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw StorageError(
                kind: .cannotOpen, message: "cannot create the folder \(folder): \(FileErrorReason.of(error))",
                path: path
            )
        }
    }
}
