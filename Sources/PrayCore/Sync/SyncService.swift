#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Keeps a person's log, synced settings and saved place the same on all their devices, through a
/// `praykit serve` peer (SYNC.md): local writes are acknowledged when they are on disk with their
/// outbox entry; a cycle pushes the outbox, then pulls what other devices wrote.
///
/// ```swift
/// for await status in dependency.syncService().status() {
///     label.text = status.summary          // "Synced 2 min ago", "3 changes not yet synced"
/// }
/// try await dependency.syncService().syncNow()   // "Sync now"
/// ```
public protocol SyncService: SyncSpaceService {
    /// The status now, then again after every change of it (a write, a cycle, a failure), until the
    /// task is cancelled.
    func status() -> AsyncStream<SyncStatus>

    /// The status now.
    /// - Throws: ``StorageError`` when the database cannot be read.
    func currentStatus() throws -> SyncStatus

    /// Runs one cycle now: push until the outbox is empty, then pull until the server has no more.
    /// - Returns: What the cycle did.
    /// - Throws: ``SyncError`` (not logged in, logged out by the server, …), ``NetworkError``, or
    ///   ``StorageError``; what was pushed or pulled before the failure is kept.
    @discardableResult
    func syncNow() async throws -> SyncReport

    /// Asks for a cycle soon (a few seconds after a change, so that several changes go together);
    /// returns at once and never fails.
    func triggerSync()

    /// Whether a store of this container wrote a change to sync's outbox since this process's last
    /// cycle: the store that wrote it is what asks for the sync, so a command-line tool calls
    /// ``syncAfterWrite()`` before it exits when this is true (an app's scheduler syncs on its own).
    var needsSyncAfterWrite: Bool { get }

    /// A short cycle right after a write (one quick attempt per request), which never fails and never
    /// holds the person up for long: the change waits in the outbox when the server is not reachable.
    /// Nothing happens unless ``needsSyncAfterWrite``.
    /// - Returns: What it did, or `nil` when nothing waits, sync is off, logged out or the server was
    ///   not reached.
    @discardableResult
    func syncAfterWrite() async -> SyncReport?

    /// A short cycle before a change that rewrites a whole synced record from this device's copy (a
    /// mosque's settings): the edit then starts from what the server has, so that another editor's
    /// change since the last sync is kept rather than written back over. It never fails and never
    /// holds the person up for long (one quick attempt per request, as ``syncAfterWrite()``).
    /// - Returns: What it did, or `nil` when sync is off, logged out or the server was not reached.
    @discardableResult
    func syncBeforeEdit() async -> SyncReport?

    /// Runs cycles until the task is cancelled (the reminders daemon runs it): a few seconds after a
    /// change, every 30 minutes, and with backoff (or the server's `Retry-After`) after a failure.
    func runScheduler() async

    /// The live updates (SYNC.md §9): holds the server's event stream while the device is online and
    /// pulls when it says another device changed a space this one reads, reconnecting with a jittered
    /// backoff; yields what happens. ``runScheduler()`` runs it too, so an app does nothing more. The
    /// sequence ends when the task that reads it is cancelled; without a server that streams (or a
    /// network service that cannot), it ends at once.
    func live() -> AsyncStream<SyncLiveEvent>

    /// How many local changes the server has not acknowledged yet.
    /// - Throws: ``StorageError``.
    func unsyncedCount() throws -> Int

    /// The latest cycles, newest first.
    /// - Throws: ``StorageError``.
    func history(limit: Int) throws -> [SyncHistoryEntry]

    /// Pairs this device with a server using a one-time code and turns sync on. On the first login,
    /// every log entry is queued (stamped with when it was recorded), and the settings and the place
    /// are queued as ``SyncLogin/Preference`` says. After a copied database or a revoked device, every
    /// change still waiting is pushed under the new client ID.
    /// - Returns: The status after the first cycle (or after pairing, when that cycle failed).
    /// - Throws: ``SyncError`` (the code was refused: wrong, used or expired), ``NetworkError``,
    ///   ``StorageError``. A login that fails changes nothing.
    @discardableResult
    func login(_ login: SyncLogin) async throws -> SyncStatus

