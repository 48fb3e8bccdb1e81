import Foundation

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
public protocol SyncService: Sendable {
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

    /// How many local changes the server has not acknowledged yet.
    /// - Throws: ``StorageError``.
    func unsyncedCount() throws -> Int

    /// The latest cycles, newest first.
    /// - Throws: ``StorageError``.
    func history(limit: Int) throws -> [SyncHistoryEntry]
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
    /// The last error, in words.
    public var lastError: String?

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
    /// Rows pulled and applied.
    public var pulled: Int
    /// Changes the server refused (now in the failed list).
    public var rejected: Int

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
}
