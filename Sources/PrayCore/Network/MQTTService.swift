#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Opens MQTT 3.1.1 connections to a broker: what `praykit mqtt` publishes Home Assistant's entities
/// through (``HomeAssistantDiscovery``).
///
/// `MQTTServiceMosquitto` (PrayServices, Linux) speaks it through libmosquitto, loaded when the first
/// connection opens; tests pass `MQTTServiceMock` (PrayMocks).
///
/// ```swift
/// let broker = try MQTTAPI.Broker(parsing: "mqtt://homeassistant.local")
/// let connection = try await dependency.mqttService().connect(MQTTAPI.Connection(broker: broker, clientID: "praykit-den"))
/// try connection.publish(MQTTAPI.Message(topic: "praykit/den/state", text: "{}", retain: true))
/// await connection.disconnect()
/// ```
public protocol MQTTService: Sendable {
    /// Connects, returning once the broker accepted the connection (its CONNACK said so).
    /// - Throws: ``MQTTError``: `refused` when the broker refused the credentials or the client,
    ///   `unreachable` when it could not be reached, `tls` when its certificate was not trusted,
    ///   `unsupported` when this build or machine has no MQTT client.
    func connect(_ connection: MQTTAPI.Connection) async throws -> any MQTTConnection
}

/// A connection ``MQTTService`` opened. Publishing and subscribing only queue what is to be sent, so
/// they return at once and may be called under a lock (which keeps several publishers' messages in order).
public protocol MQTTConnection: AnyObject, Sendable {
    /// What happens on the connection, in order: the messages of the topics subscribed to, then one
    /// ``MQTTAPI/Event/closed(_:)`` when it ends, after which the sequence ends. It can be iterated
    /// once.
    var events: AsyncStream<MQTTAPI.Event> { get }

    /// Sends a message (queued at once; at QoS 1 the client sends it again until the broker has it,
    /// while the connection lasts).
    /// - Throws: ``MQTTError`` (`lost`) when the connection has ended, (`invalidTopic`) for a topic the
    ///   client refuses.
    func publish(_ message: MQTTAPI.Message) throws

    /// Subscribes to `filter` (a topic, or a pattern with `+` and `#`) at QoS 1: its messages, the
    /// broker's retained ones first, then arrive in ``events``.
    /// - Throws: ``MQTTError`` (`lost`, `invalidTopic`).
    func subscribe(_ filter: String) throws

    /// Ends the connection cleanly (an MQTT DISCONNECT, so the broker does not send the last will),
    /// after the messages published before; returns once it has ended. Calling it again does nothing.
    func disconnect() async
}

/// The values of ``MQTTService``: the broker, a connection's options, a message and what a connection
/// tells.
public enum MQTTAPI {
    /// Where a broker listens: `mqtt://host:1883`, or `mqtts://host:8883` with TLS.
    public struct Broker: Hashable, Sendable, CustomStringConvertible {
        /// Plain MQTT, or MQTT over TLS with the broker's certificate and name verified.
        public enum Scheme: String, CaseIterable, Hashable, Sendable {
            /// MQTT over TCP, port 1883 by default.
            case mqtt
            /// MQTT over TLS, port 8883 by default.
            case mqtts

            /// The port a broker of this scheme listens on by default.
            public var defaultPort: Int { self == .mqtt ? 1883 : 8883 }
        }

        /// Plain or TLS.
        public var scheme: Scheme
        /// The host name or IP address (without brackets for IPv6).
        public var host: String
        /// The port.
        public var port: Int

        /// Creates a broker address.
        public init(scheme: Scheme = .mqtt, host: String, port: Int? = nil) {
            self.scheme = scheme
            self.host = host
            self.port = port ?? scheme.defaultPort
        }

        /// Reads `mqtt://host[:port]` or `mqtts://host[:port]` (an IPv6 host in brackets); a trailing `/`
        /// is allowed. A user or password in the address is refused: credentials come from a file or the
        /// environment, never from a command line other users can read.
        /// - Throws: ``MQTTError`` (`invalidBroker`) saying what is wrong.
        public init(parsing text: String) throws(MQTTError) {
            func refuse(_ why: String) -> MQTTError {
                MQTTError(.invalidBroker, message: "the broker \(why), such as mqtt://homeassistant.local:1883")
            }
            guard let separator = text.firstRange(of: "://") else {
                throw refuse("must be a URL with mqtt:// or mqtts://")
            }
            guard let scheme = Scheme(rawValue: text[..<separator.lowerBound].lowercased()) else {
                throw refuse("must start with mqtt:// or mqtts://, got '\(text[..<separator.lowerBound])://'")
            }
            var rest = Substring(text[separator.upperBound...])
            if rest.hasSuffix("/") { rest = rest.dropLast() }
            if rest.contains("@") {
                throw MQTTError(
                    .invalidBroker,
                    message: "the broker's address must not hold a user or password (other users can read a command "
                        + "line): give them in a 0600 file (--credentials FILE) or in PRAYKIT_MQTT_USERNAME and "
                        + "PRAYKIT_MQTT_PASSWORD")
            }
            guard !rest.contains(where: { "/?#".contains($0) }) else {
                throw refuse("address must be a host and a port only (no path or query)")
            }
            var host = rest
            var port: Int?
            if host.hasPrefix("[") {
                guard let close = host.firstIndex(of: "]") else { throw refuse("address has an unclosed '['") }
                let after = host[host.index(after: close)...]
                host = host[host.index(after: host.startIndex)..<close]
                if !after.isEmpty {
                    guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else {
                        throw refuse("port must be a number")
                    }
                    port = number
                }
            } else if let colon = host.lastIndex(of: ":") {
                guard let number = Int(host[host.index(after: colon)...]) else { throw refuse("port must be a number") }
                port = number
                host = host[..<colon]
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw refuse("needs a host")
            }
            if let port, !(1...65_535).contains(port) {
                throw MQTTError(.invalidBroker, message: "the broker's port must be between 1 and 65535, got \(port)")
            }
            self.init(scheme: scheme, host: String(host), port: port)
        }