    /// Turns sync off on this device: forgets the server, the token and sync's state; the log and the
    /// settings stay, and a later login sends them again. Refuses while changes wait for the server,
    /// unless `force`.
    /// - Returns: How many waiting changes were lost with `force`: the deletions (the data of the
    ///   other changes stays here, and the next login sends it; at a login that prefers the server's
    ///   settings, a setting the server also has is replaced and kept in ``conflicts()``).
    /// - Throws: ``SyncError`` (`unsyncedChanges`, saying how many), ``StorageError``.
    @discardableResult
    func logout(force: Bool) throws -> Int

    /// Tells the server this device is leaving, before ``logout(force:)``: the server retires the
    /// device (its token stops working there, and the operator's device list shows when), so a
    /// logged-out machine does not stay an active device. Changes nothing on this device.
    /// - Returns: `true` when the server retired the device (or had already), `false` when sync is not
    ///   set up here.
    /// - Throws: ``NetworkError`` when the server cannot be reached (the caller may log out anyway and
    ///   revoke the device on the server later), ``SyncError`` when it refuses.
    @discardableResult
    func retireDevice() async throws -> Bool

    /// Forgets how far this device has pulled, so that the next cycle pulls everything again (the merge
    /// rule keeps whatever is newer); changes that wait are kept.
    /// - Throws: ``SyncError`` (`notLoggedIn`), ``StorageError``.
    func reset() throws

    /// The changes the server refused, oldest first.
    /// - Throws: ``StorageError``.
    func failedChanges() throws -> [SyncFailedChange]

    /// Queues the refused changes again, with new stamps; returns how many.
    /// - Throws: ``StorageError``.
    @discardableResult
    func retryFailed() throws -> Int

    /// Forgets the refused changes; the next cycle pulls everything again so that the server's values
    /// replace them. Returns how many.
    /// - Throws: ``StorageError``.
    @discardableResult
    func dropFailed() throws -> Int

    /// The local values a pulled row replaced before the server had them (a change made here while
    /// another device changed the same row later, or this device's settings replaced by the server's
    /// at a login that prefers them), oldest first: never silently gone (SYNC.md §8, I15).
    /// - Throws: ``StorageError``.
    func conflicts() throws -> [SyncConflict]

    /// Makes the conflict's local value the row's value again, as a new change (it then wins, and
    /// syncs), and removes the conflict.
    /// - Throws: ``SyncError`` (`notLoggedIn`), ``StorageError``, ``ValidationError`` when there is
    ///   no conflict of that ID.
    func keepConflict(id: Int) throws

    /// Forgets a conflict: the value that won stays.
    /// - Throws: ``StorageError``, ``ValidationError`` when there is no conflict of that ID.
    func dismissConflict(id: Int) throws

    /// The queue the ``async`` view runs this service's synchronous methods on: the database's for
    /// the live service; ``WorkQueue/shared`` by default.
    var workQueue: WorkQueue { get }
}

/// What `sync login` needs: the server, the one-time code, a name for this device, and whose settings
/// win the first time.
public struct SyncLogin: Hashable, Sendable {
    /// Whose settings and place win on the first login.
    public enum Preference: String, CaseIterable, Hashable, Sendable {
        /// The server's, where it has them; this device's where it has none (the default).
        case server
        /// This device's.
        case local
    }

    /// The server: `https://…`, or `http://` to a loopback address (127.0.0.1, ::1).
    public var server: URL
    /// The pairing code `praykit serve sync users add` or `… sync pair` printed.
    public var code: String
    /// The name shown in `praykit serve sync devices list`.
    public var deviceName: String
    /// Whose settings win the first time.
    public var prefer: Preference

    /// This machine's host name, the default device name: from `gethostname`, never a DNS lookup
    /// (which can hang for seconds offline).
    public static func localHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this-device" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "this-device" : name
    }

    /// Creates a login.
    public init(server: URL, code: String, deviceName: String, prefer: Preference = .server) {
        self.server = server
        self.code = code
        self.deviceName = deviceName
        self.prefer = prefer
    }
}

