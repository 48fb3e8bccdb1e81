import Foundation
import PrayCore
import PrayServices
import Synchronization

/// `praykit notify`: the reminder daemon, in the foreground — or its plan (`--dry-run`), or a systemd
/// user unit that runs it (`--print-unit`).
struct NotifyCommand: Command {
    static let name = "notify"
    static let abstract = "Run the reminder daemon: notify before and at each prayer (or print its plan)."
    static let discussion = """
        The daemon plans the next events, waits for each on the wall clock in steps of at most a minute,
        and after every wake reads the clock and the saved settings again: a suspend and resume, a clock
        change, a new zone or place is followed at once. An event fires once at most, and not at all if
        it is more than two minutes late (the machine slept through it: it is logged as missed). Events
        go to desktop notifications (notify-send or gdbus), or with --hook to a shell command that
        receives PRAYKIT_EVENT, PRAYKIT_PRAYER, PRAYKIT_TIME, PRAYKIT_AT, PRAYKIT_IQAMA,
        PRAYKIT_MINUTES_BEFORE, PRAYKIT_TITLE, PRAYKIT_MESSAGE and PRAYKIT_PLACE.

        To run it with your session: praykit notify --print-unit > ~/.config/systemd/user/praykit-notify.service
        then systemctl --user enable --now praykit-notify
        """
    static let examples = [
        "praykit notify --before 10 --hook 'paplay /usr/share/sounds/adhan.ogg'",
        "praykit notify --dry-run --from 2026-11-29T00:00:00+03:00 --until 2026-11-30T00:00:00+03:00 --format json",
        "praykit notify --print-unit > ~/.config/systemd/user/praykit-notify.service",
    ]
    static let before = Option<Int>(
        "before", value: "min", help: "Also remind this many minutes before each prayer (1…720).",
        default: "the saved reminder-minutes", repeatable: true)
    static let noAdhan = Flag("no-adhan", help: "Do not notify at the prayer times themselves.")
    static let iqama = Flag("iqama", help: "Also notify at each iqama (saved with 'config set iqama').")
    static let noRamadan = Flag("no-ramadan", help: "No imsak and iftar events in Ramadan.")
    static let noJumuah = Flag("no-jumuah", help: "No Friday prayer event.")
    static let prayers = Option<String>(
        "prayers", value: "list", help: "The prayers to notify of.", default: "fajr,dhuhr,asr,maghrib,isha")
    static let hook = Option<String>(
        "hook", value: "command", help: "Run this shell command for each event instead of a desktop notification.",
        default: "the saved notify-hook")
    static let dryRun = Flag("dry-run", help: "Print the plan between --from and --until; notify nothing.")
    static let from = Option<String>("from", value: "ISO 8601", help: "Start of the plan (--dry-run).", default: "now")
    static let until = Option<String>(
        "until", value: "ISO 8601", help: "End of the plan, or when the daemon stops.",
        default: "a day after --from; never")
    static let limit = Option<Int>("limit", value: "n", help: "Stop after this many events.")
    static let format = Option<OutputFormat>.format([.table, .json], help: "Output of --dry-run.")
    static let printUnit = Flag("print-unit", help: "Print a systemd user unit that runs 'praykit notify'.")
    static let options: [any OptionDefinition] =
        PlaceOptions.place + PlaceOptions.calculation.map(\.option) + [
            before, noAdhan, iqama, noRamadan, noJumuah, prayers, hook, dryRun, from, until, limit, format, printUnit,
        ]

    private enum Mode {
        case unit
        case plan(from: Date, until: Date)
        case daemon(until: Date?, limit: Int?)
    }

    private let mode: Mode
    private let arguments: ParsedArguments
    private let settings: ReminderSettings
    private let hookCommand: String?
    private let format: OutputFormat

