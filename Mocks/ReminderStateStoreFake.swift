import Foundation
import PrayCore
import Synchronization

/// A ``ReminderStateStore`` in memory that never fails: it starts with the events the test gives as
/// handled, and keeps every event recorded and the daemon registered.
///
/// ```swift
/// let state = ReminderStateStoreFake()
/// … run the daemon …
/// #expect(state.recorded.map(\.kind) == [.adhan])
/// ```
public final class ReminderStateStoreFake: ReminderStateStore {
    private let state: Mutex<(handled: [String: Date], recorded: [ReminderEvent], pid: Int32?)>

    /// Creates a store whose record holds `handled` (event ids and moments).
    public init(handled: [String: Date] = [:]) {
        state = Mutex((handled, [], nil))
    }

    /// The events recorded, oldest first.
    public var recorded: [ReminderEvent] { state.withLock { $0.recorded } }

    /// The events handled at or after `since`.
    public func handled(since: Date) -> [String: Date] {
        state.withLock { $0.handled.filter { $0.value >= since } }
    }

    /// Keeps `event` as handled.
    public func record(_ event: ReminderEvent) {
        state.withLock { state in
            state.handled[event.id] = event.at
            state.recorded.append(event)
        }
    }

    /// Keeps `pid` as the running daemon.
    public func registerDaemon(pid: Int32) {
        state.withLock { $0.pid = pid }
    }

    /// Forgets `pid` if it is the one kept.
    public func unregisterDaemon(pid: Int32) {
        state.withLock { state in
            if state.pid == pid { state.pid = nil }
        }
    }

    /// The pid kept, if any (the fake does not look for the process).
    public func runningDaemon() -> Int32? {
        state.withLock { $0.pid }
    }
}
