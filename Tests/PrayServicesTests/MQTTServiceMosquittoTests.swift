#if canImport(CMosquitto)
    import Foundation
    import PrayCore
    import PrayMocks
    import PrayServices
    import Testing

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
#endif
