import PrayCore
import PrayKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `praykit mqtt`: the daemon that publishes the day's times to an MQTT broker as Home Assistant
/// entities (``HomeAssistantPublisher``) — or prints what it would publish (`--dry-run`), or a systemd
/// user unit that runs it (`--print-unit`).
enum MQTTCommand: Command {
    static let name = "mqtt"
    static let abstract = "Publish the prayer times, iqama and events to an MQTT broker for Home Assistant."
    static let discussion = """
        Publishes a device 'PrayKit — <mosque or place>' through Home Assistant's MQTT discovery: the day's
        fajr, sunrise, dhuhr, Asr, maghrib and isha and each prayer's iqama (timestamp sensors), this
        week's Jumu'ah, the next prayer (its countdown an attribute, updated each minute), the current
        prayer, the disliked times (a binary sensor), Ramadan's suhoor and iftar, the Hijri date, and
        two event entities, 'Adhan' and 'Iqama', fired once at each adhan and iqama for automations.
        State and discovery are retained; the availability topic says 'online', and the broker's last
        will says 'offline' if the daemon dies. Times carry the place's offset. A time the sun does not
        give (a polar day or night) makes its entities unavailable, never a wrong time.

        Like 'praykit notify', it reads the saved place, the settings and the chosen mosque's timetable
        again at every wake (at least once a minute) and at once when they change, and runs sync's
        scheduler: a mosque's new iqama that sync brings is published in about a second. When the broker
        goes away it tries again, waiting 1 s, 2 s, 4 s… up to a minute between tries, and publishes
        everything again when it is back (and when Home Assistant restarts: its homeassistant/status
        birth message). A broker that refuses the user name or password ends it with exit status 1.

        The user name and password never go on the command line (every user of the machine can read
        it): give --credentials FILE, a file only you can read (chmod 600) with the lines
        username=… and password=…, or set PRAYKIT_MQTT_USERNAME and PRAYKIT_MQTT_PASSWORD. For
        mqtts:// the broker's certificate must be signed by an authority this machine trusts, or by the
        one --ca-file names, and be for the broker's name.

        To run it with your session: praykit mqtt --broker … --print-unit >
        ~/.config/systemd/user/praykit-mqtt.service, then systemctl --user enable --now praykit-mqtt.
        The unit uses the saved place and settings ('praykit config set city …').
        """
    static let examples = [
        "praykit mqtt --broker mqtt://homeassistant.local --credentials ~/.config/praykit/mqtt",
        "praykit mqtt --broker mqtts://broker.example.org --ca-file /etc/ssl/home-ca.pem --id praykit-den",
        "praykit mqtt --broker mqtt://127.0.0.1 --dry-run",
        "praykit mqtt --broker mqtt://homeassistant.local --credentials ~/.config/praykit/mqtt --print-unit "
            + "> ~/.config/systemd/user/praykit-mqtt.service",
    ]
    static let broker = Option<MQTTAPI.Broker>(
        "broker", value: "url", help: "The broker: mqtt://host[:port] (1883), or mqtts://host[:port] (8883) with TLS.")
    static let credentials = Option<String?>(
        "credentials", value: "file",
        help: "A file only you can read (chmod 600) with the lines username=… and password=….",
        defaultText: "$PRAYKIT_MQTT_USERNAME and $PRAYKIT_MQTT_PASSWORD, else none", completion: .file)
    static let password = Option<String?>(
        "password", value: "text",
        help: "Refused: a password on the command line is readable by every user; "
            + "use --credentials or $PRAYKIT_MQTT_PASSWORD.")
    static let caFile = Option<String?>(
        "ca-file", value: "file", help: "With mqtts://: the PEM certificate of the authority that signed the broker's.",
        defaultText: "the system's trusted authorities", completion: .file)
    static let id = Option<String?>(
        "id", value: "id", help: "The device's ID: its topics' level, its entities' unique IDs, its MQTT client ID.",
        defaultText: "praykit-<host name>")
    static let topicPrefix = Option(
        "topic-prefix", value: "topic", help: "The first levels of the state topics (no + or #).",
        default: TopicPrefix.praykit)
    static let discoveryPrefix = Option(
        "discovery-prefix", value: "topic", help: "Home Assistant's MQTT discovery prefix.",
        default: TopicPrefix.homeAssistant)
    static let keepAlive = Option(
        "keepalive", value: "s", help: "Seconds between keep-alive exchanges with the broker.", default: 60,
        range: 5...3600, unit: "seconds")
    static let until = Option<Instant?>(
        "until", value: "ISO 8601", help: "Stop at this instant (publishing offline).", defaultText: "never")
    static let dryRun = Flag(
        "dry-run", help: "Print the retained messages it would publish now (a JSON object a line); connect to nothing.")
    static let now = Option<Instant?>(
        "now", value: "ISO 8601", help: "With --dry-run: the instant to publish for.", defaultText: "now")
    static let printUnit = Flag(
        "print-unit", help: "Print a systemd user unit that runs 'praykit mqtt' with the MQTT options given.")
    static let options: [any OptionDefinition] =
        PlaceOptions.place + PlaceOptions.calculation + [
            broker, credentials, password, caFile, id, topicPrefix, discoveryPrefix, keepAlive, until, dryRun, now,
            printUnit,
        ]

