import Foundation
import PrayCore
import PrayMocks
import Testing

@testable import PrayCLI

/// `praykit mqtt` in process, on the mock container: what it refuses before connecting (a password on
/// the command line, a wildcard in a prefix, a password in the broker's address, credentials others
/// can read), what it would publish (`--dry-run`), the unit it prints, and a run against a broker that
/// refuses the credentials (exit 1, one try).
@Suite struct MQTTCommandTests {
    static let makkah = ["--lat", "21.4225", "--lon", "39.8262", "--tz", "Asia/Riyadh"]

    @Test func aPasswordOnTheCommandLineIsRefusedSayingWhereItGoes() async {
        // When
        let result = await CLI.run(["mqtt", "--broker", "mqtt://127.0.0.1", "--password", "s3cret"] + Self.makkah)
        // Then: a usage error that names the file and the variable, and never the password
        #expect(result.status == 64)
        #expect(result.stderr.contains("--credentials FILE") && result.stderr.contains("$PRAYKIT_MQTT_PASSWORD"))
        #expect(result.stderr.contains("chmod 600"))
        #expect(!result.stderr.contains("s3cret"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aPasswordInTheBrokersAddressIsRefusedWithoutRepeatingIt() async {
        let result = await CLI.run(["mqtt", "--broker", "mqtt://amina:s3cret@127.0.0.1"] + Self.makkah)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --broker: the broker's address must not hold a user or password"))
        #expect(!result.stderr.contains("s3cret"))
    }

    @Test(arguments: ["--topic-prefix", "--discovery-prefix"])
    func aPrefixWithAWildcardIsRefused(option: String) async {
        for prefix in ["home/+/prayer", "praykit/#"] {
            let result = await CLI.run(
                ["mqtt", "--broker", "mqtt://127.0.0.1", option, prefix, "--dry-run"] + Self.makkah)
            #expect(result.status == 64)
            #expect(result.stderr.contains("holds an MQTT wildcard ('+' or '#')"), "\(result.stderr)")
        }
    }

    @Test func aCertificateAuthorityGoesWithTLSOnly() async {
        let result = await CLI.run(["mqtt", "--broker", "mqtt://127.0.0.1", "--ca-file", "/etc/ca.pem"] + Self.makkah)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --ca-file goes with an mqtts:// broker"))
    }

