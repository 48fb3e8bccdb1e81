#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where one PrayKit device's entities live on an MQTT broker, for Home Assistant's MQTT discovery:
/// `<prefix>/<device>/…` for its state, and `<discovery prefix>/<component>/<device>/<entity>/config`
/// for each entity's configuration.
///
/// ```swift
/// let topics = try HomeAssistantTopics(deviceID: "praykit-den")
/// topics.state          // praykit/praykit-den/state
/// topics.availability   // praykit/praykit-den/availability
/// topics.discovery(component: "sensor", entity: "fajr")   // homeassistant/sensor/praykit-den/fajr/config
/// ```
public struct HomeAssistantTopics: Hashable, Sendable {
    /// The first levels of every state topic; `praykit` by default.
    public let prefix: String
    /// Home Assistant's discovery prefix; `homeassistant` by default (Home Assistant's own default).
    public let discoveryPrefix: String
    /// The device's identifier: its topics' level, its entities' unique IDs' start and its client ID's.
    public let deviceID: String

    /// The accepted characters of ``deviceID``: Home Assistant's node IDs take `[a-zA-Z0-9_-]`.
    /// A set of scalars (Foundation's `CharacterSet` is not in FoundationEssentials); `contains(_:)`
    /// reads as before.
    public static let deviceIDCharacters = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-".unicodeScalars)

    /// Creates and checks the topics.
    /// - Parameters:
    ///   - prefix: The state topics' first levels (`praykit`, `home/prayer`).
    ///   - discoveryPrefix: Home Assistant's discovery prefix.
    ///   - deviceID: 1 to 64 of `a-z`, `A-Z`, `0-9`, `_` and `-`.
    /// - Throws: ``MQTTError`` (`invalidTopic`) for a prefix with a wildcard (`+`, `#`), an empty level,
    ///   a leading `$` (the broker's own topics) or a control character, or a device ID outside its
    ///   characters.
    public init(prefix: String = "praykit", discoveryPrefix: String = "homeassistant", deviceID: String)
        throws(MQTTError)
    {
        try Self.checkPrefix(prefix, what: "the topic prefix")
        try Self.checkPrefix(discoveryPrefix, what: "the discovery prefix")
        guard (1...64).contains(deviceID.count),
            deviceID.unicodeScalars.allSatisfy({ Self.deviceIDCharacters.contains($0) })
        else {
            throw MQTTError(
                .invalidTopic,
                message: "the device ID must be 1 to 64 of a-z, A-Z, 0-9, '_' and '-' (Home Assistant's node IDs), "
                    + "got '\(deviceID)'")
        }
        self.prefix = prefix
        self.discoveryPrefix = discoveryPrefix
        self.deviceID = deviceID
    }

    /// `<prefix>/<device>`: the level under which the device's state topics are.
    public var base: String { "\(prefix)/\(deviceID)" }
    /// `online` while the publisher runs, `offline` when it stopped (its last will says so when it died).
    public var availability: String { "\(base)/availability" }
    /// The state of every entity, one JSON object, retained.
    public var state: String { "\(base)/state" }
    /// The next prayer's countdown, one JSON object each minute, retained.
    public var next: String { "\(base)/next" }

    /// The value of one timestamp entity, `2026-12-06T05:31:00+03:00`, retained: published when it has
    /// a value, and left as it was when it has none (the entity is then unavailable, by the state
    /// object's `null`). Home Assistant's timestamp sensors log a warning for every message that is no
    /// time (`None`, an empty payload), so they are not given one.
    public func time(_ key: String) -> String {
        "\(base)/time/\(key)"
    }
    /// The adhan events, one JSON object each, not retained.
    public var adhanEvents: String { "\(base)/event/adhan" }
    /// The iqama (and Jumu'ah) events, one JSON object each, not retained.
    public var iqamaEvents: String { "\(base)/event/iqama" }
    /// Home Assistant's status (its birth message `online` when it starts, `offline` when it stops):
    /// `homeassistant/status`, its default whatever the discovery prefix.
    public var homeAssistantStatus: String { "homeassistant/status" }
    /// The status topics to listen on: ``homeAssistantStatus``, and the discovery prefix's own
    /// `status` when the prefix is another (a Home Assistant set up with both changed).
    public var homeAssistantStatusTopics: [String] {
        discoveryPrefix == "homeassistant" ? [homeAssistantStatus] : [homeAssistantStatus, "\(discoveryPrefix)/status"]
    }

    /// The discovery topic of one entity.
    public func discovery(component: String, entity: String) -> String {
        "\(discoveryPrefix)/\(component)/\(deviceID)/\(entity)/config"
    }

    /// Checks a topic prefix one may publish under: no wildcard, no empty level, not a broker's own (`$…`).
    /// - Parameters:
    ///   - prefix: The prefix.
    ///   - what: The prefix in words, for the message (`the topic prefix`).
    /// - Throws: ``MQTTError`` (`invalidTopic`) saying what is wrong.
    public static func checkPrefix(_ prefix: String, what: String) throws(MQTTError) {
        try MQTTAPI.checkTopicName(prefix, what: what)
        if prefix.hasPrefix("$") {
            throw MQTTError(
                .invalidTopic, message: "\(what) '\(prefix)' starts with '$', which brokers keep for their own topics")
        }
        if prefix.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw MQTTError(
                .invalidTopic,
                message: "\(what) '\(prefix)' has an empty level (a '/' at its start or end, or '//')")
        }
    }
}