    /// The environment's user name and password, when no file gives them.
    static let usernameVariable = "PRAYKIT_MQTT_USERNAME"
    static let passwordVariable = "PRAYKIT_MQTT_PASSWORD"

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        if arguments[password] != nil {
            throw CLIError.usage(
                "a password on the command line can be read by every user of this machine (ps, /proc): put it in a "
                    + "file only you can read (chmod 600) with the lines username=… and password=…, given with "
                    + "--credentials FILE, or in $\(passwordVariable) (a systemd unit's EnvironmentFile) — and "
                    + "consider the one typed here seen")
        }
        let topics = try HomeAssistantTopics(
            prefix: arguments[topicPrefix].text, discoveryPrefix: arguments[discoveryPrefix].text,
            deviceID: arguments[id] ?? defaultID())
        if arguments[caFile] != nil, arguments[broker].scheme != .mqtts {
            throw CLIError.usage("--ca-file goes with an mqtts:// broker")
        }
        if arguments[printUnit] { return try context.output.write(try unit(arguments)) }
        if !arguments[dryRun], arguments.isGiven(now) { throw CLIError.usage("--now goes with --dry-run") }
        let connection = MQTTAPI.Connection(
            broker: arguments[broker], clientID: topics.deviceID, credentials: try loadCredentials(arguments, context),
            keepAlive: arguments[keepAlive], certificateAuthorityFile: arguments[caFile].map(absolute))
        // Check the place and settings now, so that a mistake is a usage error before connecting.
        let calculation = try await PlaceOptions.calculation(arguments, context: context)
        var publisher = context.dependency.homeAssistantPublisher(connection: connection, topics: topics)
        publisher.calculation = {
            let calculation = try await PlaceOptions.calculation(arguments, context: context)
            return .init(request: calculation.request, iqama: calculation.iqama, placeName: calculation.place.name)
        }
        let zone = calculation.request.zone
        if arguments[dryRun] {
            let instant = try arguments[now]?.date(in: zone) ?? context.now
            return try write(try await publisher.messages(at: instant), to: context.output)
        }
        try await noteMissing(calculation, context: context)
        if let running = context.dependency.homeAssistantState().runningDaemon() {
            throw CLIError.runtime(
                "another 'praykit mqtt' runs with this database (pid \(running)); two would take each other's place "
                    + "on the broker")
        }
        publisher.handlesSignals = true
        let log = context.dependency.log()
        publisher.announce = { event, timeline in
            do {
                let kind = event.kind == .adhan ? "adhan" : "iqama"
                let type = event.kind == .jumuah ? "jumuah" : event.prayer.rawValue
                let clock = LocalClock(timeZone: timeline.timeZone)
                try context.output.write("\(clock.iso8601(event.at)) \(kind) \(type)\n")
                try context.output.flush()
            } catch {
                log.error("MQTT event not printed", metadata: ["mqtt.event": event.id, "mqtt.error": "\(error)"])
            }
        }
        try await publisher.run(until: try arguments[until]?.date(in: zone))
    }
}

// MARK: - Helpers

