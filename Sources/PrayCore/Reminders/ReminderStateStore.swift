#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the reminder daemon keeps across its restarts: the events it has handled (fired or missed),
/// so that a daemon restarted a minute after the adhan does not call it again, and which process
/// runs it, so that another command can reach it (`praykit notify stop-sound`).
///
/// ```swift
/// let state = dependency.reminderState()
/// let done = try state.handled(since: now.addingTimeInterval(-2 * 86_400))
/// try state.record(event)
/// ```
public protocol ReminderStateStore: Sendable {
    /// The events handled at or after `since`: their ``ReminderEvent/id`` and moment.
    /// - Throws: ``StorageError`` when the record exists but cannot be read.
    func handled(since: Date) throws -> [String: Date]

    /// Records `event` as handled, durably, before its delivery starts.
    /// - Throws: ``StorageError`` when it cannot be written.
    func record(_ event: ReminderEvent) throws

    /// Records `pid` as the running daemon's process.
    /// - Throws: ``StorageError`` when it cannot be written.
    func registerDaemon(pid: Int32) throws

    /// Forgets the daemon `pid`, if it is the one recorded (on a clean exit).
    func unregisterDaemon(pid: Int32)

    /// The process of the running daemon, or `nil` when none runs (no record, or the process recorded
    /// has ended).
    func runningDaemon() -> Int32?
}