    @Test func aCredentialsFileOthersCanReadIsRefused() async throws {
        // Given: a credentials file any user may read
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-mqtt-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("username=amina\npassword=s3cret\n".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        // When
        let result = await CLI.run(["mqtt", "--broker", "mqtt://127.0.0.1", "--credentials", file] + Self.makkah)
        // Then
        #expect(result.status == 1)
        #expect(result.stderr.contains("can be read or changed by other users") && result.stderr.contains("chmod 600"))
        #expect(!result.stderr.contains("s3cret"))
    }

    @Test func aPasswordInTheEnvironmentNeedsAUserName() async {
        let result = await CLI.run(
            ["mqtt", "--broker", "mqtt://127.0.0.1"] + Self.makkah,
            environment: ["TZ": "UTC", "PRAYKIT_MQTT_PASSWORD": "s3cret"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("$PRAYKIT_MQTT_PASSWORD is set without $PRAYKIT_MQTT_USERNAME"))
    }

    @Test func aDryRunPrintsTheRetainedMessagesOfThatInstant() async throws {
        // When: at 14:14 in Makkah
        let result = await CLI.run(
            ["mqtt", "--broker", "mqtt://127.0.0.1", "--id", "den", "--dry-run", "--now", "2026-11-29T14:14:00+03:00"]
                + Self.makkah)
        // Then: one JSON object a line — the discovery of each entity, the state, each time, the
        // countdown and `online` — all retained, nothing connected
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.stdout.split(separator: "\n").map { try CLI.json(String($0)) }
        let topics = lines.compactMap { $0["topic"] as? String }
        #expect(topics.filter { $0.hasPrefix("homeassistant/") }.count == 21)
        #expect(topics.last == "praykit/den/availability")
        #expect(lines.allSatisfy { $0["retain"] as? Bool == true })
        let state = try #require(
            lines.first { $0["topic"] as? String == "praykit/den/state" }?["payload"] as? [String: Any])
        #expect(state["next_prayer"] as? String == "asr")
        #expect((state["asr"] as? String)?.hasPrefix("2026-11-29T15:") == true)
        #expect((state["asr"] as? String)?.hasSuffix("+03:00") == true)
        let fajr = lines.first { $0["topic"] as? String == "praykit/den/time/fajr" }?["payload"] as? String
        #expect(fajr == state["fajr"] as? String)
        #expect(topics.contains("praykit/den/next"))
    }

    @Test func theUnitRunsTheCommandWithTheMQTTOptionsAndStopsRestartingOnARefusal() async throws {
        // When
        let result = await CLI.run([
            "mqtt", "--broker", "mqtts://broker.example.org", "--credentials", "/home/amina/.config/praykit/mqtt",
            "--ca-file", "/etc/ssl/home ca.pem", "--id", "praykit-den", "--topic-prefix", "home/prayer", "--print-unit",
        ])
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        let exec = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        #expect(
            exec.hasSuffix(
                " mqtt --broker mqtts://broker.example.org:8883 --credentials /home/amina/.config/praykit/mqtt "
                    + "--ca-file \"/etc/ssl/home ca.pem\" --id praykit-den --topic-prefix home/prayer"))
        #expect(result.stdout.contains("RestartPreventExitStatus=1 64"))
        #expect(result.stdout.contains("WantedBy=default.target"))
        // A place given on the command line would be lost in the unit: refused, saying what to do.
        let withPlace = await CLI.run(["mqtt", "--broker", "mqtt://127.0.0.1", "--print-unit"] + Self.makkah)
        #expect(withPlace.status == 64)
        #expect(withPlace.stderr.contains("save them with 'praykit config set'"))
    }

    @Test func theCredentialsFilesPasswordIsTakenAsWritten() async throws {
        // Given: a password with spaces at its ends and inside (a Windows line end after it)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-mqtt-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("# broker\nusername = amina \npassword= pass word \r\n".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        var dependency = CLI.dependency()
        let mqtt = MQTTServiceMock()
        mqtt.onConnect { _ in throw MQTTError(.refused, message: "refused") }
        dependency.mqtt = mqtt
        // When
        _ = await CLI.run(
            ["mqtt", "--broker", "mqtt://127.0.0.1", "--credentials", file] + Self.makkah, dependency: dependency)
        // Then: the name without its spaces, the password with them
        #expect(mqtt.connectCalls.first?.credentials == MQTTAPI.Credentials(username: "amina", password: " pass word "))
    }

    @Test func aBrokerThatRefusesTheCredentialsEndsItWithStatus1AfterOneTry() async throws {
        // Given: credentials in the environment, and a broker that refuses them
        var dependency = CLI.dependency()
        let mqtt = MQTTServiceMock()
        mqtt.onConnect { connection in
            throw MQTTError(
                .refused,
                message: "\(connection.broker) refused the user name or password (not authorized); check the "
                    + "credentials file or PRAYKIT_MQTT_USERNAME and PRAYKIT_MQTT_PASSWORD")
        }
        dependency.mqtt = mqtt
        // When
        let result = await CLI.run(
            ["mqtt", "--broker", "mqtt://127.0.0.1", "--id", "den"] + Self.makkah, dependency: dependency,
            environment: ["TZ": "UTC", "PRAYKIT_MQTT_USERNAME": "amina", "PRAYKIT_MQTT_PASSWORD": "wrong"])
        // Then: exit 1 with the broker's refusal, after one try with those credentials
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: mqtt://127.0.0.1:1883 refused the user name or password"))
        #expect(mqtt.connectCalls.count == 1)
        #expect(mqtt.connectCalls.first?.credentials == MQTTAPI.Credentials(username: "amina", password: "wrong"))
        #expect(mqtt.connectCalls.first?.clientID == "den")
    }
}
