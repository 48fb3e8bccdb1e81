import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The publisher's connection to the broker, kept up: it connects, publishes every retained message
/// (discovery, state, availability) on each connection and again when Home Assistant announces it has
/// started (its `homeassistant/status` birth message), publishes a changed retained message at once
/// while connected, and after a lost or refused connection waits longer each time (1 s to a minute, with
/// jitter) before the next try — except when the broker refused the credentials or the client, or its
/// certificate was not trusted: trying again cannot mend those, so ``run()`` throws.
///
/// Every publish happens under one lock, so the broker receives a topic's messages in the order they
/// were set, and a reconnection never sends an older value after a newer one.
final class HomeAssistantLink: Sendable {
    private let mqtt: any MQTTService
    private let options: MQTTAPI.Connection
    private let topics: HomeAssistantTopics
    private let clock: any PrayClock
    private let log: LogManager
    private let state = Mutex(State())
    /// How long an event not yet published (no connection at its moment) is still worth publishing.
    static let eventLifetime: TimeInterval = 120

    private struct State {
        var connection: (any MQTTConnection)?
        /// The retained messages by topic, and the topics in the order they were first set.
        var retained: [String: MQTTAPI.Message] = [:]
        var order: [String] = []
        /// Events that came while no connection was up, or were sent on one that ended before the
        /// broker acknowledged them, with their moments.
        var pending: [(message: MQTTAPI.Message, at: Date)] = []
        /// Events published on the connection up now that the broker has not acknowledged yet.
        var unacknowledged: [(message: MQTTAPI.Message, at: Date)] = []
        var connections = 0
    }

    /// Creates the link; nothing happens until ``run()``.
    /// - Parameters:
    ///   - options: How to connect; the last will is set here (``HomeAssistantTopics/availability``, `offline`).
    init(
        mqtt: any MQTTService, options: MQTTAPI.Connection, topics: HomeAssistantTopics, clock: any PrayClock,
        log: LogManager
    ) {
        var options = options
        options.will = MQTTAPI.Message(topic: topics.availability, text: "offline", retain: true)
        self.mqtt = mqtt
        self.options = options
        self.topics = topics
        self.clock = clock
        self.log = log
    }

    /// How many connections were made so far.
    var connections: Int { state.withLock { $0.connections } }

    /// Sets a retained message: published now when connected and different from the one set before,
    /// and on every later connection.
    func retain(_ message: MQTTAPI.Message) {
        state.withLock { state in
            if state.retained[message.topic] == nil { state.order.append(message.topic) }
            guard state.retained[message.topic] != message else { return }
            state.retained[message.topic] = message
            if let connection = state.connection { publish(message, on: connection, state: &state) }
        }
    }

    /// Publishes an event (not retained) now, or, with no connection, when one is made within
    /// ``eventLifetime`` of `at`; an event the broker has not acknowledged when its connection ends (a
    /// broker that hung or crashed) is published again on the next one, within the same lifetime.
    func send(_ message: MQTTAPI.Message, at: Date) {
        state.withLock { state in
            if let connection = state.connection {
                publishEvent(message, at: at, on: connection, state: &state)
            } else {
                state.pending.append((message, at))
                log.notice("MQTT event waits for the broker", metadata: ["mqtt.topic": message.topic])
            }
        }
    }

    /// Keeps the connection up until the task is cancelled.
    /// - Throws: ``MQTTError`` when the broker refused the credentials or the client, or TLS failed;
    ///   `CancellationError`.
    func run() async throws {
        var failures = 0
        while true {
            try Task.checkCancellation()
            let connection: any MQTTConnection
            do {
                connection = try await mqtt.connect(options)
            } catch let error as MQTTError where Self.isFatal(error) {
                // Thrown, for the caller to say (the command line's one line); not said twice.
                log.debug(
                    "MQTT broker refused", metadata: ["mqtt.broker": "\(options.broker)", "mqtt.error": error.message])
                throw error
            } catch let error as MQTTError {
                failures += 1
                let wait = Self.backoff(failures: failures)
                let metadata = ["mqtt.error": error.message, "mqtt.retry": "\(Int(wait.rounded(.up)))"]
                // The first failure of an outage is worth a warning; the rest say nothing new.
                if failures == 1 {
                    log.warning("MQTT broker not reached", metadata: metadata)
                } else {
                    log.debug("MQTT broker not reached", metadata: metadata)
                }
                try await clock.sleep(for: wait)
                continue
            }
            failures = 0
            try await hold(connection)
            // A broker that just went away is given a second or so before the first new try.
            try await clock.sleep(for: Self.backoff(failures: 1))
        }
    }

