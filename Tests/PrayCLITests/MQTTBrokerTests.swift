import Foundation
import PrayCore
import PrayMocks
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `praykit mqtt` against a real Mosquitto broker on loopback, read by `mosquitto_sub`: the
/// discovery and state as Home Assistant reads them (its templates rendered by Jinja2), over TLS with a
/// user and password; everything published again after the broker restarts; the last will when the
/// daemon is killed; a broker that refuses the credentials; and the events of an evening under
/// libfaketime. Nothing here measures time: each wait is for a message or an exit, with a hang guard.
@Suite(.tags(.process, .binary, .server), .needsMQTT) struct MQTTBrokerTests {
    /// A database with Makkah saved, and iqama after each prayer.
    static func home() async throws -> (folder: TestFolder, environment: [String: String]) {
        let folder = try TestFolder("mqtt-home")
        let environment = ["PRAYKIT_DATABASE": folder.path("praykit.sqlite"), "PRAYKIT_LOG_LEVEL": "info"]
        for arguments in [
            ["config", "set", "city", "Makkah"],
            ["config", "set", "iqama", "fajr=+20,dhuhr=+15,asr=+15,maghrib=+5,isha=+15"],
            ["config", "set", "jumuah", "12:30"],
        ] {
            let result = try await PraykitProcess.run(arguments, environment: environment)
            guard result.status == 0 else { throw TestFailure("praykit \(arguments): \(result.stderr)") }
        }
        return (folder, environment)
    }

    /// A 0600 file with a user name and password.
    static func credentials(in folder: TestFolder, password: String) throws -> String {
        let file = folder.path("mqtt-credentials")
        try Data("# the broker's user\nusername=homeassistant\npassword=\(password)\n".utf8).write(
            to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        return file
    }

    /// Ends a daemon with SIGTERM (it publishes `offline` and disconnects) and waits for it.
    static func stop(_ daemon: PraykitProcess.Running) async throws -> PraykitProcess.Result {
        kill(daemon.process.processIdentifier, SIGTERM)
        return try await daemon.wait(deadline: 120)
    }

    /// Renders Home Assistant's templates with Jinja2, each over a payload as Home Assistant gives it
    /// (`value`, and `value_json` when the payload is JSON).
    static func render(_ cases: [(template: String, payload: String)]) async throws -> [String] {
        let script = """
            import jinja2, json, sys
            environment = jinja2.Environment()
            out = []
            for template, payload in json.load(sys.stdin):
                variables = {"value": payload}
                try:
                    variables["value_json"] = json.loads(payload)
                except ValueError:
                    pass
                out.append(environment.from_string(template).render(**variables).strip())
            json.dump(out, sys.stdout)
            """
        let folder = try TestFolder("jinja")
        let input = folder.path("cases.json")
        try JSONSerialization.data(withJSONObject: cases.map { [$0.template, $0.payload] }).write(
            to: URL(fileURLWithPath: input))
        let result = try await Shell.run(
            "/bin/sh", ["-c", "exec \(TestRequirement.jinjaPython) -c \"$0\" < \"$1\"", script, input])
        guard result.status == 0 else { throw TestFailure("jinja2: \(result.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String] ?? []
    }

    /// Whether the last state has come, and each time topic holds the last state's time (an update
    /// publishes the state, then the times that changed: between the two they differ).
    static func timesAgree(_ lines: [MosquittoSubscriber.Line]) -> Bool {
        guard let text = lines.last(where: { $0.topic == "praykit/den/state" })?.payload,
            let state = try? CLI.json(text)
        else { return false }
        let prefix = "praykit/den/time/"
        var times: [String: String] = [:]
        for line in lines where line.topic.hasPrefix(prefix) {
            times[String(line.topic.dropFirst(prefix.count))] = line.payload
        }
        return times.allSatisfy { key, time in (state[key] as? String).map { $0 == time } ?? true }
    }

    @Test func homeAssistantReadsTheEntitiesOverTLSWithAUserAndPassword() async throws {
        // Given: a TLS broker that asks for a user and password, and the daemon with its authority
        let broker = try MosquittoBroker.start(users: ["homeassistant": "s3cret"], tls: true)
        let (folder, environment) = try await Self.home()
        let user = (name: "homeassistant", password: "s3cret")
        let daemon = try PraykitProcess.Running(
            [
                "mqtt", "--broker", broker.url, "--ca-file", broker.certificateAuthority, "--credentials",
                try Self.credentials(in: folder, password: "s3cret"), "--id", "den",
            ], environment: environment)
        defer { daemon.kill() }
        let live = try broker.subscribe("praykit/den/availability", user: user)
        try await live.wait("online") { $0.last?.payload == "online" }
        // When: Home Assistant subscribes later: it gets every retained message
        let later = try broker.subscribe(user: user)
        let lines = try await later.wait("the retained messages") { lines in
            lines.filter { $0.topic.hasPrefix("homeassistant/") }.count == 21
                && lines.contains { $0.topic == "praykit/den/availability" } && Self.timesAgree(lines)
        }
        // Then: all retained; the discovery is the schema's (unique IDs, one device)
        #expect(lines.filter { $0.topic.hasPrefix("homeassistant/") }.allSatisfy { $0.retained })
        var configurations: [String: [String: Any]] = [:]
        for line in lines where line.topic.hasPrefix("homeassistant/") {
            configurations[line.topic] = try CLI.json(line.payload)
        }
        let uniqueIDs = configurations.values.compactMap { $0["unique_id"] as? String }
        #expect(Set(uniqueIDs).count == 21)
        let names = configurations.values.map { ($0["device"] as? [String: Any])?["name"] as? String }
        #expect(names.allSatisfy { $0 == "PrayKit — Makkah, SA" })
        // …and every template Home Assistant would render resolves, against the real payloads.
        let stateText = try #require(lines.last { $0.topic == "praykit/den/state" }?.payload)
        let state = try CLI.json(stateText)
        var cases: [(template: String, payload: String)] = []
        var expected: [String] = []
        for (topic, configuration) in configurations.sorted(by: { $0.key < $1.key }) {
            let key = String(topic.split(separator: "/")[3])
            if let template = configuration["value_template"] as? String {
                cases.append((template, stateText))
                let field = key == "next_prayer" ? "next_prayer_name" : key
                expected.append(state[field].map { $0 is NSNull ? "None" : "\($0)" } ?? "")
            } else if configuration["device_class"] as? String == "timestamp" {
                // A timestamp sensor's own topic holds the state's time, when there is one.
                let time = lines.last { $0.topic == configuration["state_topic"] as? String }?.payload
                #expect(time == state[key] as? String, "\(topic)")
            }
            for entry in (configuration["availability"] as? [[String: Any]] ?? []).dropFirst() {
                cases.append((try #require(entry["value_template"] as? String), stateText))
                let field = key == "next_prayer" ? "next_prayer_name" : key
                expected.append(state[field] is NSNull ? "offline" : "online")
            }
            if let template = configuration["json_attributes_template"] as? String {
                cases.append((template, stateText))
                expected.append("object")
            }
        }
        var rendered = try await Self.render(cases)
        for index in rendered.indices where expected[index] == "object" {
            rendered[index] = (try? CLI.json(rendered[index])).map { _ in "object" } ?? rendered[index]
        }
        #expect(rendered == expected)
        // Among them, the next time's name (whichever it is at this hour: sunrise between fajr and it).
        let next = try #require(state["next_prayer_name"] as? String)
        #expect(Prayer.daily.map(\.name).contains(next) && rendered.contains(next), "\(next)")
        // When the daemon stops: `offline`, retained.
        let result = try await Self.stop(daemon)
        #expect(result.status == 0, "\(result.stderr)")
        try await live.wait("offline") { $0.last?.payload == "offline" }
    }

    @Test func afterTheBrokerRestartsEverythingIsPublishedAgain() async throws {
        // Given: the daemon publishing to a broker that keeps nothing across a restart
        let broker = try MosquittoBroker.start()
        let (folder, environment) = try await Self.home()
        defer { withExtendedLifetime(folder) {} }
        let daemon = try PraykitProcess.Running(
            ["mqtt", "--broker", broker.url, "--id", "den"], environment: environment)
        defer { daemon.kill() }
        try await broker.subscribe("praykit/den/availability").wait("online") { $0.last?.payload == "online" }
        // When: the broker is killed and started again, empty
        try broker.restart()
        // Then: the daemon publishes everything again, and a subscriber that comes after gets the
        // discovery, the state and `online`, retained on the new broker.
        // (A hang guard of 5 minutes: the daemon's backoff grows 1, 2, 4 … s while the broker is away,
        // and on a busy machine the broker's start again takes a while.)
        try await broker.subscribe("praykit/den/availability").wait(seconds: 300, "online again") {
            $0.last?.payload == "online"
        }
        let lines = try await broker.subscribe().wait("the retained messages after the restart") { lines in
            lines.filter { $0.topic.hasPrefix("homeassistant/") && $0.retained }.count == 21
                && lines.contains { $0.topic == "praykit/den/availability" && $0.payload == "online" && $0.retained }
                && lines.contains { $0.topic == "praykit/den/state" && $0.retained }
        }
        #expect(lines.contains { $0.topic == "praykit/den/time/maghrib" })
        let result = try await Self.stop(daemon)
        #expect(result.status == 0)
        #expect(result.stderr.contains("MQTT connection lost") && result.stderr.contains("MQTT reconnected"))
    }

    @Test func aKilledDaemonIsOfflineByItsLastWill() async throws {
        // Given
        let broker = try MosquittoBroker.start()
        let (folder, environment) = try await Self.home()
        defer { withExtendedLifetime(folder) {} }
        let daemon = try PraykitProcess.Running(
            ["mqtt", "--broker", broker.url, "--id", "den"], environment: environment)
        let availability = try broker.subscribe("praykit/den/availability")
        try await availability.wait("online") { $0.last?.payload == "online" }
        // When: it dies without a word
        daemon.kill()
        _ = try await daemon.wait(deadline: 60)
        // Then: the broker publishes its will, and keeps it for whoever subscribes next.
        try await availability.wait("the last will") { $0.last?.payload == "offline" }
        let later = try broker.subscribe("praykit/den/availability")
        try await later.wait("the retained last will") { $0.last?.payload == "offline" && $0.last?.retained == true }
    }

    @Test func aBrokerThatRefusesTheCredentialsEndsItWithStatus1AfterOneTry() async throws {
        // Given: a broker that knows another password
        let broker = try MosquittoBroker.start(users: ["homeassistant": "s3cret"])
        let (folder, environment) = try await Self.home()
        // When
        let result = try await PraykitProcess.run(
            [
                "mqtt", "--broker", broker.url, "--credentials", try Self.credentials(in: folder, password: "wrong"),
                "--id", "den",
            ], environment: environment, deadline: 120)
        // Then: exit 1, saying so and where the credentials are, after a single connection
        #expect(result.status == 1)
        #expect(result.stderr.contains("Error: \(broker.url) refused the user name or password"), "\(result.stderr)")
        #expect(!result.stderr.contains("wrong"))
        #expect(broker.log.components(separatedBy: "Sending CONNACK").count - 1 == 1, "\(broker.log)")
        #expect(broker.log.components(separatedBy: "disconnected, not authorised").count - 1 == 1, "\(broker.log)")
    }

    @Test func anUntrustedCertificateIsRefusedWithStatus1() async throws {
        // Given: a TLS broker, and no --ca-file: the system's authorities do not know the broker's
        let broker = try MosquittoBroker.start(tls: true)
        let (folder, environment) = try await Self.home()
        defer { withExtendedLifetime(folder) {} }
        // When
        let result = try await PraykitProcess.run(
            ["mqtt", "--broker", broker.url, "--id", "den"], environment: environment, deadline: 120)
        // Then
        #expect(result.status == 1)
        #expect(result.stderr.contains("TLS with \(broker.url) failed"), "\(result.stderr)")
        #expect(result.stderr.contains("--ca-file"))
    }

    @Test(.tags(.faketime), .needsFaketime) func anEveningsEventsArePublishedOnceEachAtTheirSecondUnderFaketime()
        async throws
    {
        // Given: Makkah's clock 20 s before maghrib (17:38), running twenty times fast until after its
        // iqama (17:43), with a subscriber on the events
        let broker = try MosquittoBroker.start()
        let (folder, environment) = try await Self.home()
        defer { withExtendedLifetime(folder) {} }
        let events = try broker.subscribe("praykit/den/event/#")
        // When
        var shifted = environment.merging(FakeTime.environment("@2026-12-06 14:37:40 x20")) { $1 }
        shifted["TZ"] = "UTC"
        let result = try await Shell.run(
            PraykitProcess.executable.path,
            ["mqtt", "--broker", broker.url, "--id", "den", "--until", "2026-12-06T17:43:30+03:00"],
            environment: shifted, deadline: 300)
        // Then: the adhan and the iqama, each printed and published once, never before its second
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "2026-12-06T17:38:00+03:00 adhan maghrib\n2026-12-06T17:43:00+03:00 iqama maghrib\n")
        let published = result.stderr.split(separator: "\n").filter { $0.contains(" info MQTT event published ") }
        #expect(published.count == 2)
        #expect(published.first.map { $0 >= "2026-12-06T14:38:00" } == true, "\(published)")
        #expect(published.last.map { $0 >= "2026-12-06T14:43:00" } == true, "\(published)")
        let lines = try await events.wait("both events") { $0.count >= 2 }
        #expect(lines.map(\.topic) == ["praykit/den/event/adhan", "praykit/den/event/iqama"])
        #expect(lines.allSatisfy { !$0.retained })
        let adhan = try CLI.json(lines[0].payload)
        #expect(adhan["event_type"] as? String == "maghrib")
        #expect(adhan["time"] as? String == "2026-12-06T17:38:00+03:00")
        #expect(adhan["iqama"] as? String == "2026-12-06T17:43:00+03:00")
        #expect(try CLI.json(lines[1].payload)["event_type"] as? String == "maghrib")
    }
}
