import PrayCore
import PrayKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `praykit notify` without a verb (`praykit notify run`): the reminder daemon, in the foreground —
/// or its plan (`--dry-run`), or a systemd user unit that runs it (`--print-unit`).
enum NotifyRunCommand: Command {
    static let name = "run"
    static let abstract = "Run the reminder daemon (the default of 'praykit notify')."
    static let discussion = "The default of 'praykit notify': see 'praykit notify --help'."
    static let examples = [
        "praykit notify --before 10 --sound ~/Music/adhan.wav",
        "praykit notify --dry-run --sound ~/Music/adhan.wav --format json",
    ]
    static let before = Option<Int>(
        "before", value: "min", help: "Also remind this many minutes before each prayer.",
        defaultText: "the saved reminder-minutes", range: 1...720, unit: "minutes", repeatable: true)
    static let noAdhan = Flag("no-adhan", help: "Do not notify at the prayer times themselves.")
    static let iqama = Flag("iqama", help: "Also notify at each iqama (saved with 'config set iqama').")
    static let noRamadan = Flag("no-ramadan", help: "No imsak and iftar events in Ramadan.")
    static let noJumuah = Flag("no-jumuah", help: "No Friday prayer event.")
    static let prayers = Option(
        "prayers", value: "list", help: "The prayers to notify of.", default: PrayerList(Prayer.obligatory))
    static let hook = Option<String?>(
        "hook", value: "command", help: "Run this shell command for each event instead of a desktop notification.",
        defaultText: "the saved notify-hook")
    static let dryRun = Flag("dry-run", help: "Print the plan between --from and --until; notify nothing.")
    static let from = Option<Instant?>(
        "from", value: "ISO 8601", help: "Start of the plan (--dry-run).", defaultText: "now")
    static let until = Option<Instant?>(
        "until", value: "ISO 8601", help: "End of the plan, or when the daemon stops.",
        defaultText: "a day after --from; never")
    static let limit = Option<Int?>("limit", value: "n", help: "Stop after this many events.", atLeast: 1)
    static let format = Option<OutputFormat>.format([.table, .json], help: "Output of --dry-run.")
    static let printUnit = Flag(
        "print-unit", help: "Print a systemd user unit that runs 'praykit notify' (with the sound options given).")
    static let sound = Option<String?>(
        "sound", value: "file", help: "Play this sound at each prayer's time: the adhan (WAV; see below).",
        completion: .file)
    static let fajrSound = Option<String?>(
        "fajr-sound", value: "file", help: "Play this sound at fajr instead of --sound.", completion: .file)
    static let reminderSound = Option<String?>(
        "reminder-sound", value: "file", help: "Play this short sound at reminders, the iqama and imsak.",
        completion: .file)
    static let volume = Option<Int>(
        "volume", value: "percent", help: "The sounds' volume (not with aplay, which has none).", default: 100,
        range: 0...100, unit: "percent")
    static let player = Option<SoundPlayer.Kind?>(
        "player", value: "program", help: "The program that plays the sounds.",
        defaultText: "the first of pw-play, paplay, aplay on PATH")
    static let options: [any OptionDefinition] =
        PlaceOptions.place + PlaceOptions.calculation + [
            before, noAdhan, iqama, noRamadan, noJumuah, prayers, hook, sound, fajrSound, reminderSound, volume,
            player, dryRun, from, until, limit, format, printUnit,
        ]

    /// `--hook` goes to the container, whose notification service runs it (over the saved hook).
    static func configure(
        _ configuration: inout PrayDependency.Configuration, _ arguments: ParsedArguments, environment: [String: String]
    ) throws {
        if let command = arguments[hook] {
            guard !command.isEmpty else { throw CLIError.usage("--hook needs a command") }
            configuration.notificationHook = command
        }
        if let kind = arguments[player] { configuration.soundPlayer = kind }
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        if arguments[printUnit] { return try context.output.write(unit(soundArguments(arguments))) }
        let saved = try context.preferences()
        // `--before 10 --before 10` is one reminder, as the daemon fires it.
        var minutes: [Int] = []
        for value in arguments.all(before) where !minutes.contains(value) { minutes.append(value) }
        let chosen = try arguments[prayers].resolved(
            every: [], allowed: Prayer.obligatory + [.sunrise], option: prayers.name, merging: true)
        let settings = ReminderSettings(
            minutesBefore: minutes.isEmpty ? saved.reminderMinutes : minutes, atAdhan: !arguments[noAdhan],
            atIqama: arguments[iqama], ramadan: !arguments[noRamadan], jumuah: !arguments[noJumuah], prayers: chosen)
        // Check the place and settings now, so a mistake is a usage error before the daemon starts.
        let calculation = try await PlaceOptions.calculation(arguments, context: context)
        let zone = calculation.request.zone
        let start = try arguments[from]?.date(in: zone) ?? context.now
        try await noteMissing(calculation, prayers: chosen, from: start, context: context)
        let end = try arguments[until]?.date(in: zone)
        let sounds = try checkedSounds(arguments, context: context)
        guard arguments[dryRun] else {
            if arguments.isGiven(from) { throw CLIError.usage("--from goes with --dry-run") }
            if let end, end <= context.now {
                throw CLIError.usage(
                    "--until \(LocalClock(zone: zone).iso8601(end)) is already past: nothing would be notified")
            }
            return try await runDaemon(arguments, settings: settings, sounds: sounds, until: end, context: context)
        }
        let stop = end ?? start.addingTimeInterval(86_400)
        guard stop > start, stop.timeIntervalSince(start) <= 400 * 86_400 else {
            throw CLIError.usage("--until must be after --from and at most 400 days later")
        }
        let events = try await context.dependency.reminderManager().events(
            for: calculation.request, from: start, until: stop, settings: settings, iqama: calculation.iqama)
        let playing = Plan(
            events: events, sounds: sounds, player: try? context.dependency.soundService().player(),
            zone: calculation.request.zone)
        try write(playing, format: arguments[format], to: context.output)
    }

