#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The entities PrayKit shows in Home Assistant, and their MQTT discovery messages: one retained JSON
/// object per entity on ``HomeAssistantTopics/discovery(component:entity:)``, in the schema of Home
/// Assistant's MQTT integration (`sensor`, `binary_sensor` and `event` platforms).
///
/// Every entity belongs to one device, "PrayKit — <mosque or place>", identified by the topics'
/// ``HomeAssistantTopics/deviceID``. A timestamp entity reads its own topic
/// (``HomeAssistantTopics/time(_:)``), the others a field of the one state object
/// (``HomeAssistantState``) with a `value_template`. Each is available while the publisher is
/// (``HomeAssistantTopics/availability``, `online`, with the last will `offline`) and while the state
/// object has a value for it: a time the sun does not give in a polar day or night, an iqama not set,
/// suhoor outside Ramadan make their entities `unavailable`, never a wrong time. Adhan and iqama are
/// `event` entities an automation triggers on.
///
/// ```swift
/// let discovery = HomeAssistantDiscovery(topics: topics, deviceName: "PrayKit — Makkah", version: "1.4.0")
/// for message in discovery.messages { try connection.publish(message) }   // retained
/// ```
public struct HomeAssistantDiscovery: Sendable {
    /// One entity: its platform, key and what Home Assistant shows of it.
    public struct Entity: Hashable, Sendable {
        /// The platform: `sensor`, `binary_sensor` or `event`.
        public let component: String
        /// The key: its discovery topic's level and its unique ID's end.
        public let key: String
        /// Its field in the state object (the key, but for the next prayer's name).
        public let field: String
        /// The name Home Assistant shows after the device's.
        public let name: String
        /// Home Assistant's device class (`timestamp`), if any.
        public let deviceClass: String?
        /// Its icon (`mdi:…`).
        public let icon: String
        /// For an event entity, its event types.
        public let eventTypes: [String]
        /// The JSON object the entity's attributes are made of, as a template of the state object,
        /// if it has attributes there.
        public let attributes: String?

        init(
            _ component: String, _ key: String, field: String? = nil, name: String, deviceClass: String? = nil,
            icon: String, eventTypes: [String] = [], attributes: String? = nil
        ) {
            self.component = component
            self.key = key
            self.field = field ?? key
            self.name = name
            self.deviceClass = deviceClass
            self.icon = icon
            self.eventTypes = eventTypes
            self.attributes = attributes
        }
    }

    /// The topics the entities use.
    public let topics: HomeAssistantTopics
    /// The device's name: "PrayKit — <mosque or place>".
    public let deviceName: String
    /// PrayKit's version, shown as the device's software version.
    public let version: String

    /// Creates the discovery of a device.
    public init(topics: HomeAssistantTopics, deviceName: String, version: String) {
        self.topics = topics
        self.deviceName = deviceName
        self.version = version
    }

    /// The device's name for a mosque or a place: `PrayKit — East London Mosque`.
    public static func deviceName(for name: String) -> String {
        "PrayKit — \(name)"
    }

    /// Every entity, in the order Home Assistant lists them.
    public static let entities: [Entity] = {
        var entities: [Entity] = []
        for prayer in Prayer.daily {
            entities.append(
                Entity(
                    "sensor", prayer.rawValue, name: prayer.name, deviceClass: "timestamp", icon: icon(of: prayer)))
        }
        for prayer in Prayer.obligatory {
            entities.append(
                Entity(
                    "sensor", "\(prayer.rawValue)_iqama", name: "\(prayer.name) iqama", deviceClass: "timestamp",
                    icon: "mdi:account-group"))
        }
        let ramadan = "{{ {'ramadan_day': value_json.ramadan_day} | tojson }}"
        entities += [
            Entity(
                "sensor", "jumuah", name: "Jumu'ah", deviceClass: "timestamp", icon: "mdi:mosque",
                attributes: "{{ {'times': value_json.jumuah_times} | tojson }}"),
            Entity("sensor", "next_prayer", field: "next_prayer_name", name: "Next prayer", icon: "mdi:clock-outline"),
            Entity(
                "sensor", "next_prayer_time", name: "Next prayer time", deviceClass: "timestamp",
                icon: "mdi:clock-outline"),
            Entity(
                "sensor", "current_period", name: "Current prayer", icon: "mdi:timelapse",
                attributes: "{{ {'since': value_json.current_since, 'until': value_json.current_until} | tojson }}"),
            Entity(
                "binary_sensor", "disliked", name: "Disliked time", icon: "mdi:weather-sunny-alert",
                attributes: "{{ {'kind': value_json.disliked_kind, 'until': value_json.disliked_until} | tojson }}"),
            Entity(
                "sensor", "suhoor", name: "Suhoor ends", deviceClass: "timestamp", icon: "mdi:food-off",
                attributes: ramadan),
            Entity("sensor", "iftar", name: "Iftar", deviceClass: "timestamp", icon: "mdi:food", attributes: ramadan),
            Entity(
                "sensor", "hijri", name: "Hijri date", icon: "mdi:calendar-star",
                attributes: "{{ {'date': value_json.hijri_date, 'day': value_json.hijri_day, "
                    + "'month': value_json.hijri_month, 'month_name': value_json.hijri_month_name, "
                    + "'year': value_json.hijri_year} | tojson }}"),
            Entity(
                "event", "adhan", name: "Adhan", icon: "mdi:bullhorn", eventTypes: Prayer.obligatory.map(\.rawValue)),
            Entity(
                "event", "iqama", name: "Iqama", icon: "mdi:account-group",
                eventTypes: Prayer.obligatory.map(\.rawValue) + ["jumuah"]),
        ]
        return entities
    }()

