import Foundation
import PrayCore

/// A ``ReminderStateStore`` whose answers the test sets (``onHandled(_:)``, ``onRecord(_:)``, …),
/// recording every call. For a store that simply keeps what it is given, use
/// ``ReminderStateStoreFake``.
///
/// A throwing requirement without an answer throws ``MockError/unset(_:)``; one that cannot throw
/// records a test issue and returns its fallback (nothing running, nothing done).
///
/// ```swift
/// let state = ReminderStateStoreMock()
/// state.onHandled { _ in ["2027-02-08T05:38:00Z adhan fajr": fajr] }
/// state.onRecord { _ in }
/// ```
public final class ReminderStateStoreMock: ReminderStateStore {
    private let handledFunction = MockFunction<Date, [String: Date], any Error>(
        "ReminderStateStoreMock.handled(since:)")
    private let recordFunction = MockFunction<ReminderEvent, Void, any Error>("ReminderStateStoreMock.record(_:)")
    private let registerFunction = MockFunction<Int32, Void, any Error>("ReminderStateStoreMock.registerDaemon(pid:)")
    private let unregisterFunction = MockFunction<Int32, Void, Never>(
        "ReminderStateStoreMock.unregisterDaemon(pid:)", unset: { _ in })
    private let runningFunction = MockFunction<Void, Int32?, Never>(
        "ReminderStateStoreMock.runningDaemon()", unset: { _ in nil })

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``handled(since:)``.
    public func onHandled(_ answer: @escaping @Sendable (Date) throws -> [String: Date]) { handledFunction.on(answer) }
    /// The instant of each call of ``handled(since:)``, oldest first.
    public var handledCalls: [Date] { handledFunction.calls }
    /// Records the instant and answers; without an answer, throws ``MockError/unset(_:)``.
    public func handled(since: Date) throws -> [String: Date] { try handledFunction(since) }

    /// Sets the answer of ``record(_:)``.
    public func onRecord(_ answer: @escaping @Sendable (ReminderEvent) throws -> Void) { recordFunction.on(answer) }
    /// The event of each call of ``record(_:)``, oldest first.
    public var recordCalls: [ReminderEvent] { recordFunction.calls }
    /// Records the event and answers; without an answer, throws ``MockError/unset(_:)``.
    public func record(_ event: ReminderEvent) throws { try recordFunction(event) }

    /// Sets the answer of ``registerDaemon(pid:)``.
    public func onRegisterDaemon(_ answer: @escaping @Sendable (Int32) throws -> Void) { registerFunction.on(answer) }
    /// The pid of each call of ``registerDaemon(pid:)``, oldest first.
    public var registerDaemonCalls: [Int32] { registerFunction.calls }
    /// Records the pid and answers; without an answer, throws ``MockError/unset(_:)``.
    public func registerDaemon(pid: Int32) throws { try registerFunction(pid) }

    /// Sets what ``unregisterDaemon(pid:)`` does.
    public func onUnregisterDaemon(_ answer: @escaping @Sendable (Int32) -> Void) { unregisterFunction.on(answer) }
    /// The pid of each call of ``unregisterDaemon(pid:)``, oldest first.
    public var unregisterDaemonCalls: [Int32] { unregisterFunction.calls }
    /// Records the pid; without an answer, a test issue and nothing done.
    public func unregisterDaemon(pid: Int32) { unregisterFunction(pid) }

    /// Sets the answer of ``runningDaemon()``.
    public func onRunningDaemon(_ answer: @escaping @Sendable (()) -> Int32?) { runningFunction.on(answer) }
    /// One element per call of ``runningDaemon()``.
    public var runningDaemonCalls: [Void] { runningFunction.calls }
    /// Records the call and answers; without an answer, a test issue and `nil` (no daemon).
    public func runningDaemon() -> Int32? { runningFunction(()) }
}
