import Foundation
import PrayCore
import Synchronization

/// A ``SyncService`` whose answers the test sets, one `on…` closure per requirement, recording every
/// call. The fire-and-forget requirements need no answer: ``triggerSync()`` and ``runScheduler()``
/// only count their calls, ``syncAfterWrite()`` answers `nil` (the server was not reached),
/// ``needsSyncAfterWrite`` is `false` and
/// ``status()`` yields ``SyncStatus/off`` and ends, unless set. Any other requirement without an
/// answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let sync = SyncServiceMock()
/// sync.onSyncNow { SyncReport(pushed: 3) }
/// dependency.sync = sync
/// … run `praykit sync now` …
/// #expect(sync.syncNowCalls.count == 1)
/// ```
public final class SyncServiceMock: SyncService {
    private let statusFunction = MockFunction<Void, AsyncStream<SyncStatus>, Never>("SyncServiceMock.status()") {
        _ in
        AsyncStream {
            $0.yield(.off); $0.finish()
        }
    }
    private let currentStatusFunction = MockFunction<Void, SyncStatus, any Error>("SyncServiceMock.currentStatus()")
    private let syncNowFunction = MockFunction<Void, SyncReport, any Error>("SyncServiceMock.syncNow()")
    private let unsyncedCountFunction = MockFunction<Void, Int, any Error>("SyncServiceMock.unsyncedCount()")
    private let historyFunction = MockFunction<Int, [SyncHistoryEntry], any Error>("SyncServiceMock.history(limit:)")
    private let loginFunction = MockFunction<SyncLogin, SyncStatus, any Error>("SyncServiceMock.login(_:)")
    private let logoutFunction = MockFunction<Bool, Int, any Error>("SyncServiceMock.logout(force:)")
    private let resetFunction = MockFunction<Void, Void, any Error>("SyncServiceMock.reset()")
    private let failedChangesFunction = MockFunction<Void, [SyncFailedChange], any Error>(
        "SyncServiceMock.failedChanges()")
    private let retryFailedFunction = MockFunction<Void, Int, any Error>("SyncServiceMock.retryFailed()")
    private let dropFailedFunction = MockFunction<Void, Int, any Error>("SyncServiceMock.dropFailed()")
    private let conflictsFunction = MockFunction<Void, [SyncConflict], any Error>("SyncServiceMock.conflicts()")
    private let keepConflictFunction = MockFunction<Int, Void, any Error>("SyncServiceMock.keepConflict(id:)")
    private let dismissConflictFunction = MockFunction<Int, Void, any Error>("SyncServiceMock.dismissConflict(id:)")
    private let counts = Mutex<(trigger: Int, afterWrite: Int, scheduler: Int)>((0, 0, 0))
    private let afterWriteAnswer = Mutex<SyncReport?>(nil)
    private let needsAfterWrite = Mutex(false)

    /// Creates a mock with nothing set.
    public init() {}

    /// A mock answering as a device where sync was never set up: status ``SyncStatus/off``, nothing
    /// waiting, no history, failures or conflicts; a cycle, a reset or keeping a conflict throws
    /// ``SyncError`` `notLoggedIn`; dismissing one throws ``ValidationError``; a logout drops nothing; a
    /// login throws `pairingRefused`.
    public static func off() -> SyncServiceMock {
        let mock = SyncServiceMock()
        let notLoggedIn = SyncError(.notLoggedIn, message: "sync is not set up on this device: log in first")
        mock.onCurrentStatus { .off }
        mock.onUnsyncedCount { 0 }
        mock.onHistory { _ in [] }
        mock.onFailedChanges { [] }
        mock.onRetryFailed { 0 }
        mock.onDropFailed { 0 }
        mock.onConflicts { [] }
        mock.onKeepConflict { _ in throw notLoggedIn }
        mock.onDismissConflict { id in throw ValidationError(field: "id", message: "there is no conflict \(id)") }
        mock.onLogout { _ in 0 }
        mock.onSyncNow { throw notLoggedIn }
        mock.onReset { throw notLoggedIn }
        mock.onLogin { _ in throw SyncError(.pairingRefused, message: "the server refused the pairing code") }
        return mock
    }

    // MARK: - Status

    /// Sets the answer of ``status()``.
    public func onStatus(_ answer: @escaping @Sendable () -> AsyncStream<SyncStatus>) {
        statusFunction.on { _ in answer() }
    }

    /// Returns the answer, or a stream of ``SyncStatus/off`` that ends.
    public func status() -> AsyncStream<SyncStatus> { statusFunction(()) }

    /// Sets the answer of ``currentStatus()``.
    public func onCurrentStatus(_ answer: @escaping @Sendable () throws -> SyncStatus) {
        currentStatusFunction.on { _ in try answer() }
    }

    /// The number of calls of ``currentStatus()``.
    public var currentStatusCalls: Int { currentStatusFunction.calls.count }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func currentStatus() throws -> SyncStatus { try currentStatusFunction(()) }