    /// The retained discovery messages of every entity.
    public var messages: [MQTTAPI.Message] {
        Self.entities.map { entity in
            MQTTAPI.Message(
                topic: topics.discovery(component: entity.component, entity: entity.key),
                payload: HomeAssistantJSON.data(configuration(of: entity)), retain: true)
        }
    }

    /// The unique ID of an entity: `<device ID>_<key>`.
    public func uniqueID(of entity: Entity) -> String {
        "\(topics.deviceID)_\(entity.key)"
    }

    /// An entity's discovery object.
    func configuration(of entity: Entity) -> [String: Any] {
        var object: [String: Any] = [
            "name": entity.name, "unique_id": uniqueID(of: entity), "device": device, "origin": origin,
            "availability": availability(of: entity), "availability_mode": "all", "qos": 1,
        ]
        object["icon"] = entity.icon
        if let deviceClass = entity.deviceClass { object["device_class"] = deviceClass }
        switch entity.component {
        case "event":
            object["state_topic"] = entity.key == "adhan" ? topics.adhanEvents : topics.iqamaEvents
            object["event_types"] = entity.eventTypes
        case "binary_sensor":
            object["state_topic"] = topics.state
            object["value_template"] = "{{ value_json.\(entity.field) }}"
            object["payload_on"] = "ON"
            object["payload_off"] = "OFF"
        case _ where entity.deviceClass == "timestamp":
            object["state_topic"] = topics.time(entity.key)
        default:
            object["state_topic"] = topics.state
            object["value_template"] = "{{ value_json.\(entity.field) }}"
        }
        if entity.key == "next_prayer" {
            object["json_attributes_topic"] = topics.next
        } else if let attributes = entity.attributes {
            object["json_attributes_topic"] = topics.state
            object["json_attributes_template"] = attributes
        }
        return object
    }

    /// The publisher's availability, and for a sensor the state object's word on whether it has a value.
    private func availability(of entity: Entity) -> [[String: Any]] {
        var list: [[String: Any]] = [["topic": topics.availability]]
        if entity.component == "sensor" {
            list.append([
                "topic": topics.state,
                "value_template": "{{ 'offline' if value_json.\(entity.field) is none else 'online' }}",
            ])
        }
        return list
    }

    /// The state's messages: the state object on ``HomeAssistantTopics/state``, and each timestamp
    /// entity's value that is not `null` on its own topic (``HomeAssistantTopics/time(_:)``), all retained.
    public func messages(for state: HomeAssistantState) -> [MQTTAPI.Message] {
        let object = state.object
        var messages = [MQTTAPI.Message(topic: topics.state, payload: HomeAssistantJSON.data(object), retain: true)]
        for entity in Self.entities where entity.deviceClass == "timestamp" {
            guard let text = object[entity.field] as? String else { continue }
            messages.append(MQTTAPI.Message(topic: topics.time(entity.key), text: text, retain: true))
        }
        return messages
    }

    /// The device block every entity carries.
    private var device: [String: Any] {
        [
            "identifiers": [topics.deviceID], "name": deviceName, "manufacturer": "PrayKit",
            "model": "praykit mqtt", "sw_version": version,
        ]
    }

    /// Who published the discovery (Home Assistant logs it with the entity).
    private var origin: [String: Any] {
        ["name": "PrayKit", "sw_version": version]
    }

    /// The icon of a time of day.
    private static func icon(of prayer: Prayer) -> String {
        switch prayer {
        case .fajr: "mdi:weather-night-partly-cloudy"
        case .sunrise: "mdi:weather-sunset-up"
        case .dhuhr: "mdi:weather-sunny"
        case .asr: "mdi:weather-partly-cloudy"
        case .maghrib: "mdi:weather-sunset-down"
        default: "mdi:weather-night"
        }
    }
}