    /// Says on standard error which of the chosen prayers have no time in the two days from `start`
    /// (a polar day or night), so that a silent daemon is not taken for a broken one.
    private static func noteMissing(
        _ calculation: PlaceOptions.Calculation, prayers: [Prayer], from start: Date, context: CommandContext
    ) async throws {
        var request = calculation.request
        request.date = try CivilDate(containing: start, in: request.zone)
        request.days = 2
        let schedules = try await context.dependency.prayerService().prayerTimes(for: request).schedules
        guard let note = MissingTimes.note(schedules, prayers: prayers, parameters: request.parameters) else { return }
        try context.diagnostics.write("Note: \(note) They have no events.\n")
        try context.diagnostics.flush()
    }

    /// Runs the container's reminder daemon with the options given, handling this process's signals
    /// (SIGTERM and Ctrl-C end it, SIGUSR1 from `praykit notify stop-sound` stops the sound) and
    /// printing each event as it fires.
    private static func runDaemon(
        _ arguments: ParsedArguments, settings: ReminderSettings, sounds: ReminderSounds, until: Date?,
        context: CommandContext
    ) async throws {
        var daemon = context.dependency.reminderRunner()
        daemon.settings = settings
        daemon.sounds = sounds
        daemon.handlesSignals = true
        // The place and settings are read again for every plan: a change is followed at once.
        daemon.calculation = {
            let calculation = try await PlaceOptions.calculation(arguments, context: context)
            return .init(request: calculation.request, iqama: calculation.iqama, placeName: calculation.place.name)
        }
        // Each event is a line as it fires, in order; its delivery runs on while later ones fire.
        let log = context.dependency.log()
        daemon.announce = { event, notice in
            do {
                let clock = LocalClock(timeZone: notice.timeZone)
                try context.output.write("\(clock.iso8601(event.at)) \(event.kind.rawValue) \(event.prayer.rawValue)\n")
                try context.output.flush()
            } catch {
                log.error("Reminder not printed", metadata: ["reminder.event": event.id, "reminder.error": "\(error)"])
            }
        }
        let channel = arguments[hook] ?? (try? context.preferences()[.notifyHook]) ?? nil
        daemon.startMetadata = ["reminder.hook": channel == nil ? "desktop" : "command"]
        try await daemon.run(until: until, limit: arguments[limit])
    }

    /// The sounds chosen, each file checked now (it exists, can be read, and the player takes it), so
    /// that a mistake is a usage error at start, not silence at fajr.
    /// - Throws: ``CLIError`` (usage) saying what is wrong.
    private static func checkedSounds(_ arguments: ParsedArguments, context: CommandContext) throws -> ReminderSounds {
        let sounds = ReminderSounds(
            adhan: absolute(arguments[sound]), fajrAdhan: absolute(arguments[fajrSound]),
            reminder: absolute(arguments[reminderSound]), volume: arguments[volume])
        guard !sounds.isEmpty else {
            if arguments.isGiven(volume) || arguments.isGiven(player) {
                throw CLIError.usage("--volume and --player go with --sound, --fajr-sound or --reminder-sound")
            }
            return sounds
        }
        let service = context.dependency.soundService()
        do {
            let player = try service.player()
            for file in sounds.files { _ = try service.check(file) }
            if !player.kind.hasVolume, sounds.volume != 100 {
                try context.diagnostics.write(
                    "Note: aplay has no volume of its own: --volume is not applied (set the volume with alsamixer, "
                        + "or use pw-play or paplay).\n")
                try context.diagnostics.flush()
            }
        } catch let error as SoundError {
            throw CLIError.usage(error.message)
        }
        return sounds
    }

