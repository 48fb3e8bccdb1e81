import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The container's MQTT client where libmosquitto is not linked (every platform but Linux): connecting
/// throws ``MQTTError`` (`unsupported`) saying so. Compiled everywhere, so that the Linux build checks it
/// too.
struct MQTTServiceUnavailable: MQTTService {
    /// Throws ``MQTTError`` (`unsupported`).
    func connect(_ connection: MQTTAPI.Connection) async throws -> any MQTTConnection {
        throw MQTTError(
            .unsupported,
            message: "the MQTT client (libmosquitto) is not available on this platform: PrayKit links it on Linux only")
    }
}
