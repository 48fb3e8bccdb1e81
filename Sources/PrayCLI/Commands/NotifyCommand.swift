import Foundation
import PrayCore
import PrayKit
import Synchronization

/// `praykit notify`: the reminder daemon, in the foreground — or its plan (`--dry-run`), or a systemd
/// user unit that runs it (`--print-unit`).
enum NotifyCommand: Command {
    static let name = "notify"
    static let abstract = "Run the reminder daemon: notify before and at each prayer (or print its plan)."
    static let discussion = """
        The daemon plans the next events, waits for each on the wall clock in steps of at most a minute,
        and after every wake reads the clock and the saved settings again: a suspend and resume, a clock
        change, a new zone or place is followed at once. An event fires once at most, and not at all if
        it is more than two minutes late (the machine slept through it: it is logged as missed). Events
        go to desktop notifications (notify-send or gdbus), or with --hook to a shell command that
        receives PRAYKIT_EVENT, PRAYKIT_PRAYER, PRAYKIT_TIME, PRAYKIT_AT, PRAYKIT_IQAMA,
        PRAYKIT_MINUTES_BEFORE, PRAYKIT_TITLE, PRAYKIT_MESSAGE and PRAYKIT_PLACE, and of the daemon's
        environment only PATH, HOME, LANG, LC_*, XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS, DISPLAY,
        WAYLAND_DISPLAY and PULSE_SERVER. Each hook runs in a process group of its own, while later
        events fire on time; after 10 minutes it is stopped with everything it started.

        When this device syncs (praykit sync login), the daemon also keeps it in sync: a cycle a few
        seconds after a change made here, a minute at most after one made by another praykit, and
        every 30 minutes; after a failure it waits longer each time (or as long as the server asks).

        To run it with your session: praykit notify --print-unit > ~/.config/systemd/user/praykit-notify.service
        then systemctl --user enable --now praykit-notify
        """
    static let examples = [
        "praykit notify --before 10 --hook 'paplay ~/Music/adhan.ogg'",
        "praykit notify --dry-run --from 2026-11-29T00:00:00+03:00 --until 2026-11-30T00:00:00+03:00 --format json",
        "praykit notify --print-unit > ~/.config/systemd/user/praykit-notify.service",
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
    static let printUnit = Flag("print-unit", help: "Print a systemd user unit that runs 'praykit notify'.")
    static let options: [any OptionDefinition] =
        PlaceOptions.place + PlaceOptions.calculation + [
            before, noAdhan, iqama, noRamadan, noJumuah, prayers, hook, dryRun, from, until, limit, format, printUnit,
        ]

    /// `--hook` goes to the container, whose notification service runs it (over the saved hook).
    static func configure(
        _ configuration: inout PrayDependency.Configuration, _ arguments: ParsedArguments, environment: [String: String]
    ) throws {
        if let command = arguments[hook] {
            guard !command.isEmpty else { throw CLIError.usage("--hook needs a command") }
            configuration.notificationHook = command
        }
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        if arguments[printUnit] { return try context.output.write(unit()) }
        let saved = try context.preferences()
        let minutes = arguments.all(before)
        let chosen = try arguments[prayers].resolved(
            every: [], allowed: Prayer.obligatory + [.sunrise], option: prayers.name, merging: true)
        let settings = ReminderSettings(
            minutesBefore: minutes.isEmpty ? saved.reminderMinutes : minutes, atAdhan: !arguments[noAdhan],
            atIqama: arguments[iqama], ramadan: !arguments[noRamadan], jumuah: !arguments[noJumuah], prayers: chosen)
        // Check the place and settings now, so a mistake is a usage error before the daemon starts.
        let calculation = try await PlaceOptions.calculation(arguments, context: context)
        let zone = calculation.request.timeZone
        let start = try arguments[from]?.date(in: zone) ?? context.now
        try await noteMissing(calculation, prayers: chosen, from: start, context: context)
        let end = try arguments[until]?.date(in: zone)
        guard arguments[dryRun] else {
            if arguments.isGiven(from) { throw CLIError.usage("--from goes with --dry-run") }
            return try await runDaemon(arguments, settings: settings, until: end, context: context)
        }
        let stop = end ?? start.addingTimeInterval(86_400)
        guard stop > start, stop.timeIntervalSince(start) <= 400 * 86_400 else {
            throw CLIError.usage("--until must be after --from and at most 400 days later")
        }
        let events = try await context.dependency.reminderManager().events(
            for: calculation.request, from: start, until: stop, settings: settings, iqama: calculation.iqama)
        try write(events, calculation, format: arguments[format], to: context.output)
    }

    /// Says on standard error which of the chosen prayers have no time in the two days from `start`
    /// (a polar day or night), so that a silent daemon is not taken for a broken one.
    private static func noteMissing(
        _ calculation: PlaceOptions.Calculation, prayers: [Prayer], from start: Date, context: CommandContext
    ) async throws {
        var request = calculation.request
        request.date = try CivilDate(containing: start, in: request.timeZone)
        request.days = 2
        let schedules = try await context.dependency.prayerService().prayerTimes(for: request).schedules
        guard let note = MissingTimes.note(schedules, prayers: prayers, parameters: request.parameters) else { return }
        try context.diagnostics.write("Note: \(note) They have no events.\n")
        try context.diagnostics.flush()
    }

    private static func runDaemon(
        _ arguments: ParsedArguments, settings: ReminderSettings, until: Date?, context: CommandContext
    ) async throws {
        let notifications = context.dependency.notificationService()
        let log = context.dependency.log()
        // The daemon plans after every wake, just before it delivers what is due: the place and zone
        // of the latest plan are those of the events it delivers.
        let latest = Mutex<NotificationContext?>(nil)
        let daemon = ReminderDaemon(
            clock: context.clock, log: log,
            plan: { from, until in
                // The place and settings are read again for every plan: a change is followed at once.
                let calculation = try await PlaceOptions.calculation(arguments, context: context)
                latest.withLock {
                    $0 = NotificationContext(place: calculation.place.name, timeZone: calculation.request.timeZone)
                }
                return try await context.dependency.reminderManager().events(
                    for: calculation.request, from: from, until: until, settings: settings, iqama: calculation.iqama)
            },
            deliver: { event in
                let notice = latest.withLock { $0 } ?? NotificationContext(timeZone: .current)
                try await notifications.deliver(event, context: notice)
            },
            announce: { event in
                // Each event is a line as it fires, in order; its delivery runs on while later ones fire.
                let clock = LocalClock(timeZone: latest.withLock { $0?.timeZone } ?? .current)
                do {
                    try context.output.write(
                        "\(clock.iso8601(event.at)) \(event.kind.rawValue) \(event.prayer.rawValue)\n")
                    try context.output.flush()
                } catch {
                    log.error(
                        "Reminder not printed", metadata: ["reminder.event": event.id, "reminder.error": "\(error)"])
                }
            })
        let channel = arguments[hook] ?? (try? context.preferences()[.notifyHook]) ?? nil
        log.info("Reminder daemon started", metadata: ["reminder.hook": channel == nil ? "desktop" : "command"])
        // Sync's scheduler runs beside the reminders for as long as they do: a cycle a few seconds
        // after a change, every 30 minutes, with backoff after a failure (nothing while sync is off).
        let sync = context.dependency.syncService()
        let scheduler = Task { await sync.runScheduler() }
        do {
            try await daemon.run(until: until, limit: arguments[limit])
        } catch {
            scheduler.cancel()
            await scheduler.value
            throw error
        }
        scheduler.cancel()
        await scheduler.value
    }

    private static func write(
        _ events: [ReminderEvent], _ calculation: PlaceOptions.Calculation, format: OutputFormat, to output: OutputSink
    ) throws(CLIError) {
        let clock = LocalClock(timeZone: calculation.request.timeZone)
        if format == .json {
            let items = events.map { event in
                JSON.object([
                    ("at", .string(clock.iso8601(event.at))), ("prayer", .string(event.prayer.rawValue)),
                    ("kind", .string(event.kind.rawValue)),
                    ("minutesBefore", event.minutesBefore.map { .int($0) } ?? .null),
                    ("time", .string(clock.iso8601(event.prayerTime))),
                    ("iqama", .string(event.iqama.map(clock.iso8601))),
                ])
            }
            return try JSON.writeObject([], streaming: "events", items: items, to: output)
        }
        guard !events.isEmpty else { return try output.write("No events.\n") }
        let rows =
            [["At", "Event", "Prayer", "Prayer time"]]
            + events.map {
                [clock.iso8601($0.at), $0.title, $0.prayer.rawValue, clock.time($0.prayerTime, withSeconds: false)]
            }
        try output.write(Table.render(rows))
    }

    /// A systemd user unit that runs this program's `notify`.
    static func unit() -> String {
        let program = URL(fileURLWithPath: CommandLine.arguments.first ?? "praykit").standardizedFileURL
            .resolvingSymlinksInPath().path
        return """
            [Unit]
            Description=praykit prayer reminders
            Documentation=man:praykit(1)
            After=graphical-session.target

            [Service]
            Type=simple
            ExecStart=\(program) notify
            Restart=on-failure
            RestartSec=30
            # 64: the command line or the saved settings are wrong (no place saved, say); restarting
            # cannot mend that, so systemd stops and says so instead of retrying every 30 s.
            RestartPreventExitStatus=64

            [Install]
            WantedBy=default.target

            """
    }
}