/// A change the server refused, kept until the person retries or drops it.
public struct SyncFailedChange: Hashable, Sendable {
    /// The collection.
    public var collection: SyncCollection
    /// The row's key.
    public var key: String
    /// Put or delete.
    public var operation: SyncAPI.Operation
    /// Why the server refused it.
    public var reason: String
    /// When it was refused.
    public var failedAt: Date

    /// Creates a failed change.
    public init(collection: SyncCollection, key: String, operation: SyncAPI.Operation, reason: String, failedAt: Date) {
        self.collection = collection
        self.key = key
        self.operation = operation
        self.reason = reason
        self.failedAt = failedAt
    }
}

/// A local value that a pulled row replaced before the server had it, kept until the person keeps
/// or dismisses it (SYNC.md §8, I15).
public struct SyncConflict: Hashable, Sendable, Identifiable {
    /// Why the local value lost.
    public enum Reason: String, Hashable, Sendable {
        /// Another device changed the same row later (its stamp is greater).
        case newerElsewhere = "newer-elsewhere"
        /// A login that prefers the server's settings replaced this device's.
        case serverPreferred = "server-preferred"
    }

    /// The conflict's number on this device.
    public var id: Int
    /// The row's collection.
    public var collection: SyncCollection
    /// The row's key.
    public var key: String
    /// The value this device had, or `nil` when it had deleted the row.
    public var localValue: SyncValue?
    /// The value that won, or `nil` when the winner deleted the row.
    public var winningValue: SyncValue?
    /// Why the local value lost.
    public var reason: Reason
    /// When it lost.
    public var at: Date

    /// Creates a conflict.
    public init(
        id: Int, collection: SyncCollection, key: String, localValue: SyncValue?, winningValue: SyncValue?,
        reason: Reason, at: Date
    ) {
        self.id = id
        self.collection = collection
        self.key = key
        self.localValue = localValue
        self.winningValue = winningValue
        self.reason = reason
        self.at = at
    }
}

/// What a person sees of sync: "last synced", "3 changes not yet synced", failures.
public struct SyncStatus: Hashable, Sendable {
    /// Where sync stands.
    public enum Phase: String, Hashable, Sendable, CustomStringConvertible {
        /// Sync was never set up on this device.
        case off
        /// Logged in; nothing is running.
        case idle
        /// A cycle is running.
        case syncing
        /// The last cycle could not reach the server; changes wait.
        case offline
        /// The server refused this device (revoked, unknown): log in again; changes wait.
        case loggedOut
        /// The database was copied from another machine: log in again; changes wait.
        case needsLogin

        /// The raw value.
        public var description: String { rawValue }
    }

    /// Where sync stands.
    public var phase: Phase
    /// The server, when logged in.
    public var server: String?
    /// This device's name, when logged in.
    public var deviceName: String?
    /// When a cycle last finished without error.
    public var lastSynced: Date?
    /// Local changes the server has not acknowledged.
    public var unsyncedCount: Int
    /// When the oldest of them was made.
    public var oldestUnsynced: Date?
    /// Changes the server refused, kept for the person to retry or drop.
    public var failedCount: Int
    /// How many local values a pulled row replaced before the server had them (``SyncService/conflicts()``).
    public var conflictCount = 0
    /// Why the last cycle failed, while the phase is ``Phase/offline``.
    public var offlineReason: OfflineReason?

    /// Why a device is offline: what the last cycle met.
    public enum OfflineReason: String, Hashable, Sendable {
        /// No answer: no network, a name that does not resolve, a server that is down.
        case unreachable
        /// The server answers but cannot sync now: its store is unavailable, or it is starting or stopping.
        case serverUnavailable = "server-unavailable"
        /// The server asked this device to wait (too many requests).
        case rateLimited = "rate-limited"
        /// Another failure (an answer the protocol does not allow, a cycle that went on too long…): see
        /// ``SyncStatus/lastError``.
        case failed
    }
    /// The last error, in words.
    public var lastError: String?
    /// This device's ID on the server (`d_…`), when logged in.
    public var deviceID: String?
    /// The server's user this device belongs to, when logged in.
    public var user: String?
    /// The mosques this device follows that are no longer updated (their copy stays), by name.
    public var spacesNoLongerUpdated: [String] = []
    /// Since when a process on this machine holds the server's event stream (``SyncService/live()``),
    /// or `nil` when none does.
    public var liveSince: Date?
    /// Why the event stream last closed, while none is open.
    public var liveError: String?

