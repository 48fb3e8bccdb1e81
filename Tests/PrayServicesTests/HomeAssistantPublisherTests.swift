import Foundation
import PrayCore
import PrayMocks
import Synchronization
import Testing

@testable import PrayServices

/// `praykit mqtt`'s daemon as an app or a service runs it: on mocks and fakes, with a fake clock that
/// never waits and a fake connection that keeps what is published, so each test observes what was
/// published in which order and never the time it took.
@Suite(.tags(.concurrency)) struct HomeAssistantPublisherTests {
    static let riyadh = TimeZone(identifier: "Asia/Riyadh") ?? .gmt
    /// 2026-12-06 00:00 in Riyadh.
    static let midnight = Date(timeIntervalSince1970: 1_796_504_400)

    /// The services of one publisher, each a mock or fake the test reads afterwards.
    final class Services: Sendable {
        let clock: PrayClockFake
        let prayers = PrayerServiceMock()
        let hijri = HijriServiceMock()
        let mqtt = MQTTServiceMock()
        let state: ReminderStateStoreFake
        let memory = LogServiceMemory()
        let iqama: IqamaSetting

        init(
            now: Date = HomeAssistantPublisherTests.midnight, state: ReminderStateStoreFake = ReminderStateStoreFake(),
            iqama: String = "fajr=+20,dhuhr=+15,asr=+15,maghrib=+5,isha=+15"
        ) {
            clock = PrayClockFake(now: now)
            self.state = state
            self.iqama = IqamaSetting((try? IqamaSettings(parsing: iqama)) ?? IqamaSettings())
            // The mock schedule of every day asked for: fajr 05:00, sunrise 06:30, dhuhr 12:00, asr
            // 15:30, maghrib 18:00, isha 19:30, in Riyadh.
            prayers.onPrayerTimes { request in
                PrayerAPI.Response(
                    schedules: request.dates.map { PrayerSchedule.mock(date: $0, timeZone: request.timeZone) },
                    source: .calculated)
            }
            hijri.onDays { _ in [] }
        }

        /// A publisher over these services at Makkah, as device `den`.
        func publisher() throws -> HomeAssistantPublisher {
            let log = LogManager(services: [memory], minLevel: .trace)
            let location = LocationManager(
                timeZoneService: TimeZoneServiceMock(), placeService: PlaceServiceMock(),
                preferences: PreferencesStoreFake(), locationService: LocationServiceMock(), log: log)
            var publisher = HomeAssistantPublisher(
                prayers: prayers, hijri: hijri, location: location, mqtt: mqtt, preferences: PreferencesStoreFake(),
                mosques: MosqueTimetableStoreFake(), state: state, sync: SyncServiceMock(), clock: clock, log: log,
                connection: MQTTAPI.Connection(broker: MQTTAPI.Broker(host: "127.0.0.1"), clientID: "den"),
                topics: try HomeAssistantTopics(deviceID: "den"))
            let iqama = self.iqama
            publisher.calculation = {
                ReminderRunner.Calculation(
                    request: PrayerAPI.Request(
                        coordinates: .mockMakkah, timeZone: HomeAssistantPublisherTests.riyadh, date: .mockDate,
                        parameters: CalculationParameters(method: .ummAlQura)),
                    iqama: iqama.value, placeName: "Makkah")
            }
            return publisher
        }
    }

    /// `clock` (`HH:mm`) on 2026-12-06 in Riyadh, plus `days`.
    static func at(_ clock: String, days: Int = 0) -> Date {
        let parts = clock.split(separator: ":").compactMap { Int($0) }
        return midnight.addingTimeInterval(Double(days * 86_400 + parts[0] * 3600 + parts[1] * 60))
    }

    /// What a fake connection received on `topic`.
    static func payloads(_ connection: MQTTConnectionFake, _ topic: String) -> [String] {
        connection.published.filter { $0.topic == topic }.map(\.text)
    }

    @Test func itPublishesTheDiscoveryTheStateAndOnlineThenOfflineWhenItStops() async throws {
        // Given
        let services = Services(now: Self.at("14:00"))
        let connection = MQTTConnectionFake()
        services.mqtt.onConnect { _ in connection }
        // When: it runs for a minute
        try await services.publisher().run(until: Self.at("14:01"))
        // Then: one connection, with the last will `offline` on the availability topic, retained
        #expect(services.mqtt.connectCalls.count == 1)
        let options = try #require(services.mqtt.connectCalls.first)
        #expect(options.clientID == "den")
        #expect(options.will == MQTTAPI.Message(topic: "praykit/den/availability", text: "offline", retain: true))
        // Home Assistant's status followed; every entity's discovery first, then the state, then `online`
        #expect(connection.subscriptions == ["homeassistant/status"])
        let published = connection.published
        #expect(published.prefix(21).allSatisfy { $0.topic.hasPrefix("homeassistant/") && $0.retain })
        let online = try #require(published.firstIndex { $0.topic == "praykit/den/availability" })
        #expect(published[online].text == "online")
        #expect(published[..<online].contains { $0.topic == "praykit/den/state" })
        #expect(
            published[..<online].contains {
                $0.topic == "praykit/den/time/asr_iqama" && $0.text == "2026-12-06T15:45:00+03:00"
            })
        // …and at the end `offline`, then a clean disconnect (so the broker sends no last will).
        #expect(published.last == MQTTAPI.Message(topic: "praykit/den/availability", text: "offline", retain: true))
        #expect(connection.disconnectedCleanly)
        let state = try #require(Self.payloads(connection, "praykit/den/state").last)
        #expect(state.contains("\"next_prayer\":\"asr\"") && state.contains("\"current_period\":\"dhuhr\""))
    }

    @Test func aDaysAdhanAndIqamaEventsArePublishedOnceEachAtTheirMoment() async throws {
        // Given: a whole day from midnight
        let services = Services()
        let connection = MQTTConnectionFake()
        services.mqtt.onConnect { _ in connection }
        var publisher = try services.publisher()
        let clock = services.clock
        let moments = Journal()
        publisher.announce = { event, _ in
            moments.append("\(event.kind.rawValue) \(event.prayer.rawValue) \(clock.now() == event.at)")
        }
        // When
        let fired = try await publisher.run(until: Self.at("00:00", days: 1))
        // Then: ten events, each published when the clock stood at its second, each once
        let expected = [
            "adhan fajr", "iqama fajr", "adhan dhuhr", "iqama dhuhr", "adhan asr", "iqama asr", "adhan maghrib",
            "iqama maghrib", "adhan isha", "iqama isha",
        ]
        #expect(fired.map { "\($0.kind.rawValue) \($0.prayer.rawValue)" } == expected)
        #expect(moments.entries == expected.map { $0 + " true" })
        let adhans = Self.payloads(connection, "praykit/den/event/adhan")
        let iqamas = Self.payloads(connection, "praykit/den/event/iqama")
        #expect(adhans.count == 5 && iqamas.count == 5)
        #expect(adhans.first?.contains("\"event_type\":\"fajr\"") == true)
        #expect(iqamas.last?.contains("\"iqama\":\"2026-12-06T19:45:00+03:00\"") == true)
        #expect(connection.published.filter { $0.topic.hasPrefix("praykit/den/event/") }.allSatisfy { !$0.retain })
        // Recorded as published, so that a restart does not publish them again.
        #expect(services.state.recorded.map(\.id) == fired.map(\.id))
    }

    @Test func aRestartAfterAnEventDoesNotPublishItAgain() async throws {
        // Given: a first run through asr's adhan, then a second one starting 30 s after it
        let state = ReminderStateStoreFake()
        let first = Services(now: Self.at("15:29"), state: state)
        first.mqtt.onConnect { _ in MQTTConnectionFake() }
        let before = try await first.publisher().run(until: Self.at("15:31"))
        let second = Services(now: Self.at("15:30").addingTimeInterval(30), state: state)
        let connection = MQTTConnectionFake()
        second.mqtt.onConnect { _ in connection }
        // When
        let after = try await second.publisher().run(until: Self.at("15:50"))
        // Then: the adhan was published by the first run only; the iqama by the second.
        #expect(before.map(\.kind) == [.adhan])
        #expect(after.map(\.kind) == [.iqama])
        #expect(Self.payloads(connection, "praykit/den/event/adhan").isEmpty)
    }

    @Test func aLostBrokerIsTriedAgainWithBackoffAndGetsEverythingAgain() async throws {
        // Given: a connection that is lost at fajr's adhan, two failed tries, then a new connection
        let services = Services(now: Self.at("04:55"))
        let first = MQTTConnectionFake()
        let second = MQTTConnectionFake()
        let calls = Mutex(0)
        services.mqtt.onConnect { _ in
            let call = calls.withLock { calls in
                calls += 1
                return calls
            }
            switch call {
            case 1: return first
            case 2, 3: throw MQTTError(.unreachable, message: "cannot reach the broker: Connection refused")
            default: return second
            }
        }
        var publisher = try services.publisher()
        publisher.announce = { event, _ in if event.kind == .adhan { first.drop() } }
        // When
        try await publisher.run(until: Self.at("06:00"))
        // Then: four tries; the new connection got every entity, the state and `online` again, and the
        // fajr iqama that came after it.
        #expect(services.mqtt.connectCalls.count == 4)
        let topics = Set(second.published.map(\.topic))
        #expect(
            topics.isSuperset(
                of: Set(HomeAssistantDiscovery.entities.map { "homeassistant/\($0.component)/den/\($0.key)/config" })))
        #expect(topics.contains("praykit/den/state"))
        #expect(second.published.contains { $0.topic == "praykit/den/availability" && $0.text == "online" })
        #expect(Self.payloads(second, "praykit/den/event/iqama").count == 1)
        #expect(services.memory.events.contains { $0.message == "MQTT connection lost" })
        #expect(services.memory.events.contains { $0.message == "MQTT reconnected" })
    }

    @Test(arguments: [false, true])
    func anEventTheBrokerNeverAcknowledgedIsSentAgainOnTheNextConnection(acknowledged: Bool) async throws {
        // Given: a broker that hangs at fajr's adhan — the event is published, never acknowledged, and the
        // connection is found dead afterwards — then a new connection (or one that had acknowledged it)
        let services = Services(now: Self.at("04:55"))
        let first = MQTTConnectionFake(acknowledges: acknowledged)
        let second = MQTTConnectionFake()
        let calls = Mutex(0)
        services.mqtt.onConnect { _ in
            calls.withLock { calls in
                calls += 1
                return calls
            } == 1 ? first : second
        }
        var publisher = try services.publisher()
        publisher.announce = { event, _ in if event.kind == .adhan, event.prayer == .fajr { first.drop() } }
        // When
        try await publisher.run(until: Self.at("05:10"))
        // Then: the adhan went out on the first connection; the next one has it again only when the
        // broker never acknowledged it (at least once, never silently lost), and says so.
        #expect(Self.payloads(first, "praykit/den/event/adhan").count == 1)
        #expect(Self.payloads(second, "praykit/den/event/adhan").count == (acknowledged ? 0 : 1))
        let said = services.memory.events.contains { $0.message.hasPrefix("MQTT events not acknowledged") }
        #expect(said == !acknowledged)
    }

    @Test func aBrokerAwayForAnHourGetsTheStateOfItsReturn() async throws {
        // Given: the broker goes away at 12:00 and comes back an hour later
        let services = Services(now: Self.at("11:59"))
        let first = MQTTConnectionFake()
        let second = MQTTConnectionFake()
        let clock = services.clock
        let calls = Mutex(0)
        services.mqtt.onConnect { _ in
            let call = calls.withLock { calls in
                calls += 1
                return calls
            }
            if call == 1 { return first }
            guard clock.now() >= HomeAssistantPublisherTests.at("13:00") else {
                throw MQTTError(.unreachable, message: "cannot reach the broker: No route to host")
            }
            return second
        }
        var publisher = try services.publisher()
        publisher.announce = { event, _ in if event.prayer == .dhuhr, event.kind == .adhan { first.drop() } }
        // When
        try await publisher.run(until: Self.at("13:10"))
        // Then: tries every minute at most once the waits reached their ceiling — no storm — and the new
        // connection's state is that of 13:00, dhuhr's iqama past.
        let tries = services.mqtt.connectCalls.count
        #expect(tries > 3 && tries <= 130, "\(tries) tries")
        let state = try #require(Self.payloads(second, "praykit/den/state").first)
        #expect(state.contains("\"current_period\":\"dhuhr\"") && state.contains("\"next_prayer\":\"asr\""))
        #expect(
            services.memory.events.filter { $0.message == "MQTT broker not reached" && $0.level == .warning }.count == 1
        )
    }

    @Test func homeAssistantsBirthMessageGetsEverythingPublishedAgain() async throws {
        // Given: Home Assistant restarts (its `online` on homeassistant/status) at fajr's adhan
        let services = Services(now: Self.at("04:59"))
        let connection = MQTTConnectionFake()
        services.mqtt.onConnect { _ in connection }
        var publisher = try services.publisher()
        publisher.announce = { event, _ in
            if event.kind == .adhan {
                connection.deliver(MQTTAPI.Message(topic: "homeassistant/status", text: "online", retain: false))
            }
        }
        // When
        try await publisher.run(until: Self.at("05:30"))
        // Then: each discovery message went out twice: at the connection and after the birth message.
        let fajr = connection.published.filter { $0.topic == "homeassistant/sensor/den/fajr/config" }
        #expect(fajr.count == 2)
        #expect(services.memory.events.contains { $0.message == "Home Assistant started: publishing again" })
    }

    @Test func aBrokerThatRefusesTheCredentialsEndsTheRunWithoutTryingAgain() async throws {
        // Given
        let services = Services(now: Self.at("04:59"))
        services.mqtt.onConnect { _ in
            throw MQTTError(.refused, message: "mqtt://127.0.0.1:1883 refused the user name or password")
        }
        // When / Then: the error, after one try
        await #expect(throws: MQTTError(.refused, message: "mqtt://127.0.0.1:1883 refused the user name or password")) {
            try await services.publisher().run(until: Self.at("06:00"))
        }
        #expect(services.mqtt.connectCalls.count == 1)
    }

    @Test func anIqamaChangedWhileRunningIsPublishedAtTheNextReading() async throws {
        // Given: asr's iqama moves from +15 to +30 at fajr's adhan (as sync or `config set` would move it)
        let services = Services(now: Self.at("04:59"))
        let connection = MQTTConnectionFake()
        services.mqtt.onConnect { _ in connection }
        var publisher = try services.publisher()
        let iqama = services.iqama
        publisher.announce = { event, _ in
            if event.kind == .adhan, event.prayer == .fajr {
                iqama.change { $0.rules[.asr] = .afterAdhan(minutes: 30) }
            }
        }
        // When
        let fired = try await publisher.run(until: Self.at("16:30"))
        // Then: asr's iqama entity and event follow the new rule.
        #expect(
            Self.payloads(connection, "praykit/den/time/asr_iqama") == [
                "2026-12-06T15:45:00+03:00", "2026-12-06T16:00:00+03:00",
            ])
        #expect(fired.first { $0.kind == .iqama && $0.prayer == .asr }?.at == Self.at("16:00"))
    }

    @Test func theWaitBetweenTriesDoublesUpToAMinuteWithJitter() {
        for (failures, ceiling) in [(1, 1.0), (2, 2), (3, 4), (6, 32), (7, 60), (50, 60)] {
            for _ in 0..<50 {
                let wait = HomeAssistantLink.backoff(failures: failures)
                #expect(wait >= ceiling / 2 && wait <= ceiling, "\(failures) failures: \(wait)")
            }
        }
        #expect(HomeAssistantLink.isFatal(MQTTError(.refused, message: "")))
        #expect(HomeAssistantLink.isFatal(MQTTError(.tls, message: "")))
        #expect(!HomeAssistantLink.isFatal(MQTTError(.unreachable, message: "")))
        #expect(!HomeAssistantLink.isFatal(MQTTError(.lost, message: "")))
    }
}

/// The iqama settings a test changes while the publisher reads them.
final class IqamaSetting: Sendable {
    private let settings: Mutex<IqamaSettings>

    init(_ settings: IqamaSettings) {
        self.settings = Mutex(settings)
    }

    var value: IqamaSettings { settings.withLock { $0 } }

    func change(_ body: (inout IqamaSettings) -> Void) {
        settings.withLock { body(&$0) }
    }
}
