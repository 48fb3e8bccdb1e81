import PrayCore
import Synchronization

/// A ``NotificationService`` that records every event delivered and runs ``onDeliver``; without
/// one, a delivery fails the test (the test did not expect notifications).
///
/// ```swift
/// let notifications = NotificationServiceMock()
/// notifications.onDeliver = { _, _ in }          // accept every event
/// … run the daemon …
/// #expect(notifications.calls.map(\.event.kind) == [.reminder, .adhan])
/// ```
public final class NotificationServiceMock: NotificationService {
    /// One delivery.
    public struct Call: Sendable {
        /// The event.
        public let event: ReminderEvent
        /// Its context.
        public let context: NotificationContext
    }

    private let state = Mutex<
        (calls: [Call], onDeliver: (@Sendable (ReminderEvent, NotificationContext) throws -> Void)?)
    >(
        ([], nil))

    /// Creates a mock with nothing set.
    public init() {}

    /// What a delivery does (throw to play a failure).
    public var onDeliver: (@Sendable (ReminderEvent, NotificationContext) throws -> Void)? {
        get { state.withLock { $0.onDeliver } }
        set { state.withLock { $0.onDeliver = newValue } }
    }

    /// The deliveries, oldest first.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// Records the event and runs ``onDeliver``.
    /// - Throws: What ``onDeliver`` throws; ``MockError`` when it is unset.
    public func deliver(_ event: ReminderEvent, context: NotificationContext) async throws {
        let handler = state.withLock { state in
            state.calls.append(Call(event: event, context: context))
            return state.onDeliver
        }
        guard let handler else { throw MockError.unset("NotificationServiceMock.deliver(_:context:)") }
        try handler(event, context)
    }
}
