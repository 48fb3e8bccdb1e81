import PrayCore

/// A ``NotificationService`` whose answer the test sets with ``onDeliver(_:)``, recording every event
/// delivered. A delivery without an answer records a test issue and throws ``MockError`` (the test
/// did not expect notifications).
///
/// ```swift
/// let notifications = NotificationServiceMock()
/// notifications.onDeliver { _, _ in }          // accept every event
/// … run the daemon …
/// #expect(notifications.deliverCalls.map(\.event.kind) == [.reminder, .adhan])
/// ```
public final class NotificationServiceMock: NotificationService {
    /// The arguments of a call of ``deliver(_:context:)``.
    public typealias DeliverArguments = (event: ReminderEvent, context: NotificationContext)

    private let deliverFunction = MockFunction<DeliverArguments, Void, any Error>(
        "NotificationServiceMock.deliver(_:context:)")

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``deliver(_:context:)``: return to accept the event, throw to play a failure.
    public func onDeliver(_ answer: @escaping @Sendable (ReminderEvent, NotificationContext) throws -> Void) {
        deliverFunction.on { try answer($0.event, $0.context) }
    }

    /// The arguments of each call of ``deliver(_:context:)``, oldest first.
    public var deliverCalls: [DeliverArguments] { deliverFunction.calls }

    /// Records the event and runs the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func deliver(_ event: ReminderEvent, context: NotificationContext) async throws {
        try deliverFunction((event, context))
    }
}
