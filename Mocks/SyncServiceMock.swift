import Foundation
import PrayCore
import Synchronization

/// A ``SyncService`` whose answers the test sets, one `on…` closure per requirement, recording every
/// call. The fire-and-forget requirements need no answer: ``triggerSync()`` and ``runScheduler()``
/// only count their calls, ``syncAfterWrite()`` and ``syncBeforeEdit()`` answer `nil` (the server was
/// not reached),
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
    private let retireDeviceFunction = MockFunction<Void, Bool, any Error>("SyncServiceMock.retireDevice()")
    private let failedChangesFunction = MockFunction<Void, [SyncFailedChange], any Error>(
        "SyncServiceMock.failedChanges()")
    private let retryFailedFunction = MockFunction<Void, Int, any Error>("SyncServiceMock.retryFailed()")
    private let dropFailedFunction = MockFunction<Void, Int, any Error>("SyncServiceMock.dropFailed()")
    private let conflictsFunction = MockFunction<Void, [SyncConflict], any Error>("SyncServiceMock.conflicts()")
    private let keepConflictFunction = MockFunction<Int, Void, any Error>("SyncServiceMock.keepConflict(id:)")
    private let dismissConflictFunction = MockFunction<Int, Void, any Error>("SyncServiceMock.dismissConflict(id:)")
    private let spacesFunction = MockFunction<Void, [SyncSpaceInfo], any Error>("SyncServiceMock.spaces()")
    private let createMosqueFunction = MockFunction<String, SyncSpaceInfo, any Error>(
        "SyncServiceMock.createMosque(named:)")
    private let inviteFunction = MockFunction<(String, SyncRole, TimeInterval), SyncInvitation, any Error>(
        "SyncServiceMock.invite(to:role:expiresIn:)")
    private let joinFunction = MockFunction<String, SyncSpaceInfo, any Error>("SyncServiceMock.join(code:)")
    private let membersFunction = MockFunction<String, [SyncAPI.Member], any Error>("SyncServiceMock.members(of:)")
    private let removeMemberFunction = MockFunction<(String, String), Void, any Error>(
        "SyncServiceMock.removeMember(_:from:)")
    private let leaveFunction = MockFunction<(String, Bool), Void, any Error>("SyncServiceMock.leave(_:keepCopy:)")
    private let deleteMosqueFunction = MockFunction<String, Void, any Error>("SyncServiceMock.deleteMosque(_:)")
    private let publishFunction = MockFunction<(mosque: String, slug: String?), SyncAPI.Publication, any Error>(
        "SyncServiceMock.publish(_:slug:)")
    private let unpublishFunction = MockFunction<String, Void, any Error>("SyncServiceMock.unpublish(_:)")
    private let counts = Mutex<(trigger: Int, afterWrite: Int, beforeEdit: Int, scheduler: Int)>((0, 0, 0, 0))
    private let afterWriteAnswer = Mutex<SyncReport?>(nil)
    private let needsAfterWrite = Mutex(false)

    /// Creates a mock with nothing set.
    public init() {}

    /// A mock answering as a device where sync was never set up: status ``SyncStatus/off``, nothing
    /// waiting, no history, failures or conflicts; a cycle, a reset or keeping a conflict throws
    /// ``SyncError`` `notLoggedIn`; dismissing one throws ``ValidationError``; a logout drops nothing and
    /// retiring the device answers `false`; it follows no mosque, and every step of a mosque space throws
    /// `notLoggedIn`; a login throws `pairingRefused`.
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
        mock.onRetireDevice { false }
        mock.onSpaces { [] }
        mock.onCreateMosque { _ in throw notLoggedIn }
        mock.onInvite { _, _, _ in throw notLoggedIn }
        mock.onJoin { _ in throw notLoggedIn }
        mock.onMembers { _ in throw notLoggedIn }
        mock.onRemoveMember { _, _ in throw notLoggedIn }
        mock.onLeave { _, _ in throw notLoggedIn }
        mock.onDeleteMosque { _ in throw notLoggedIn }
        mock.onPublish { _, _ in throw notLoggedIn }
        mock.onUnpublish { _ in throw notLoggedIn }
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

    /// Counts the call and returns `nil` (the server was not reached).
    @discardableResult
    public func syncBeforeEdit() async -> SyncReport? {
        counts.withLock { $0.beforeEdit += 1 }
        return nil
    }

    /// The number of calls of ``syncBeforeEdit()``.
    public var syncBeforeEditCalls: Int { counts.withLock { $0.beforeEdit } }

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

    /// Sets the answer of ``retireDevice()``.
    public func onRetireDevice(_ answer: @escaping @Sendable () throws -> Bool) {
        retireDeviceFunction.on { _ in try answer() }
    }

    /// The number of calls of ``retireDevice()``.
    public var retireDeviceCalls: Int { retireDeviceFunction.calls.count }

    /// Returns the answer, or records an issue and throws.
    public func retireDevice() async throws -> Bool { try retireDeviceFunction(()) }

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

    // MARK: - Spaces

    /// Sets the answer of ``spaces()``.
    public func onSpaces(_ answer: @escaping @Sendable () throws -> [SyncSpaceInfo]) {
        spacesFunction.on { _ in try answer() }
    }

    /// Returns the answer, or records an issue and throws.
    public func spaces() throws -> [SyncSpaceInfo] { try spacesFunction(()) }

    /// The answer of ``spaces()`` once, then nothing more (the stream ends).
    public func spaceUpdates() -> AsyncStream<[SyncSpaceInfo]> {
        let spaces = (try? spacesFunction(())) ?? []
        return AsyncStream { continuation in
            continuation.yield(spaces)
            continuation.finish()
        }
    }

    /// Sets the answer of ``createMosque(named:)``.
    public func onCreateMosque(_ answer: @escaping @Sendable (String) throws -> SyncSpaceInfo) {
        createMosqueFunction.on { try answer($0) }
    }

    /// Returns the answer, or records an issue and throws.
    public func createMosque(named name: String) async throws -> SyncSpaceInfo { try createMosqueFunction(name) }

    /// Sets the answer of ``invite(to:role:expiresIn:)``.
    public func onInvite(_ answer: @escaping @Sendable (String, SyncRole, TimeInterval) throws -> SyncInvitation) {
        inviteFunction.on { try answer($0.0, $0.1, $0.2) }
    }

    /// The arguments of each call of ``invite(to:role:expiresIn:)``.
    public var inviteCalls: [(String, SyncRole, TimeInterval)] { inviteFunction.calls }

    /// Returns the answer, or records an issue and throws.
    public func invite(to mosque: String, role: SyncRole, expiresIn: TimeInterval) async throws -> SyncInvitation {
        try inviteFunction((mosque, role, expiresIn))
    }

    /// Sets the answer of ``join(code:)``.
    public func onJoin(_ answer: @escaping @Sendable (String) throws -> SyncSpaceInfo) {
        joinFunction.on { try answer($0) }
    }

    /// Returns the answer, or records an issue and throws.
    public func join(code: String) async throws -> SyncSpaceInfo { try joinFunction(code) }

    /// Sets the answer of ``members(of:)``.
    public func onMembers(_ answer: @escaping @Sendable (String) throws -> [SyncAPI.Member]) {
        membersFunction.on { try answer($0) }
    }

    /// Returns the answer, or records an issue and throws.
    public func members(of mosque: String) async throws -> [SyncAPI.Member] { try membersFunction(mosque) }

    /// Sets the answer of ``removeMember(_:from:)``.
    public func onRemoveMember(_ answer: @escaping @Sendable (String, String) throws -> Void) {
        removeMemberFunction.on { try answer($0.0, $0.1) }
    }

    /// Runs the answer, or records an issue and throws.
    public func removeMember(_ member: String, from mosque: String) async throws {
        try removeMemberFunction((member, mosque))
    }

    /// Sets the answer of ``leave(_:keepCopy:)``.
    public func onLeave(_ answer: @escaping @Sendable (String, Bool) throws -> Void) {
        leaveFunction.on { try answer($0.0, $0.1) }
    }

    /// The arguments of each call of ``leave(_:keepCopy:)``.
    public var leaveCalls: [(String, Bool)] { leaveFunction.calls }

    /// Runs the answer, or records an issue and throws.
    public func leave(_ mosque: String, keepCopy: Bool) async throws { try leaveFunction((mosque, keepCopy)) }

    /// Sets the answer of ``deleteMosque(_:)``.
    public func onDeleteMosque(_ answer: @escaping @Sendable (String) throws -> Void) {
        deleteMosqueFunction.on { try answer($0) }
    }

    /// Runs the answer, or records an issue and throws.
    public func deleteMosque(_ mosque: String) async throws { try deleteMosqueFunction(mosque) }

    /// Sets the answer of ``publish(_:slug:)``.
    public func onPublish(_ answer: @escaping @Sendable (String, String?) throws -> SyncAPI.Publication) {
        publishFunction.on { try answer($0.mosque, $0.slug) }
    }

    /// The arguments of each call of ``publish(_:slug:)``, oldest first.
    public var publishCalls: [(mosque: String, slug: String?)] { publishFunction.calls }

    /// Returns the answer, or records an issue and throws.
    public func publish(_ mosque: String, slug: String?) async throws -> SyncAPI.Publication {
        try publishFunction((mosque, slug))
    }

    /// Sets the answer of ``unpublish(_:)``.
    public func onUnpublish(_ answer: @escaping @Sendable (String) throws -> Void) {
        unpublishFunction.on { try answer($0) }
    }

    /// Runs the answer, or records an issue and throws.
    public func unpublish(_ mosque: String) async throws { try unpublishFunction(mosque) }
}