        /// `mqtt://host:port`, an IPv6 host in brackets.
        public var description: String {
            "\(scheme.rawValue)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
    }

    /// A user name and password for the broker.
    public struct Credentials: Hashable, Sendable, CustomStringConvertible {
        /// The user name.
        public var username: String
        /// The password, never printed or logged.
        public var password: String

        /// Creates credentials.
        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }

        /// The user name only.
        public var description: String { "user \(username)" }
    }

    /// A message to publish or one received.
    public struct Message: Hashable, Sendable {
        /// The topic: levels separated by `/`, no wildcard when published.
        public var topic: String
        /// The payload, bytes (JSON or a word, as UTF-8, for everything PrayKit publishes).
        public var payload: Data
        /// Whether the broker keeps it as the topic's last message, for subscribers that come later.
        public var retain: Bool
        /// 0 (at most once) or 1 (at least once).
        public var qos: Int

        /// Creates a message.
        public init(topic: String, payload: Data, retain: Bool = false, qos: Int = 1) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
            self.qos = qos
        }

        /// A message whose payload is `text` in UTF-8.
        public init(topic: String, text: String, retain: Bool = false, qos: Int = 1) {
            self.init(topic: topic, payload: Data(text.utf8), retain: retain, qos: qos)
        }

        /// The payload as UTF-8 text (invalid bytes replaced).
        public var text: String { String(decoding: payload, as: UTF8.self) }
    }

    /// How to connect.
    public struct Connection: Hashable, Sendable {
        /// The broker.
        public var broker: Broker
        /// The client's identifier, unique on the broker (a second client with the same one takes its
        /// place).
        public var clientID: String
        /// The user name and password, if the broker asks for them.
        public var credentials: Credentials?
        /// The last will: what the broker publishes for this client when the connection ends without a
        /// DISCONNECT (a crash, a lost network, a missed keep-alive).
        public var will: Message?
        /// Seconds between keep-alive exchanges; the broker counts the connection lost after 1.5 of
        /// them without a word.
        public var keepAlive: Int
        /// For `mqtts`: a PEM file of the certificate authority the broker's certificate must chain to;
        /// `nil` for the system's trusted authorities.
        public var certificateAuthorityFile: String?

        /// Creates a connection's options.
        public init(
            broker: Broker, clientID: String, credentials: Credentials? = nil, will: Message? = nil,
            keepAlive: Int = 60, certificateAuthorityFile: String? = nil
        ) {
            self.broker = broker
            self.clientID = clientID
            self.credentials = credentials
            self.will = will
            self.keepAlive = keepAlive
            self.certificateAuthorityFile = certificateAuthorityFile
        }
    }

    /// What a connection tells.
    public enum Event: Hashable, Sendable {
        /// A message of a topic subscribed to.
        case message(Message)
        /// The broker acknowledged a message this connection published at QoS 1 (its PUBACK): it has
        /// it. A message published but not acknowledged when the connection ends may never have
        /// reached the broker.
        case delivered(Message)
        /// The connection ended: `nil` after ``MQTTConnection/disconnect()``, else why (the broker went
        /// away, a keep-alive was missed).
        case closed(MQTTError?)
    }

    /// Checks a topic one publishes to (MQTT 3.1.1 §4.7): not empty, at most 65,535 bytes of UTF-8, no
    /// NUL and no wildcard (`+`, `#`). `what` names it in the message (`the topic prefix`).
    /// - Throws: ``MQTTError`` (`invalidTopic`).
    public static func checkTopicName(_ topic: String, what: String = "the topic") throws(MQTTError) {
        if topic.isEmpty { throw MQTTError(.invalidTopic, message: "\(what) must not be empty") }
        if topic.contains("+") || topic.contains("#") {
            throw MQTTError(
                .invalidTopic,
                message: "\(what) '\(topic)' holds an MQTT wildcard ('+' or '#'), which only subscriptions may use")
        }
        if topic.unicodeScalars.contains(where: { $0.value == 0 || ($0.value < 0x20) || $0.value == 0x7F }) {
            throw MQTTError(.invalidTopic, message: "\(what) must not hold control characters")
        }
        if topic.utf8.count > 65_535 {
            throw MQTTError(.invalidTopic, message: "\(what) is longer than MQTT's 65535 bytes")
        }
    }
}

/// Why an MQTT connection or message failed.
public typealias MQTTError = PrayKitError<MQTTErrorKind>

/// What kind of failure an ``MQTTError`` is.
public enum MQTTErrorKind: String, Hashable, Sendable {
    /// The broker's address cannot be used.
    case invalidBroker
    /// A topic cannot be used (a wildcard in a name, empty, too long).
    case invalidTopic
    /// The broker refused the connection: the user name or password, the client's identifier, or the
    /// protocol. Trying again with the same does not help.
    case refused
    /// The broker could not be reached (no such host, nothing listening, no route), or did not answer.
    case unreachable
    /// TLS failed: the broker's certificate is not trusted or not for its name, or the handshake failed.
    case tls
    /// The connection ended, or the broker stopped answering.
    case lost
    /// This build or machine has no MQTT client (libmosquitto is not installed, or not on this platform).
    case unsupported
}
