// libmosquitto is a Linux dependency of PrayServices (Package.swift); elsewhere the container has no
// MQTT client (MQTTServiceUnavailable).
#if canImport(CMosquitto)
    internal import CMosquitto
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import PrayCore
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #endif

    /// ``MQTTService`` on Eclipse Mosquitto's client library, libmosquitto (Debian's `libmosquitto1`),
    /// loaded with `dlopen` when the first connection opens: MQTT 3.1.1, a clean session, QoS 0 and 1,
    /// the last will, user name and password, and for `mqtts://` TLS with the broker's certificate and
    /// name verified (against the system's authorities or a given one). Each connection runs
    /// libmosquitto's loop on a thread of its own; publishing from any thread is safe (its threaded mode).
    ///
    /// It opens one connection per call and never reconnects by itself: what to do when a connection
    /// ends — wait and try again, or stop — is its user's choice (``HomeAssistantPublisher`` backs off
    /// on the container's clock).
    ///
    /// ```swift
    /// let mqtt = MQTTServiceMosquitto(log: log)
    /// let connection = try await mqtt.connect(MQTTAPI.Connection(broker: broker, clientID: "praykit-den"))
    /// ```
    public struct MQTTServiceMosquitto: MQTTService {
        private let log: LogManager

        /// Creates the service.
        /// - Parameter log: The logger: each connection's end at `debug`, libmosquitto's warnings at `debug`.
        public init(log: LogManager) {
            self.log = log
        }
    }

    extension MQTTServiceMosquitto {
        /// Connects, returning once the broker accepted the connection.
        /// - Throws: ``MQTTError``; `CancellationError` when the task is cancelled meanwhile.
        public func connect(_ connection: MQTTAPI.Connection) async throws -> any MQTTConnection {
            var error = [CChar](repeating: 0, count: 512)
            guard praykit_mosquitto_load(&error, error.count) == 0 else {
                throw MQTTError(
                    .unsupported,
                    message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            if let will = connection.will { try MQTTAPI.checkTopicName(will.topic, what: "the last will's topic") }
            let session = try MosquittoSession(connection, log: log)
            try await session.open()
            return session
        }

        /// libmosquitto's version, `2.0.11`; `nil` when it cannot be loaded.
        public static var libraryVersion: String? {
            var error = [CChar](repeating: 0, count: 512)
            guard praykit_mosquitto_load(&error, error.count) == 0 else { return nil }
            let number = Int(praykit_mosquitto_version())
            return "\(number / 1_000_000).\(number / 1000 % 1000).\(number % 1000)"
        }
    }

    /// One connection: libmosquitto's client, driven by a thread of its own from the TCP connect to the
    /// end, and the events it tells.
    ///
    /// `@unchecked Sendable`: the client pointer is used on the loop's thread and, for publish, subscribe
    /// and disconnect, on any other, which libmosquitto allows in its threaded mode; it is destroyed only
    /// when the loop has ended, under `alive`, which every use from another thread holds and checks.
    final class MosquittoSession: MQTTConnection, @unchecked Sendable {
        let events: AsyncStream<MQTTAPI.Event>
        private let options: MQTTAPI.Connection
        private let client: OpaquePointer
        private let context: MosquittoContext
        /// Whether the client exists (its loop has not ended).
        private let alive = Mutex(true)

        /// Makes the client with the connection's options; nothing is sent yet.
        /// - Throws: ``MQTTError`` for options libmosquitto refuses (a CA file it cannot read).
        init(_ options: MQTTAPI.Connection, log: LogManager) throws(MQTTError) {
            self.options = options
            context = MosquittoContext(log: log, broker: options.broker)
            events = context.events
            let pointer = Unmanaged.passUnretained(context).toOpaque()
            guard let client = praykit_mosquitto_new(options.clientID, true, pointer) else {
                throw MQTTError(.unsupported, message: "libmosquitto could not make a client (out of memory)")
            }
            self.client = client
            do {
                try configure()
            } catch {
                praykit_mosquitto_destroy(client)
                alive.withLock { $0 = false }
                throw error
            }
        }
    }

    // MARK: - MQTTConnection

    extension MosquittoSession {
        func publish(_ message: MQTTAPI.Message) throws {
            try MQTTAPI.checkTopicName(message.topic)
            var id: Int32 = 0
            let code = try withClient { client in
                message.payload.withUnsafeBytes { bytes in
                    praykit_mosquitto_publish(
                        client, &id, message.topic, Int32(bytes.count), bytes.baseAddress, Int32(message.qos),
                        message.retain)
                }
            }
            try check(code, topic: message.topic)
            // (libmosquitto tells every publish once it is done: QoS 1 at the PUBACK, QoS 0 once written.)
            context.sent(id, message)
        }

        func subscribe(_ filter: String) throws {
            let code = try withClient { client in praykit_mosquitto_subscribe(client, filter, 1) }
            try check(code, topic: filter)
        }

        func disconnect() async {
            context.markDisconnecting()
            _ = try? withClient { client in praykit_mosquitto_disconnect(client) }
            await context.waitUntilEnded()
        }
    }

    // MARK: - Helpers

    extension MosquittoSession {
        /// Starts the loop's thread and waits for the broker's answer.
        /// - Throws: ``MQTTError``; `CancellationError`.
        fileprivate func open() async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    context.waitForAnswer(continuation)
                    DetachedThread.start(name: "PrayKit MQTT") { [self] in run() }
                }
            } onCancel: { [self] in
                context.cancelOpening()
                _ = try? withClient { client in praykit_mosquitto_disconnect(client) }
            }
        }

        /// The loop's thread: connects, runs the loop until the connection ends, then destroys the client.
        private func run() {
            var code = praykit_mosquitto_connect(
                client, options.broker.host, Int32(options.broker.port), Int32(options.keepAlive))
            var reason: MQTTError?
            if code == MOSQ_ERR_SUCCESS.rawValue {
                // The broker must answer within a keep-alive interval (libmosquitto's own keep-alive
                // check starts only once it has).
                let deadline = ContinuousClock.now + .seconds(max(options.keepAlive, 5))
                var disconnecting = false
                while code == MOSQ_ERR_SUCCESS.rawValue, !context.isRefused {
                    // A wait for the answer that was given up (its task cancelled) ends the connection
                    // here, where it was made, even when the broker accepts it afterwards.
                    if context.isCancelled, !disconnecting {
                        disconnecting = true
                        _ = praykit_mosquitto_disconnect(client)
                    }
                    code = praykit_mosquitto_loop(client, 1000)
                    if !context.isAccepted, ContinuousClock.now > deadline {
                        reason = MQTTError(
                            .unreachable, message: "\(options.broker) accepted a connection but did not answer")
                        break
                    }
                }
            }
            if reason == nil, code != MOSQ_ERR_SUCCESS.rawValue { reason = error(code, errno: errno) }
            alive.withLock { alive in
                alive = false
                praykit_mosquitto_destroy(client)
            }
            context.end(reason)
        }

        /// Sets the client's options: the protocol, the credentials, the will and TLS.
        private func configure() throws(MQTTError) {
            _ = praykit_mosquitto_threaded_set(client, true)
            _ = praykit_mosquitto_int_option(client, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
            praykit_mosquitto_callbacks_set(
                client,
                { _, pointer, code in MosquittoContext.from(pointer)?.connected(code) },
                { _, pointer, code in MosquittoContext.from(pointer)?.disconnected(code) },
                { _, pointer, message in
                    guard let message, let topic = message.pointee.topic else { return }
                    let payload = message.pointee.payload.map {
                        Data(bytes: $0, count: Int(max(0, message.pointee.payloadlen)))
                    }
                    MosquittoContext.from(pointer)?.received(
                        MQTTAPI.Message(
                            topic: String(cString: topic), payload: payload ?? Data(), retain: message.pointee.retain,
                            qos: Int(message.pointee.qos)))
                },
                { _, pointer, level, text in
                    guard let text else { return }
                    MosquittoContext.from(pointer)?.logged(level: level, String(cString: text))
                },
                { _, pointer, id in MosquittoContext.from(pointer)?.acknowledged(id) })
            if let credentials = options.credentials {
                guard
                    praykit_mosquitto_username_pw_set(client, credentials.username, credentials.password)
                        == MOSQ_ERR_SUCCESS.rawValue
                else { throw MQTTError(.refused, message: "libmosquitto refused the user name") }
            }
            if let will = options.will {
                let code = will.payload.withUnsafeBytes { bytes in
                    praykit_mosquitto_will_set(
                        client, will.topic, Int32(bytes.count), bytes.baseAddress, Int32(will.qos), will.retain)
                }
                guard code == MOSQ_ERR_SUCCESS.rawValue else {
                    throw MQTTError(.invalidTopic, message: "the last will cannot be set: \(Self.text(code))")
                }
            }
            if options.broker.scheme == .mqtts {
                let code = praykit_mosquitto_tls(client, options.certificateAuthorityFile)
                guard code == MOSQ_ERR_SUCCESS.rawValue else {
                    let file = options.certificateAuthorityFile.map { " (the CA file \($0) cannot be read)" } ?? ""
                    throw MQTTError(.tls, message: "TLS cannot be set up\(file): \(Self.text(code))")
                }
            }
        }

        /// Runs `body` with the client while it exists.
        /// - Throws: ``MQTTError`` (`lost`) when it no longer does.
        private func withClient(_ body: (OpaquePointer) -> Int32) throws(MQTTError) -> Int32 {
            let code = alive.withLock { alive in alive ? body(client) : nil }
            guard let code else {
                throw MQTTError(.lost, message: "the connection to \(options.broker) has ended")
            }
            return code
        }

        /// Throws the error of a publish's or subscribe's result.
        private func check(_ code: Int32, topic: String) throws(MQTTError) {
            switch code {
            case MOSQ_ERR_SUCCESS.rawValue: return
            case MOSQ_ERR_NO_CONN.rawValue, MOSQ_ERR_CONN_LOST.rawValue:
                throw MQTTError(.lost, message: "the connection to \(options.broker) has ended")
            default:
                throw MQTTError(.invalidTopic, message: "'\(topic)' was refused: \(Self.text(code))")
            }
        }

        /// The error of the loop's or connect's result `code`.
        private func error(_ code: Int32, errno: Int32) -> MQTTError {
            let broker = options.broker
            let logged = context.lastError.map { ": \($0)" } ?? ""
            switch code {
            case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue:
                return MQTTError(
                    .tls,
                    message:
                        "TLS with \(broker) failed\(logged) (does it speak TLS on port \(broker.port) — mqtt:// is "
                        + "plain — and is its certificate for '\(broker.host)', signed by an authority this machine "
                        + "trusts or --ca-file names?)")
            case MOSQ_ERR_ERRNO.rawValue:
                let reason = errno == 0 ? "the connection failed" : String(cString: strerror(errno))
                return MQTTError(
                    context.isAccepted ? .lost : .unreachable,
                    message: "\(context.isAccepted ? "lost" : "cannot reach") \(broker): \(reason)")
            case MOSQ_ERR_EAI.rawValue, MOSQ_ERR_LOOKUP.rawValue:
                return MQTTError(.unreachable, message: "cannot find the broker's host '\(broker.host)'")
            case MOSQ_ERR_KEEPALIVE.rawValue:
                return MQTTError(.lost, message: "\(broker) stopped answering (no keep-alive answer)")
            default:
                return MQTTError(
                    context.isAccepted ? .lost : .unreachable,
                    message: "\(context.isAccepted ? "lost" : "cannot connect to") \(broker): \(Self.text(code))"
                        + logged)
            }
        }

        /// libmosquitto's words for a result code.
        static func text(_ code: Int32) -> String {
            praykit_mosquitto_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        }
    }

    /// What a connection's callbacks tell, handed to the session's user: the broker's answer, the
    /// messages, the end. libmosquitto holds it as its user data, unretained; the session keeps it.
    final class MosquittoContext: Sendable {
        let events: AsyncStream<MQTTAPI.Event>
        private let emit: AsyncStream<MQTTAPI.Event>.Continuation
        private let log: LogManager
        private let broker: MQTTAPI.Broker
        private let state = Mutex(State())

        private struct State {
            var opening: CheckedContinuation<Void, any Error>?
            var accepted = false
            var refused = false
            var cancelled = false
            var disconnecting = false
            var lastError: String?
            var ended = false
            var endWaiters: [CheckedContinuation<Void, Never>] = []
            /// Messages published at QoS 1 and not yet acknowledged, by id; ids the broker acknowledged
            /// before the publisher had noted them (the loop's thread can be first).
            var unacknowledged: [Int32: MQTTAPI.Message] = [:]
            var acknowledgedEarly: Set<Int32> = []
        }

        init(log: LogManager, broker: MQTTAPI.Broker) {
            self.log = log
            self.broker = broker
            (events, emit) = AsyncStream.makeStream(of: MQTTAPI.Event.self)
        }

        /// The context libmosquitto passes a callback.
        static func from(_ pointer: UnsafeMutableRawPointer?) -> MosquittoContext? {
            pointer.map { Unmanaged<MosquittoContext>.fromOpaque($0).takeUnretainedValue() }
        }

        var isAccepted: Bool { state.withLock { $0.accepted } }
        var isCancelled: Bool { state.withLock { $0.cancelled } }
        var isRefused: Bool { state.withLock { $0.refused } }
        var lastError: String? { state.withLock { $0.lastError } }

        /// Holds the wait for the broker's answer.
        func waitForAnswer(_ continuation: CheckedContinuation<Void, any Error>) {
            let cancelled = state.withLock { state in
                if !state.cancelled { state.opening = continuation }
                return state.cancelled
            }
            if cancelled { continuation.resume(throwing: CancellationError()) }
        }

        /// The task that waits for the answer was cancelled: it ends with `CancellationError`.
        func cancelOpening() {
            let opening = state.withLock { state in
                state.cancelled = true
                state.disconnecting = true
                defer { state.opening = nil }
                return state.opening
            }
            opening?.resume(throwing: CancellationError())
        }

        func markDisconnecting() {
            state.withLock { $0.disconnecting = true }
        }

        /// The broker's answer (MQTT 3.1.1's CONNACK return code).
        func connected(_ code: Int32) {
            let refusal: MQTTError? = code == 0 ? nil : Self.refusal(code, broker: broker)
            let opening = state.withLock { state in
                if refusal == nil { state.accepted = true } else { state.refused = true }
                defer { state.opening = nil }
                return state.opening
            }
            if let refusal { opening?.resume(throwing: refusal) } else { opening?.resume() }
        }

        func disconnected(_ code: Int32) {
            log.debug("MQTT disconnected", metadata: ["mqtt.broker": "\(broker)", "mqtt.code": "\(code)"])
        }

        func received(_ message: MQTTAPI.Message) {
            emit.yield(.message(message))
        }

        /// A message published under `id`: delivered once the broker acknowledges it (QoS 1).
        func sent(_ id: Int32, _ message: MQTTAPI.Message) {
            let early = state.withLock { state in
                if state.acknowledgedEarly.remove(id) != nil { return true }
                state.unacknowledged[id] = message
                return false
            }
            if early { emit.yield(.delivered(message)) }
        }

        /// The broker acknowledged message `id` (libmosquitto's publish callback).
        func acknowledged(_ id: Int32) {
            let message = state.withLock { state in
                guard let message = state.unacknowledged.removeValue(forKey: id) else {
                    state.acknowledgedEarly.insert(id)
                    return MQTTAPI.Message?.none
                }
                return message
            }
            if let message { emit.yield(.delivered(message)) }
        }

        func logged(level: Int32, _ text: String) {
            guard level & (MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0 else { return }
            state.withLock { $0.lastError = text }
            log.debug("libmosquitto", metadata: ["mqtt.log": text])
        }

        /// The loop ended: the answer, if still awaited, is the failure; the events end.
        func end(_ reason: MQTTError?) {
            let (opening, waiters, disconnecting, refused) = state.withLock { state in
                state.ended = true
                defer { (state.opening, state.endWaiters) = (nil, []) }
                return (state.opening, state.endWaiters, state.disconnecting, state.refused)
            }
            let failure =
                reason ?? MQTTError(.unreachable, message: "\(broker) closed the connection before accepting it")
            opening?.resume(throwing: failure)
            if !refused { emit.yield(.closed(disconnecting ? nil : failure)) }
            emit.finish()
            for waiter in waiters { waiter.resume() }
        }

        /// Returns once the loop has ended.
        func waitUntilEnded() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ended = state.withLock { state in
                    if !state.ended { state.endWaiters.append(continuation) }
                    return state.ended
                }
                if ended { continuation.resume() }
            }
        }

        /// The error of a refused connection (MQTT 3.1.1 §3.2.2.3).
        static func refusal(_ code: Int32, broker: MQTTAPI.Broker) -> MQTTError {
            switch code {
            case 4:
                return MQTTError(
                    .refused,
                    message:
                        "\(broker) refused the user name or password (bad user name or password); "
                        + "check the credentials file or PRAYKIT_MQTT_USERNAME and PRAYKIT_MQTT_PASSWORD")
            case 5:
                // "Not authorized" is mosquitto's answer to credentials it does not accept, and also to a
                // client ID it does not allow (its clientid_prefixes).
                return MQTTError(
                    .refused,
                    message:
                        "\(broker) refused the user name or password (not authorized); check the credentials file or "
                        + "PRAYKIT_MQTT_USERNAME and PRAYKIT_MQTT_PASSWORD, and whether the broker allows this "
                        + "client ID (--id)")
            case 2:
                return MQTTError(.refused, message: "\(broker) refused the client ID; give another with --id")
            case 3:
                return MQTTError(.unreachable, message: "\(broker) is unavailable (it said so)")
            default:
                return MQTTError(.refused, message: "\(broker) refused the connection (MQTT 3.1.1 code \(code))")
            }
        }
    }
#endif