    /// Sets the answer of ``unsyncedCount()``.
    public func onUnsyncedCount(_ answer: @escaping @Sendable () throws -> Int) {
        unsyncedCountFunction.on { _ in try answer() }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func unsyncedCount() throws -> Int { try unsyncedCountFunction(()) }

    /// Sets the answer of ``history(limit:)``.
    public func onHistory(_ answer: @escaping @Sendable (Int) throws -> [SyncHistoryEntry]) {
        historyFunction.on(answer)
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func history(limit: Int) throws -> [SyncHistoryEntry] { try historyFunction(limit) }

    // MARK: - Cycles

    /// Sets the answer of ``syncNow()``.
    public func onSyncNow(_ answer: @escaping @Sendable () throws -> SyncReport) {
        syncNowFunction.on { _ in try answer() }
    }

    /// The number of calls of ``syncNow()``.
    public var syncNowCalls: Int { syncNowFunction.calls.count }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func syncNow() async throws -> SyncReport { try syncNowFunction(()) }

    /// Counts the call.
    public func triggerSync() { counts.withLock { $0.trigger += 1 } }

    /// The number of calls of ``triggerSync()``.
    public var triggerSyncCalls: Int { counts.withLock { $0.trigger } }

    /// Sets what ``needsSyncAfterWrite`` answers: whether a store wrote to the outbox (`false` until set).
    public func onNeedsSyncAfterWrite(_ needed: Bool) { needsAfterWrite.withLock { $0 = needed } }

    /// What ``onNeedsSyncAfterWrite(_:)`` set.
    public var needsSyncAfterWrite: Bool { needsAfterWrite.withLock { $0 } }

    /// Sets what ``syncAfterWrite()`` returns (`nil` until set).
    public func onSyncAfterWrite(_ report: SyncReport?) { afterWriteAnswer.withLock { $0 = report } }

    /// Counts the call and returns what ``onSyncAfterWrite(_:)`` set.
    @discardableResult
    public func syncAfterWrite() async -> SyncReport? {
        counts.withLock { $0.afterWrite += 1 }
        return afterWriteAnswer.withLock { $0 }
    }

    /// The number of calls of ``syncAfterWrite()``.
    public var syncAfterWriteCalls: Int { counts.withLock { $0.afterWrite } }

    /// Counts the call and returns at once.
    public func runScheduler() async { counts.withLock { $0.scheduler += 1 } }

    /// The number of calls of ``runScheduler()``.
    public var runSchedulerCalls: Int { counts.withLock { $0.scheduler } }

    // MARK: - Login and repair

    /// Sets the answer of ``login(_:)``.
    public func onLogin(_ answer: @escaping @Sendable (SyncLogin) throws -> SyncStatus) { loginFunction.on(answer) }

    /// The login of each call of ``login(_:)``, oldest first.
    public var loginCalls: [SyncLogin] { loginFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func login(_ login: SyncLogin) async throws -> SyncStatus { try loginFunction(login) }

    /// Sets the answer of ``logout(force:)``.
    public func onLogout(_ answer: @escaping @Sendable (Bool) throws -> Int) { logoutFunction.on(answer) }

    /// The `force` of each call of ``logout(force:)``, oldest first.
    public var logoutCalls: [Bool] { logoutFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func logout(force: Bool) throws -> Int { try logoutFunction(force) }

    /// Sets the answer of ``reset()``.
    public func onReset(_ answer: @escaping @Sendable () throws -> Void) { resetFunction.on { _ in try answer() } }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func reset() throws { try resetFunction(()) }

    /// Sets the answer of ``failedChanges()``.
    public func onFailedChanges(_ answer: @escaping @Sendable () throws -> [SyncFailedChange]) {
        failedChangesFunction.on { _ in try answer() }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func failedChanges() throws -> [SyncFailedChange] { try failedChangesFunction(()) }

    /// Sets the answer of ``retryFailed()``.
    public func onRetryFailed(_ answer: @escaping @Sendable () throws -> Int) {
        retryFailedFunction.on { _ in try answer() }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func retryFailed() throws -> Int { try retryFailedFunction(()) }

    /// Sets the answer of ``dropFailed()``.
    public func onDropFailed(_ answer: @escaping @Sendable () throws -> Int) {
        dropFailedFunction.on { _ in try answer() }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    @discardableResult
    public func dropFailed() throws -> Int { try dropFailedFunction(()) }

    // MARK: - Conflicts

    /// Sets the answer of ``conflicts()``.
    public func onConflicts(_ answer: @escaping @Sendable () throws -> [SyncConflict]) {
        conflictsFunction.on { _ in try answer() }
    }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func conflicts() throws -> [SyncConflict] { try conflictsFunction(()) }

    /// Sets what ``keepConflict(id:)`` does.
    public func onKeepConflict(_ answer: @escaping @Sendable (Int) throws -> Void) { keepConflictFunction.on(answer) }

    /// The IDs ``keepConflict(id:)`` was called with.
    public var keepConflictCalls: [Int] { keepConflictFunction.calls }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func keepConflict(id: Int) throws { try keepConflictFunction(id) }

    /// Sets what ``dismissConflict(id:)`` does.
    public func onDismissConflict(_ answer: @escaping @Sendable (Int) throws -> Void) {
        dismissConflictFunction.on(answer)
    }

    /// The IDs ``dismissConflict(id:)`` was called with.
    public var dismissConflictCalls: [Int] { dismissConflictFunction.calls }

    /// Records the call and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func dismissConflict(id: Int) throws { try dismissConflictFunction(id) }
}