    /// Publishes `availability` `offline` and disconnects cleanly (a stopped publisher, not a dead one).
    func close() async {
        let connection = state.withLock { state -> (any MQTTConnection)? in
            defer { state.connection = nil }
            guard let connection = state.connection else { return nil }
            let offline = MQTTAPI.Message(topic: topics.availability, text: "offline", retain: true)
            state.retained[offline.topic] = offline
            publish(offline, on: connection, state: &state)
            return connection
        }
        await connection?.disconnect()
    }

    /// The wait before try number `failures + 1`: 1, 2, 4… seconds up to a minute, each between half
    /// and all of it (so that publishers cut off together do not come back together).
    static func backoff(failures: Int) -> TimeInterval {
        let ceiling = min(60, pow(2, Double(min(max(failures, 1), 7) - 1)))
        return ceiling * Double.random(in: 0.5...1)
    }

    /// Whether trying again cannot help: the broker refused who we are, or TLS failed.
    static func isFatal(_ error: MQTTError) -> Bool {
        [.refused, .tls, .invalidBroker, .invalidTopic, .unsupported].contains(error.kind)
    }
}

// MARK: - Helpers

extension HomeAssistantLink {
    /// Publishes everything on a new connection and reads it until it ends.
    private func hold(_ connection: any MQTTConnection) async throws {
        let number = state.withLock { state in
            state.connections += 1
            state.connection = connection
            // Home Assistant's birth message, so that a restarted Home Assistant gets everything again.
            do {
                for topic in topics.homeAssistantStatusTopics { try connection.subscribe(topic) }
            } catch {
                log.warning("MQTT subscribe failed", metadata: ["mqtt.error": "\(error)"])
            }
            publishAll(on: connection, state: &state)
            return state.connections
        }
        log.notice(number == 1 ? "MQTT connected" : "MQTT reconnected", metadata: ["mqtt.broker": "\(options.broker)"])
        var reason: MQTTError?
        // The events end when the connection does, and at once when this task is cancelled.
        for await event in connection.events {
            switch event {
            case .message(let message) where topics.homeAssistantStatusTopics.contains(message.topic):
                guard message.text == "online" else { continue }
                log.info("Home Assistant started: publishing again")
                state.withLock { publishAll(on: connection, state: &$0) }
            case .message:
                continue
            case .delivered(let message):
                state.withLock { state in
                    if let index = state.unacknowledged.firstIndex(where: { $0.message == message }) {
                        state.unacknowledged.remove(at: index)
                    }
                }
            case .closed(let error):
                reason = error
            }
        }
        if Task.isCancelled {
            // A stopped publisher says `offline` and disconnects cleanly, before the process may end.
            await close()
            throw CancellationError()
        }
        let unacknowledged = state.withLock { state in
            if state.connection === connection { state.connection = nil }
            // Events the broker never acknowledged may not have reached it: sent again, first.
            defer { state.unacknowledged = [] }
            state.pending = state.unacknowledged + state.pending
            return state.unacknowledged.count
        }
        log.warning("MQTT connection lost", metadata: ["mqtt.error": reason?.message ?? "closed"])
        if unacknowledged > 0 {
            log.notice(
                "MQTT events not acknowledged: sent again on the next connection",
                metadata: ["mqtt.events": "\(unacknowledged)"])
        }
    }

    /// Publishes every retained message in the order first set — availability last, so that the entities
    /// hold their values before they become available — then the events still worth sending.
    private func publishAll(on connection: any MQTTConnection, state: inout State) {
        let order = state.order.filter { $0 != topics.availability } + [topics.availability]
        for topic in order {
            if let message = state.retained[topic] { publish(message, on: connection, state: &state) }
        }
        let now = clock.now()
        let pending = state.pending
        state.pending = []
        for (message, at) in pending {
            guard now.timeIntervalSince(at) <= Self.eventLifetime else {
                log.warning(
                    "MQTT event dropped: the broker was away too long",
                    metadata: ["mqtt.topic": message.topic, "mqtt.late": "\(Int(now.timeIntervalSince(at)))"])
                continue
            }
            publishEvent(message, at: at, on: connection, state: &state)
        }
    }

    /// Publishes an event and keeps it until the broker acknowledges it.
    private func publishEvent(
        _ message: MQTTAPI.Message, at: Date, on connection: any MQTTConnection, state: inout State
    ) {
        state.unacknowledged.append((message, at))
        publish(message, on: connection, state: &state)
    }

    /// Publishes one message; a failure is logged (the connection is ending: the next one publishes it).
    private func publish(_ message: MQTTAPI.Message, on connection: any MQTTConnection, state: inout State) {
        do {
            try connection.publish(message)
        } catch {
            log.debug("MQTT publish failed", metadata: ["mqtt.topic": message.topic, "mqtt.error": "\(error)"])
        }
    }
}
