import PrayCore

/// An ``MQTTService`` whose answer the test sets with ``onConnect(_:)``, recording every connection's
/// options. A connect without an answer records a test issue and throws ``MockError``.
///
/// ```swift
/// let mqtt = MQTTServiceMock()
/// let broker = MQTTConnectionFake()
/// mqtt.onConnect { _ in broker }                  // or throw MQTTError(.refused, …)
/// … run the publisher …
/// #expect(broker.published.last?.topic == "praykit/den/availability")
/// ```
public final class MQTTServiceMock: MQTTService {
    private let connectFunction = MockFunction<MQTTAPI.Connection, any MQTTConnection, any Error>(
        "MQTTServiceMock.connect(_:)")

    /// Creates a mock with nothing set.
    public init() {}

    /// Sets the answer of ``connect(_:)``: a connection (``MQTTConnectionFake``), or an error to play
    /// a broker that refuses or cannot be reached. Each call asks it again.
    public func onConnect(_ answer: @escaping @Sendable (MQTTAPI.Connection) throws -> any MQTTConnection) {
        connectFunction.on { try answer($0) }
    }

    /// The options of each call of ``connect(_:)``, oldest first.
    public var connectCalls: [MQTTAPI.Connection] { connectFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func connect(_ connection: MQTTAPI.Connection) async throws -> any MQTTConnection {
        try connectFunction(connection)
    }
}