    /// `path` made absolute against the working folder (the daemon may run from another).
    private static func absolute(_ path: String?) -> String? {
        guard let path, !path.isEmpty else { return nil }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The sound options given, as a command line (for the systemd unit).
    private static func soundArguments(_ arguments: ParsedArguments) -> [String] {
        var words: [String] = []
        for option in [sound, fajrSound, reminderSound] {
            if let file = absolute(arguments[option]) { words += ["--\(option.name)", file] }
        }
        if arguments.isGiven(volume) { words += ["--volume", "\(arguments[volume])"] }
        if let kind = arguments[player] { words += ["--player", kind.rawValue] }
        return words
    }

    /// A dry run's plan: the events, and what each would play with which player.
    private struct Plan {
        let events: [ReminderEvent]
        let sounds: ReminderSounds
        let player: SoundPlayer?
        let zone: TimeZoneName
    }

    private static func write(_ plan: Plan, format: OutputFormat, to output: OutputSink) throws(CLIError) {
        let clock = LocalClock(zone: plan.zone)
        if format == .json {
            let player = plan.player.map {
                JSON.object([("name", .string($0.kind.rawValue)), ("path", .string($0.path))])
            }
            let items = plan.events.map { event in
                JSON.object([
                    ("at", .string(clock.iso8601(event.at))), ("prayer", .string(event.prayer.rawValue)),
                    ("kind", .string(event.kind.rawValue)),
                    ("minutesBefore", event.minutesBefore.map { .int($0) } ?? .null),
                    ("time", .string(clock.iso8601(event.prayerTime))),
                    ("iqama", .string(event.iqama.map(clock.iso8601))),
                    ("sound", .string(plan.sounds.sound(for: event))),
                ])
            }
            return try JSON.writeObject(
                [
                    ("player", player ?? .null), ("volume", .int(plan.sounds.volume)),
                    ("volumeApplied", .bool(plan.player?.kind.hasVolume ?? false)),
                ], streaming: "events", items: items, to: output)
        }
        let playerLine =
            plan.player.map { "Player: \($0.kind.rawValue) (\($0.path))" }
            ?? "Player: none found (install pipewire-bin, pulseaudio-utils or alsa-utils for sounds)"
        guard !plan.events.isEmpty else { return try output.write("No events.\n\(playerLine)\n") }
        let withSound = !plan.sounds.isEmpty
        let rows =
            [["At", "Event", "Prayer", "Prayer time"] + (withSound ? ["Sound"] : [])]
            + plan.events.map {
                [clock.iso8601($0.at), $0.title, $0.prayer.rawValue, clock.time($0.prayerTime, withSeconds: false)]
                    + (withSound
                        ? [
                            plan.sounds.sound(for: $0).map { $0.split(separator: "/").last.map(String.init) ?? $0 }
                                ?? "-"
                        ] : [])
            }
        var volume = withSound ? ", volume \(plan.sounds.volume) %" : ""
        if withSound, let player = plan.player, !player.kind.hasVolume {
            // aplay plays at the ALSA mixer's volume: a --volume given is not applied, and 100 % is not a fact.
            volume =
                plan.sounds.volume == 100
                ? ", at the mixer's volume (alsamixer)"
                : ", --volume \(plan.sounds.volume) is ignored by \(player.kind.rawValue), which has no volume of its "
                    + "own (set it with alsamixer, or use pw-play or paplay)"
        }
        try output.write(Table.render(rows) + playerLine + volume + "\n")
    }

    /// A systemd user unit that runs this program's `notify`, with `extra` arguments (the sound
    /// options), each quoted for systemd.
    static func unit(_ extra: [String] = []) -> String {
        let program = URL(fileURLWithPath: CommandLine.arguments.first ?? "praykit").standardizedFileURL
            .resolvingSymlinksInPath().path
        let command = ([program, "notify"] + extra).map(systemdQuoted).joined(separator: " ")
        return """
            [Unit]
            Description=praykit prayer reminders
            Documentation=man:praykit(1)
            After=graphical-session.target

            [Service]
            Type=simple
            ExecStart=\(command)
            Restart=on-failure
            RestartSec=30
            # 64: the command line or the saved settings are wrong (no place saved, say); restarting
            # cannot mend that, so systemd stops and says so instead of retrying every 30 s.
            RestartPreventExitStatus=64

            [Install]
            WantedBy=default.target

            """
    }

    /// A word of a systemd command line: as it is when it holds nothing systemd reads specially, else
    /// in double quotes with `\`, `"`, `$` and `%` escaped (systemd.service(5), "Command lines";
    /// systemd.unit(5), "Specifiers").
    static func systemdQuoted(_ word: String) -> String {
        let special = " \t\"'\\$%;".unicodeScalars
        guard word.unicodeScalars.contains(where: special.contains) || word.isEmpty else { return word }
        let escaped = word.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            .replacing("$", with: "$$").replacing("%", with: "%%")
        return "\"" + escaped + "\""
    }
}

extension SoundPlayer.Kind: ArgumentValue {}
