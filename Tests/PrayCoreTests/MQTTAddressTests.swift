import Foundation
import PrayCore
import Testing

/// The broker's address and the topics of `praykit mqtt`, read and checked before anything connects:
/// what is accepted, and what is refused with a message that says why (and never repeats a password).
@Suite struct MQTTAddressTests {
    @Test(arguments: [
        ("mqtt://homeassistant.local", "mqtt://homeassistant.local:1883"),
        ("mqtts://broker.example.org", "mqtts://broker.example.org:8883"),
        ("MQTT://127.0.0.1:1884/", "mqtt://127.0.0.1:1884"),
        ("mqtt://[::1]:1883", "mqtt://[::1]:1883"),
        ("mqtts://[fd00::2]", "mqtts://[fd00::2]:8883"),
    ])
    func aBrokerAddressIsReadWithItsDefaultPort(text: String, expected: String) throws {
        // When
        let broker = try MQTTAPI.Broker(parsing: text)
        // Then: the port is the scheme's when none is given, an IPv6 host keeps its brackets in words.
        #expect(broker.description == expected)
        #expect(broker.port == (text.contains(":1884") ? 1884 : broker.scheme.defaultPort))
    }

    @Test(arguments: [
        ("http://homeassistant.local", "must start with mqtt:// or mqtts://"),
        ("homeassistant.local:1883", "must be a URL"),
        ("mqtt://", "needs a host"),
        ("mqtt://host:0", "between 1 and 65535"),
        ("mqtt://host:70000", "between 1 and 65535"),
        ("mqtt://host:x", "port must be a number"),
        ("mqtt://host/praykit", "a host and a port only"),
        ("mqtt://[::1", "unclosed"),
    ])
    func aWrongBrokerAddressIsRefusedSayingWhy(text: String, reason: String) {
        #expect {
            try MQTTAPI.Broker(parsing: text)
        } throws: { error in
            guard let error = error as? MQTTError else { return false }
            return error.kind == .invalidBroker && error.message.contains(reason)
        }
    }

    @Test func aPasswordInTheAddressIsRefusedWithoutRepeatingIt() {
        // Given: a password where a command line shows it to every user
        let text = "mqtt://amina:s3cret-word@homeassistant.local"
        // Then: refused, saying where credentials go, and the password is in no message.
        #expect {
            try MQTTAPI.Broker(parsing: text)
        } throws: { error in
            guard let error = error as? MQTTError else { return false }
            return error.kind == .invalidBroker && !error.message.contains("s3cret")
                && error.message.contains("--credentials") && error.message.contains("PRAYKIT_MQTT_PASSWORD")
        }
    }

    @Test func theDeviceTopicsFollowItsPrefixAndID() throws {
        // When
        let topics = try HomeAssistantTopics(prefix: "home/prayer", deviceID: "praykit-den")
        // Then
        #expect(topics.state == "home/prayer/praykit-den/state")
        #expect(topics.availability == "home/prayer/praykit-den/availability")
        #expect(topics.next == "home/prayer/praykit-den/next")
        #expect(topics.time("fajr_iqama") == "home/prayer/praykit-den/time/fajr_iqama")
        #expect(topics.adhanEvents == "home/prayer/praykit-den/event/adhan")
        #expect(topics.iqamaEvents == "home/prayer/praykit-den/event/iqama")
        #expect(topics.homeAssistantStatus == "homeassistant/status")
        // Home Assistant's birth topic does not follow the discovery prefix (its own default is
        // `homeassistant/status`); a changed prefix's `status` is heard too.
        let moved = try HomeAssistantTopics(discoveryPrefix: "ha2", deviceID: "den")
        #expect(moved.homeAssistantStatusTopics == ["homeassistant/status", "ha2/status"])
        #expect(topics.homeAssistantStatusTopics == ["homeassistant/status"])
        #expect(topics.discovery(component: "sensor", entity: "fajr") == "homeassistant/sensor/praykit-den/fajr/config")
    }

    @Test(arguments: [
        "home/+/prayer", "praykit/#", "#", "+", "$SYS/praykit", "/praykit", "praykit/", "a//b", "", "a\u{0}b",
    ])
    func aPrefixWithAWildcardOrAnEmptyLevelIsRefused(prefix: String) {
        #expect {
            try HomeAssistantTopics(prefix: prefix, deviceID: "den")
        } throws: { error in
            (error as? MQTTError)?.kind == .invalidTopic
        }
        #expect {
            try HomeAssistantTopics(discoveryPrefix: prefix, deviceID: "den")
        } throws: { error in
            (error as? MQTTError)?.kind == .invalidTopic
        }
    }

    @Test(arguments: ["", "den/kitchen", "den+1", "den#", "mosquée", String(repeating: "x", count: 65)])
    func aDeviceIDOutsideHomeAssistantsCharactersIsRefused(id: String) {
        #expect {
            try HomeAssistantTopics(deviceID: id)
        } throws: { error in
            guard let error = error as? MQTTError else { return false }
            return error.kind == .invalidTopic && error.message.contains("a-z, A-Z, 0-9")
        }
    }

    @Test func aPublishedTopicHasNoWildcard() throws {
        try MQTTAPI.checkTopicName("praykit/den/state")
        #expect(throws: MQTTError.self) { try MQTTAPI.checkTopicName("praykit/+/state") }
        #expect(throws: MQTTError.self) { try MQTTAPI.checkTopicName("praykit/#") }
        #expect(throws: MQTTError.self) { try MQTTAPI.checkTopicName("") }
    }
}
