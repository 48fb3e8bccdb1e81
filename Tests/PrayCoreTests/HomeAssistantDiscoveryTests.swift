import Foundation
import PrayCore
import Testing

/// The discovery messages against Home Assistant's documented MQTT discovery schema
/// (home-assistant.io: "MQTT", "MQTT Sensor", "MQTT Binary sensor", "MQTT Event"): the topic format, a
/// unique ID per entity, one device block, the platforms' required keys and device classes, and
/// templates that read fields the state object has. (The templates are rendered by Jinja2 itself in
/// `MQTTBrokerTests`.)
@Suite struct HomeAssistantDiscoveryTests {
    static let discovery: HomeAssistantDiscovery = {
        let topics = (try? HomeAssistantTopics(prefix: "praykit", deviceID: "praykit-den"))
        return HomeAssistantDiscovery(
            topics: topics!, deviceName: HomeAssistantDiscovery.deviceName(for: "Makkah"), version: "1.2.3")
    }()

    /// Each discovery message: its topic and its JSON object.
    static func configurations() throws -> [(topic: String, object: [String: Any])] {
        try discovery.messages.map { message in
            (message.topic, try #require(try JSONSerialization.jsonObject(with: message.payload) as? [String: Any]))
        }
    }

    @Test func everyEntityHasATopicOfTheDocumentedFormAndAUniqueID() throws {
        let configurations = try Self.configurations()
        #expect(configurations.count == HomeAssistantDiscovery.entities.count)
        #expect(configurations.count == 21)
        var uniqueIDs: Set<String> = []
        for (topic, object) in configurations {
            // <discovery_prefix>/<component>/[<node_id>/]<object_id>/config, ids of [a-zA-Z0-9_-]
            let match = try #require(
                topic.wholeMatch(
                    of: /homeassistant\/(sensor|binary_sensor|event)\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)\/config/),
                "\(topic)")
            #expect(match.2 == "praykit-den")
            let uniqueID = try #require(object["unique_id"] as? String)
            #expect(uniqueID == "praykit-den_\(match.3)")
            #expect(uniqueIDs.insert(uniqueID).inserted, "\(uniqueID) twice")
            #expect(Self.discovery.messages.allSatisfy { $0.retain })
        }
    }

    @Test func everyEntityCarriesTheOneDeviceAndTheAvailability() throws {
        for (topic, object) in try Self.configurations() {
            let device = try #require(object["device"] as? [String: Any], "\(topic)")
            #expect(device["identifiers"] as? [String] == ["praykit-den"])
            #expect(device["name"] as? String == "PrayKit — Makkah")
            #expect(device["sw_version"] as? String == "1.2.3")
            #expect((object["origin"] as? [String: Any])?["name"] as? String == "PrayKit")
            let availability = try #require(object["availability"] as? [[String: Any]], "\(topic)")
            #expect(availability.first?["topic"] as? String == "praykit/praykit-den/availability")
            #expect(object["availability_mode"] as? String == "all")
            // The defaults payload_available "online" and payload_not_available "offline" are what the
            // availability topic carries and what every availability template renders.
            for entry in availability.dropFirst() {
                #expect(entry["topic"] as? String == "praykit/praykit-den/state")
                let template = try #require(entry["value_template"] as? String)
                #expect(template.contains("'offline'") && template.contains("'online'"))
            }
            #expect((object["name"] as? String).map { !$0.isEmpty } == true)
        }
    }

    @Test func eachPlatformHasItsRequiredKeysAndADocumentedDeviceClass() throws {
        // Home Assistant's sensor device classes used here (timestamp) and none for the others.
        for (topic, object) in try Self.configurations() {
            let stateTopic = try #require(object["state_topic"] as? String, "\(topic): state_topic is required")
            switch topic.split(separator: "/")[1] {
            case "event":
                #expect(object["device_class"] == nil)
                let types = try #require(object["event_types"] as? [String], "\(topic): event_types is required")
                #expect(!types.isEmpty && types.contains("maghrib"))
                #expect(stateTopic.hasPrefix("praykit/praykit-den/event/"))
                #expect(object["value_template"] == nil)
            case "binary_sensor":
                #expect(object["payload_on"] as? String == "ON" && object["payload_off"] as? String == "OFF")
                #expect(object["device_class"] == nil)
            default:
                let deviceClass = object["device_class"] as? String
                #expect(deviceClass == nil || deviceClass == "timestamp", "\(topic)")
                if deviceClass == "timestamp" {
                    // A timestamp sensor reads a topic of its own that only ever holds a time.
                    #expect(stateTopic.hasPrefix("praykit/praykit-den/time/") && object["value_template"] == nil)
                } else {
                    #expect(stateTopic == "praykit/praykit-den/state")
                }
            }
            #expect((object["icon"] as? String)?.hasPrefix("mdi:") == true)
        }
    }

    @Test func everyTemplateReadsAFieldTheStateObjectHas() throws {
        // Given: a state's fields
        let state = HomeAssistantState(date: try CivilDate(year: 2026, month: 12, day: 6), timeZone: .gmt)
        let fields = Set(
            (try #require(try JSONSerialization.jsonObject(with: state.payload) as? [String: Any])).keys)
        // Then: every `value_json.<field>` of every template names one of them.
        var read: Set<String> = []
        for (topic, object) in try Self.configurations() {
            var templates = [object["value_template"], object["json_attributes_template"]].compactMap { $0 as? String }
            templates += (object["availability"] as? [[String: Any]] ?? []).compactMap {
                $0["value_template"] as? String
            }
            for template in templates {
                #expect(template.hasPrefix("{{ ") && template.hasSuffix(" }}"), "\(topic): \(template)")
                for match in template.matches(of: /value_json\.([a-z_]+)/) {
                    #expect(fields.contains(String(match.1)), "\(topic) reads \(match.1), which the state has not")
                    read.insert(String(match.1))
                }
            }
        }
        #expect(read.isSuperset(of: ["next_prayer_name", "current_period", "disliked", "hijri", "jumuah_times"]))
    }
}
