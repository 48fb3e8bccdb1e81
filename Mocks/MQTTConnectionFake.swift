import Foundation
import PrayCore
import Synchronization

/// An ``MQTTConnection`` to no broker: it keeps every message published and every subscription, lets
/// the test deliver messages (``deliver(_:)``) and end the connection as a broker going away would
/// (``drop(_:)``), and ends by itself on ``disconnect()``. Each message published is acknowledged at
/// once (``MQTTAPI/Event/delivered(_:)``), unless it was made with `acknowledges: false` (a broker that
/// hung): then ``acknowledge(_:)`` does it.
///
/// ```swift
/// let connection = MQTTConnectionFake()
/// connection.deliver(MQTTAPI.Message(topic: "homeassistant/status", text: "online"))   // Home Assistant restarted
/// connection.drop(MQTTError(.lost, message: "the broker went away"))
/// #expect(connection.published.contains { $0.topic == "praykit/den/state" })
/// ```
public final class MQTTConnectionFake: MQTTConnection {
    /// What the connection tells, until it ends.
    public let events: AsyncStream<MQTTAPI.Event>
    private let emit: AsyncStream<MQTTAPI.Event>.Continuation
    private let state = Mutex<(published: [MQTTAPI.Message], subscriptions: [String], ended: Bool, clean: Bool)>(
        ([], [], false, false))

    private let acknowledges: Bool

    /// Creates an open connection.
    /// - Parameter acknowledges: Whether each message published is acknowledged at once.
    public init(acknowledges: Bool = true) {
        self.acknowledges = acknowledges
        (events, emit) = AsyncStream.makeStream(of: MQTTAPI.Event.self)
    }

    /// Every message published, oldest first.
    public var published: [MQTTAPI.Message] { state.withLock { $0.published } }
    /// Every filter subscribed to, oldest first.
    public var subscriptions: [String] { state.withLock { $0.subscriptions } }
    /// Whether the connection has ended.
    public var hasEnded: Bool { state.withLock { $0.ended } }
    /// Whether it ended by ``disconnect()`` (a clean end, with no last will).
    public var disconnectedCleanly: Bool { state.withLock { $0.clean } }

    /// Keeps the message.
    /// - Throws: ``MQTTError`` (`lost`) once the connection has ended.
    public func publish(_ message: MQTTAPI.Message) throws {
        try state.withLock { state throws(MQTTError) in
            guard !state.ended else { throw MQTTError(.lost, message: "the fake connection has ended") }
            state.published.append(message)
        }
        if acknowledges { emit.yield(.delivered(message)) }
    }

    /// Acknowledges a message published, as the broker's PUBACK does.
    public func acknowledge(_ message: MQTTAPI.Message) {
        emit.yield(.delivered(message))
    }

    /// Keeps the filter.
    /// - Throws: ``MQTTError`` (`lost`) once the connection has ended.
    public func subscribe(_ filter: String) throws {
        try state.withLock { state throws(MQTTError) in
            guard !state.ended else { throw MQTTError(.lost, message: "the fake connection has ended") }
            state.subscriptions.append(filter)
        }
    }

    /// Ends the connection cleanly.
    public func disconnect() async {
        end(nil, clean: true)
    }

    /// Delivers a message, as the broker does for a topic subscribed to.
    public func deliver(_ message: MQTTAPI.Message) {
        emit.yield(.message(message))
    }

    /// Ends the connection as a broker that went away does: the events tell `reason` and end.
    public func drop(_ reason: MQTTError = MQTTError(.lost, message: "the broker went away")) {
        end(reason, clean: false)
    }

    private func end(_ reason: MQTTError?, clean: Bool) {
        let first = state.withLock { state in
            defer { (state.ended, state.clean) = (true, state.ended ? state.clean : clean) }
            return !state.ended
        }
        guard first else { return }
        emit.yield(.closed(reason))
        emit.finish()
    }
}