    init(_ arguments: ParsedArguments, context: CommandContext) async throws(CLIError) {
        self.arguments = arguments
        format = try arguments.value(Self.format) ?? .table
        if arguments.has(Self.printUnit) {
            mode = .unit
            settings = ReminderSettings()
            hookCommand = nil
            return
        }
        let saved = try context.preferences()
        var minutes = try arguments.allValues(Self.before)
        if minutes.isEmpty { minutes = saved.reminderMinutes }
        guard minutes.allSatisfy({ (1...720).contains($0) }) else {
            throw context.usage(
                "--before must be 1 to 720 minutes, got \(minutes.map(String.init).joined(separator: ", "))")
        }
        var chosen: [Prayer] = []
        for name in (try arguments.value(Self.prayers) ?? "fajr,dhuhr,asr,maghrib,isha").lowercased().split(
            separator: ",")
        {
            guard let prayer = Prayer(rawValue: String(name)), prayer.isObligatory || prayer == .sunrise else {
                throw context.usage("--prayers: '\(name)' is not fajr, sunrise, dhuhr, asr, maghrib or isha")
            }
            chosen.append(prayer)
        }
        settings = ReminderSettings(
            minutesBefore: minutes, atAdhan: !arguments.has(Self.noAdhan), atIqama: arguments.has(Self.iqama),
            ramadan: !arguments.has(Self.noRamadan), jumuah: !arguments.has(Self.noJumuah), prayers: chosen)
        hookCommand = try arguments.value(Self.hook) ?? saved[.notifyHook]
        if hookCommand?.isEmpty == true { throw context.usage("--hook needs a command") }
        // Check the place and settings now, so a mistake is a usage error before the daemon starts.
        _ = try await PlaceOptions.calculation(arguments, context: context)
        let start = try arguments.value(Self.from).map { text throws(CLIError) in
            try NextCommand.instant(text, context: context)
        }
        let end = try arguments.value(Self.until).map { text throws(CLIError) in
            try NextCommand.instant(text, context: context)
        }
        let limit = try arguments.value(Self.limit)
        if let limit, limit < 1 { throw context.usage("--limit must be at least 1, got \(limit)") }
        if arguments.has(Self.dryRun) {
            let from = start ?? context.now
            let until = end ?? from.addingTimeInterval(86_400)
            guard until > from, until.timeIntervalSince(from) <= 400 * 86_400 else {
                throw context.usage("--until must be after --from and at most 400 days later")
            }
            mode = .plan(from: from, until: until)
        } else {
            if start != nil { throw context.usage("--from goes with --dry-run") }
            mode = .daemon(until: end, limit: limit)
        }
    }

    func run(_ context: CommandContext) async throws(CLIError) {
        switch mode {
        case .unit:
            try context.output.write(Self.unit())
        case .plan(let from, let until):
            let calculation = try await PlaceOptions.calculation(arguments, context: context)
            try write(
                try await plan(calculation, from: from, until: until, context: context), calculation, to: context.output
            )
        case .daemon(let until, let limit):
            try await runDaemon(until: until, limit: limit, context: context)
        }
    }

    private func plan(
        _ calculation: PlaceOptions.Calculation, from: Date, until: Date, context: CommandContext
    ) async throws(CLIError) -> [ReminderEvent] {
        do {
            return try await context.dependency.reminderManager().events(
                for: calculation.request, from: from, until: until, settings: settings, iqama: calculation.iqama)
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
    }

    private func runDaemon(until: Date?, limit: Int?, context: CommandContext) async throws(CLIError) {
        let notifications: any NotificationService =
            hookCommand.map { NotificationServiceCommand(command: $0, log: context.dependency.log()) }
            ?? context.dependency.notificationService()
        let log = context.dependency.log()
        let command = self
        // The daemon plans after every wake, just before it delivers what is due: the place and zone
        // of the latest plan are those of the events it delivers.
        let latest = Mutex<NotificationContext?>(nil)
        let daemon = ReminderDaemon(
            clock: context.clock, log: log,
            plan: { from, until in
                // The place and settings are read again for every plan: a change is followed at once.
                let calculation = try await PlaceOptions.calculation(command.arguments, context: context)
                latest.withLock {
                    $0 = NotificationContext(place: calculation.place.name, timeZone: calculation.request.timeZone)
                }
                return try await command.plan(calculation, from: from, until: until, context: context)
            },
            deliver: { event in
                let notice = latest.withLock { $0 } ?? NotificationContext(timeZone: .current)
                try await notifications.deliver(event, context: notice)
                let clock = LocalClock(timeZone: notice.timeZone)
                try context.output.write("\(clock.iso8601(event.at)) \(event.kind.rawValue) \(event.prayer.rawValue)\n")
                try context.output.flush()
            })
        log.info("Reminder daemon started", metadata: ["reminder.hook": hookCommand == nil ? "desktop" : "command"])
        do {
            try await daemon.run(until: until, limit: limit)
        } catch {
            throw CLIError(error, command: context.commandPath)
        }
    }

    private func write(
        _ events: [ReminderEvent], _ calculation: PlaceOptions.Calculation, to output: OutputSink
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

            [Install]
            WantedBy=default.target

            """
    }
}