extension MQTTCommand {
    /// `praykit-<host name>`, the host name reduced to the characters an ID may hold.
    static func defaultID() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let kept = String(
            String.UnicodeScalarView(
                host.unicodeScalars.prefix { $0 != "." }.filter { HomeAssistantTopics.deviceIDCharacters.contains($0) })
        )
        return "praykit-" + (kept.isEmpty ? "home" : String(kept.prefix(48)))
    }

    /// The user name and password: the `--credentials` file's, else the environment's, else none.
    /// - Throws: ``CLIError`` for a file that others can read or that lacks a line, or a password in the
    ///   environment without a user name.
    static func loadCredentials(
        _ arguments: ParsedArguments, _ context: CommandContext
    ) throws(CLIError) -> MQTTAPI.Credentials? {
        if let file = arguments[credentials] {
            let text = try SecretFile.read(file, what: "the credentials file", trimmed: false)
            var values: [String: String] = [:]
            for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                let key = line[..<equals].trimmingWhitespace()
                let value = String(line[line.index(after: equals)...])
                // The password as written (spaces are a password's characters); a name without the
                // spaces around it. (A Windows line end is a line end.)
                let kept = value.hasSuffix("\r") ? String(value.dropLast()) : value
                values[key] = key == "password" ? kept : kept.trimmingWhitespace()
            }
            guard let username = values["username"], !username.isEmpty, let secret = values["password"] else {
                throw .runtime("the credentials file \(file) needs the lines username=… and password=…")
            }
            return MQTTAPI.Credentials(username: username, password: secret)
        }
        let username = context.environment[usernameVariable].flatMap { $0.isEmpty ? nil : $0 }
        let secret = context.environment[passwordVariable].flatMap { $0.isEmpty ? nil : $0 }
        if secret != nil, username == nil {
            throw .usage("$\(passwordVariable) is set without $\(usernameVariable): the broker needs both")
        }
        return username.map { MQTTAPI.Credentials(username: $0, password: secret ?? "") }
    }

    /// Says on standard error which times the sun does not give in the next two days (their entities
    /// are unavailable), so that an unavailable sensor is not taken for a broken one.
    private static func noteMissing(_ calculation: PlaceOptions.Calculation, context: CommandContext) async throws {
        var request = calculation.request
        request.date = try CivilDate(containing: context.now, in: request.zone)
        request.days = 2
        let schedules = try await context.dependency.prayerService().prayerTimes(for: request).schedules
        guard let note = MissingTimes.note(schedules, prayers: Prayer.daily, parameters: request.parameters) else {
            return
        }
        try context.diagnostics.write("Note: \(note) Their entities are unavailable.\n")
        try context.diagnostics.flush()
    }

    /// Each message as a JSON object a line: its topic, whether it is retained, and its payload (JSON
    /// where it is, else text).
    private static func write(_ messages: [MQTTAPI.Message], to output: OutputSink) throws {
        for message in messages {
            let payload = (try? JSONDecoder().decode(JSON.self, from: message.payload)) ?? .string(message.text)
            let object = JSON.object([
                ("payload", payload), ("retain", .bool(message.retain)), ("topic", .string(message.topic)),
            ])
            try output.write(object.compactRendered() + "\n")
        }
    }

    /// `path` made absolute against the working folder (the daemon may run from another).
    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// A systemd user unit that runs this program's `mqtt` with the MQTT options given; the place and
    /// settings are the saved ones, read at every start.
    /// - Throws: ``CLIError`` (usage) for place or calculation options, which a unit would not keep.
    static func unit(_ arguments: ParsedArguments) throws -> String {
        let placeOptions = (PlaceOptions.place + PlaceOptions.calculation).filter { arguments.isGiven($0) }
        if let first = placeOptions.first {
            throw CLIError.usage(
                "--print-unit writes a unit that uses the saved place and settings, not --\(first.name): save them "
                    + "with 'praykit config set' (the unit reads them at every start)")
        }
        var words = ["mqtt", "--broker", arguments[broker].description]
        if let file = arguments[credentials] { words += ["--credentials", absolute(file)] }
        if let file = arguments[caFile] { words += ["--ca-file", absolute(file)] }
        if let id = arguments[id] { words += ["--id", id] }
        for option in [topicPrefix, discoveryPrefix] where arguments.isGiven(option) {
            words += ["--\(option.name)", arguments[option].text]
        }
        if arguments.isGiven(keepAlive) { words += ["--keepalive", "\(arguments[keepAlive])"] }
        let program = URL(fileURLWithPath: CommandLine.arguments.first ?? "praykit").standardizedFileURL
            .resolvingSymlinksInPath().path
        let command = ([program] + words).map(NotifyRunCommand.systemdQuoted).joined(separator: " ")
        return """
            [Unit]
            Description=praykit: prayer times to Home Assistant over MQTT
            Documentation=man:praykit(1)

            [Service]
            Type=simple
            ExecStart=\(command)
            # The user name and password in the environment instead of --credentials (a file of yours alone,
            # chmod 600, with the lines PRAYKIT_MQTT_USERNAME=… and PRAYKIT_MQTT_PASSWORD=…):
            #EnvironmentFile=%h/.config/praykit/mqtt.env
            # praykit mqtt waits for the broker itself, however long it is away. It exits only when restarting
            # cannot help — 64: the command line or the saved settings are wrong; 1: the broker refused the
            # user name or password, its certificate is not trusted, or libmosquitto1 is missing — so systemd
            # restarts it after a crash only, never in a loop against a broker that refuses it.
            Restart=on-failure
            RestartSec=30
            RestartPreventExitStatus=1 64

            [Install]
            WantedBy=default.target

            """
    }
}

extension MQTTAPI.Broker: ArgumentValue {
    init(argument: String) throws(ArgumentValueError) {
        do {
            try self.init(parsing: argument)
        } catch {
            throw ArgumentValueError(reason: ": " + error.message, namesTheValue: true)
        }
    }
}

/// A topic prefix, checked when the command line is read: no MQTT wildcard (`+`, `#`), no empty level,
/// not a broker's own (`$…`).
struct TopicPrefix: ArgumentValue, Equatable {
    /// The prefix.
    let text: String

    /// PrayKit's state topics' default, `praykit`.
    static let praykit = TopicPrefix(checked: "praykit")
    /// Home Assistant's default discovery prefix, `homeassistant`.
    static let homeAssistant = TopicPrefix(checked: "homeassistant")

    private init(checked text: String) {
        self.text = text
    }

    init(argument: String) throws(ArgumentValueError) {
        do {
            try HomeAssistantTopics.checkPrefix(argument, what: "the prefix")
        } catch {
            throw ArgumentValueError(reason: ": " + error.message, namesTheValue: true)
        }
        text = argument
    }

    var argumentDescription: String { text }
}