    /// Creates a status.
    public init(
        phase: Phase, server: String? = nil, deviceName: String? = nil, lastSynced: Date? = nil,
        unsyncedCount: Int = 0, oldestUnsynced: Date? = nil, failedCount: Int = 0, lastError: String? = nil
    ) {
        self.phase = phase
        self.server = server
        self.deviceName = deviceName
        self.lastSynced = lastSynced
        self.unsyncedCount = unsyncedCount
        self.oldestUnsynced = oldestUnsynced
        self.failedCount = failedCount
        self.lastError = lastError
    }

    /// Sync off on this device.
    public static let off = SyncStatus(phase: .off)
}

/// What one cycle did.
public struct SyncReport: Hashable, Sendable {
    /// Local changes the server acknowledged.
    public var pushed: Int
    /// Rows pulled that changed something here.
    public var pulled: Int
    /// Changes the server refused (now in the failed list).
    public var rejected: Int
    /// Rows the server sent, whether or not they changed anything here (a row this device already has
    /// is received but not pulled).
    public var received = 0
    /// The mosques (by their names here) that this cycle found no longer updated: this user was
    /// removed, or the space was deleted; their last copy stays.
    public var gone: [String] = []

    /// Creates a report.
    public init(pushed: Int = 0, pulled: Int = 0, rejected: Int = 0) {
        self.pushed = pushed
        self.pulled = pulled
        self.rejected = rejected
    }
}

/// One cycle in the history.
public struct SyncHistoryEntry: Hashable, Sendable {
    /// When it ended.
    public var at: Date
    /// Whether it finished.
    public var succeeded: Bool
    /// What it did.
    public var report: SyncReport
    /// The error, when it did not finish.
    public var message: String?

    /// Creates an entry.
    public init(at: Date, succeeded: Bool, report: SyncReport, message: String? = nil) {
        self.at = at
        self.succeeded = succeeded
        self.report = report
        self.message = message
    }
}

/// A sync failure that is not a network or storage one.
public typealias SyncError = PrayKitError<SyncErrorKind>

/// What kind of failure a ``SyncError`` is.
public enum SyncErrorKind: String, Hashable, Sendable {
    /// This device is not logged in.
    case notLoggedIn
    /// The server refused the device (no, unknown or revoked token): log in again.
    case unauthorized
    /// The client ID belongs to another device.
    case forbidden
    /// The database was copied from another machine: log in again.
    case copiedDatabase
    /// The server speaks an older schema: update the server.
    case upgradeRequired
    /// The server answered something the protocol does not allow.
    case protocolViolation
    /// Unsynced changes would be lost (logout without force).
    case unsyncedChanges
    /// The pairing code was refused: wrong, used or expired.
    case pairingRefused
    /// The server asked to wait (too many requests).
    case rateLimited
    /// The server answers but cannot sync now (its store is unavailable, it is starting or stopping):
    /// changes are kept and sent when it is back.
    case serverUnavailable
    /// The server kept sending more than one cycle may take (pages, rows, bytes or time): what arrived
    /// is kept, and the next cycle goes on from there.
    case cycleTooLong
    /// The server's URL cannot be used (plain http beyond this machine, no host).
    case invalidServer
    /// The user is not a member of the space (removed, the space deleted, or never a member), or the
    /// device follows no mosque of that name.
    case notAMember
    /// The user's role in the space does not allow it: a viewer or a follow-code device writes nothing,
    /// an editor does not manage members.
    case readOnly
}

/// What the live updates of sync do (``SyncService/live()``).
public enum SyncLiveEvent: Hashable, Sendable {
    /// The event stream is open (since the instant).
    case connected(at: Date)
    /// A change arrived and was pulled: the cycle's report.
    case arrived(SyncReport)
    /// The stream is closed: why, and the seconds until the next try (`nil`: not until the person
    /// acts, such as a login).
    case disconnected(reason: String, retryIn: TimeInterval?)
}

extension SyncService {
    /// No live updates: the sequence ends at once.
    public func live() -> AsyncStream<SyncLiveEvent> { AsyncStream { $0.finish() } }
}
