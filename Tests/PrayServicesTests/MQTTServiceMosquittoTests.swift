#if canImport(CMosquitto)
    import Foundation
    import PrayCore
    import PrayMocks
    import PrayServices
    import Synchronization
    import Testing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// The MQTT client on libmosquitto against a real Mosquitto broker on loopback: retained messages
    /// between two connections, a broker that refuses the credentials, one that is not there, one that
    /// goes away, and TLS verified against the broker's authority (and refused without it). Nothing here
    /// measures time: every wait is for a message or an end, with a hang guard.
    @Suite(.tags(.process, .server, .concurrency), .needsMQTT) struct MQTTServiceMosquittoTests {
        let mqtt = MQTTServiceMosquitto(log: .silent)

        /// The first message of `connection` on `topic`, with a hang guard.
        func first(_ topic: String, on connection: any MQTTConnection) async throws -> MQTTAPI.Message {
            let task = Task { () -> MQTTAPI.Message? in
                for await event in connection.events {
                    if case .message(let message) = event, message.topic == topic { return message }
                }
                return nil
            }
            let guardTask = Task {
                try await Task.sleep(for: .seconds(120))
                task.cancel()
            }
            defer { guardTask.cancel() }
            return try #require(await task.value, "no message on \(topic)")
        }

        @Test func aRetainedMessageReachesALaterSubscriber() async throws {
            // Given
            let broker = try MosquittoBroker.start()
            let url = try MQTTAPI.Broker(parsing: broker.url)
            let publisher = try await mqtt.connect(MQTTAPI.Connection(broker: url, clientID: "publisher"))
            // When: one connection publishes a retained message, then another subscribes
            try publisher.publish(MQTTAPI.Message(topic: "praykit/test/state", text: "{\"fajr\":1}", retain: true))
            await publisher.disconnect()
            let subscriber = try await mqtt.connect(MQTTAPI.Connection(broker: url, clientID: "subscriber"))
            try subscriber.subscribe("praykit/#")
            let message = try await first("praykit/test/state", on: subscriber)
            await subscriber.disconnect()
            // Then: it arrives as retained, intact; and a disconnected connection publishes nothing.
            #expect(message.text == "{\"fajr\":1}" && message.retain)
            #expect(throws: MQTTError.self) { try publisher.publish(MQTTAPI.Message(topic: "a", text: "b")) }
            #expect(broker.log.contains("New client connected") && broker.log.contains("as publisher"))
        }

        @Test func aBrokerThatRefusesTheCredentialsIsAFailureOfItsOwnKind() async throws {
            // Given
            let broker = try MosquittoBroker.start(users: ["amina": "s3cret"])
            let url = try MQTTAPI.Broker(parsing: broker.url)
            // When / Then: the wrong password is refused, saying so; the right one connects.
            await #expect {
                try await mqtt.connect(
                    MQTTAPI.Connection(
                        broker: url, clientID: "den", credentials: MQTTAPI.Credentials(username: "amina", password: "x")
                    ))
            } throws: { error in
                guard let error = error as? MQTTError else { return false }
                return error.kind == .refused && error.message.contains("refused the user name or password")
                    && !error.message.contains("s3cret")
            }
            let connection = try await mqtt.connect(
                MQTTAPI.Connection(
                    broker: url, clientID: "den",
                    credentials: MQTTAPI.Credentials(username: "amina", password: "s3cret")))
            await connection.disconnect()
        }

        @Test func aBrokerThatIsNotThereIsUnreachable() async throws {
            // Given: a broker started and killed, so that nothing listens on its port
            let broker = try MosquittoBroker.start()
            broker.kill()
            // Then
            await #expect {
                try await mqtt.connect(
                    MQTTAPI.Connection(broker: try MQTTAPI.Broker(parsing: broker.url), clientID: "den"))
            } throws: { error in
                (error as? MQTTError)?.kind == .unreachable
            }
        }

        @Test func aBrokerThatGoesAwayEndsTheConnectionSayingSo() async throws {
            // Given
            let broker = try MosquittoBroker.start()
            let connection = try await mqtt.connect(
                MQTTAPI.Connection(broker: try MQTTAPI.Broker(parsing: broker.url), clientID: "den"))
            // When
            broker.kill()
            // Then: the events end with a lost connection
            var last: MQTTAPI.Event?
            for await event in connection.events { last = event }
            guard case .closed(let reason) = last else {
                Issue.record("the events ended without saying so: \(String(describing: last))")
                return
            }
            #expect(reason?.kind == .lost)
        }

        @Test func aWaitForABrokerThatNeverAnswersEndsWithItsTaskAndSoDoesTheConnection() async throws {
            // Given: something that accepts the connection and never says a word
            let listener = try SilentListener()
            let task = Task {
                try await mqtt.connect(
                    MQTTAPI.Connection(
                        broker: MQTTAPI.Broker(host: "127.0.0.1", port: listener.port), clientID: "den",
                        keepAlive: 3600))
            }
            try await listener.waitUntil("the connection") { $0.accepted }
            // When: the wait is given up
            task.cancel()
            // Then: it ends with the cancellation, and the connection it made is closed, not left behind.
            await #expect(throws: CancellationError.self) { try await task.value }
            try await listener.waitUntil("the connection's end") { $0.closed }
        }

        @Test func tlsIsVerifiedAgainstTheBrokersAuthority() async throws {
            // Given: a broker whose certificate its own authority signed
            let broker = try MosquittoBroker.start(tls: true)
            let url = try MQTTAPI.Broker(parsing: broker.url)
            #expect(url.scheme == .mqtts)
            // When / Then: with that authority it connects, and a message goes through
            let connection = try await mqtt.connect(
                MQTTAPI.Connection(broker: url, clientID: "den", certificateAuthorityFile: broker.certificateAuthority))
            try connection.subscribe("praykit/tls")
            try connection.publish(MQTTAPI.Message(topic: "praykit/tls", text: "verified"))
            #expect(try await first("praykit/tls", on: connection).text == "verified")
            await connection.disconnect()
            // …with the system's authorities alone, the certificate is not trusted: refused.
            await #expect {
                try await mqtt.connect(MQTTAPI.Connection(broker: url, clientID: "den"))
            } throws: { error in
                (error as? MQTTError)?.kind == .tls
            }
        }
    }

    /// A loopback port that accepts one connection and never answers, noting when it is closed.
    final class SilentListener: Sendable {
        let port: Int
        private let socket: Int32
        private let seen = Seen()

        /// What the listener saw.
        private final class Seen: Sendable {
            let state = Mutex((accepted: false, closed: false))
        }

        init() throws {
            guard let (descriptor, port) = Loopback.listener(backlog: 1) else { throw POSIXError(.EADDRINUSE) }
            socket = descriptor
            self.port = port
            let seen = seen
            Thread.detachNewThread {
                let connection = accept(descriptor, nil, nil)
                seen.state.withLock { $0.accepted = connection >= 0 }
                guard connection >= 0 else { return }
                // Read (and ignore) whatever comes, until the other side closes.
                var buffer = [UInt8](repeating: 0, count: 256)
                while read(connection, &buffer, buffer.count) > 0 {}
                close(connection)
                seen.state.withLock { $0.closed = true }
            }
        }

        deinit {
            close(socket)
        }

        /// Waits until `condition` holds of what the listener saw, with a hang guard of two minutes.
        func waitUntil(_ what: String, _ condition: ((accepted: Bool, closed: Bool)) -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(120)
            while !condition(seen.state.withLock { $0 }) {
                guard ContinuousClock.now < deadline else { throw BrokerFailure("\(what) did not come") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
#endif
