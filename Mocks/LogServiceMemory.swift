import PrayCore
import Synchronization

/// A ``LogService`` that keeps every event in memory, for tests that check what was logged.
///
/// ```swift
/// let memory = LogServiceMemory()
/// let log = LogManager(services: [memory], minLevel: .trace)
/// // … exercise the code …
/// #expect(memory.events.contains { $0.message == "High-latitude rule applied" })
/// ```
public final class LogServiceMemory: LogService {
    private let stored = Mutex<[LogEvent]>([])

    /// Creates an empty log.
    public init() {}

    /// The events recorded, oldest first.
    public var events: [LogEvent] { stored.withLock { $0 } }

    /// Records `event`.
    public func write(_ event: LogEvent) {
        stored.withLock { $0.append(event) }
    }

    /// Forgets every event.
    public func removeAll() {
        stored.withLock { $0.removeAll() }
    }
}
