import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// A ``NotificationService`` that runs the user's hook — a shell command — for each event, with the
/// event in environment variables:
///
/// | variable | value |
/// |---|---|
/// | `PRAYKIT_EVENT` | `reminder`, `adhan`, `iqama`, `imsak`, `iftar` or `jumuah` |
/// | `PRAYKIT_PRAYER` | `fajr`, `dhuhr`, `asr`, `maghrib`, `isha` |
/// | `PRAYKIT_TIME` | the prayer's time, ISO 8601 in the place's zone |
/// | `PRAYKIT_AT` | the event's moment, ISO 8601 |
/// | `PRAYKIT_IQAMA` | the iqama, ISO 8601, or empty |
/// | `PRAYKIT_MINUTES_BEFORE` | for a reminder, the minutes before the prayer, else empty |
/// | `PRAYKIT_TITLE`, `PRAYKIT_MESSAGE` | the words a notification would show |
/// | `PRAYKIT_PLACE` | the place's name, or empty |
///
/// Of the daemon's own environment the hook receives only ``inheritedVariables`` — what a player or a
/// notifier needs to reach the session — so an API key or a token in it stays there. Control
/// characters in the title, message and place (a place name is text from a file or a user) are
/// replaced with U+FFFD, so a hook that prints them cannot be made to rewrite a terminal.
///
/// The hook runs in a process group of its own. It may run for ``defaultDeadline`` seconds (long
/// enough for a whole adhan); then it is ended with everything it started — SIGTERM to the group,
/// SIGKILL two seconds later — and something it left running in the background is ended then too.
/// To start something that should outlive the hook, start it in a session of its own (`setsid`).
///
/// ```swift
/// let hook = NotificationServiceCommand(command: "paplay ~/Music/adhan.ogg", log: log)
/// ```
public struct NotificationServiceCommand: NotificationService {
    private let command: String
    private let shell: String
    private let deadline: TimeInterval
    private let environment: [String: String]
    private let log: LogManager

    /// How long a hook may run, seconds: ten minutes, more than the longest adhan recording.
    public static let defaultDeadline: TimeInterval = 600

    /// The variables of the daemon's environment a hook receives (`LC_*`: every variable so named);
    /// every other is left out: `PATH`, `HOME`, `LANG`, `LC_*`, `XDG_RUNTIME_DIR`,
    /// `DBUS_SESSION_BUS_ADDRESS`, `DISPLAY`, `WAYLAND_DISPLAY`, `PULSE_SERVER`.
    public static var inheritedVariables: [String] { ChildProcess.inheritedVariables }

    /// Creates the service.
    /// - Parameters:
    ///   - command: The shell command (run with `/bin/sh -c`).
    ///   - shell: The shell; `/bin/sh` by default.
    ///   - deadline: After this many seconds the command is ended with what it started;
    ///     ``defaultDeadline`` by default.
    ///   - environment: The environment the ``inheritedVariables`` are taken from; this process's by
    ///     default.
    ///   - log: The logger.
    public init(
        command: String, shell: String = "/bin/sh", deadline: TimeInterval = Self.defaultDeadline,
        environment: [String: String] = ProcessInfo.processInfo.environment, log: LogManager
    ) {
        self.command = command
        self.shell = shell
        self.deadline = deadline
        self.environment = environment
        self.log = log
    }

    /// The event's variables a hook receives for `event` (besides the inherited ones).
    public static func environment(for event: ReminderEvent, context: NotificationContext) -> [String: String] {
        let formatter = InternetTime(zone: context.timeZone)
        return [
            "PRAYKIT_EVENT": event.kind.rawValue, "PRAYKIT_PRAYER": event.prayer.rawValue,
            "PRAYKIT_TIME": formatter.string(from: event.prayerTime), "PRAYKIT_AT": formatter.string(from: event.at),
            "PRAYKIT_IQAMA": event.iqama.map(formatter.string(from:)) ?? "",
            "PRAYKIT_MINUTES_BEFORE": event.minutesBefore.map(String.init) ?? "",
            "PRAYKIT_TITLE": event.title.replacingControlCharacters,
            "PRAYKIT_MESSAGE": context.message(for: event).replacingControlCharacters,
            "PRAYKIT_PLACE": (context.place ?? "").replacingControlCharacters,
        ]
    }

    /// Runs the hook and waits for it and what it started (up to the deadline).
    /// - Throws: ``NotificationError`` when it cannot start, fails or runs past its deadline.
    public func deliver(_ event: ReminderEvent, context: NotificationContext) async throws {
        let outcome = try await ChildProcess.run(
            shell, ["-c", command], environment: Self.environment(for: event, context: context),
            inheriting: environment, deadline: deadline)
        let ending = outcome.endedWith == SIGKILL ? "SIGKILL, as SIGTERM was not enough" : "SIGTERM"
        guard !outcome.timedOut else {
            throw NotificationError(
                .timedOut,
                message: "the notify hook was still running after \(Int(deadline)) s and was stopped with "
                    + "everything it started (\(ending))")
        }
        guard outcome.status == 0 else {
            throw NotificationError(
                .failed, message: "the notify hook exited with \(outcome.status): \(outcome.standardError.prefix(200))")
        }
        if outcome.leftoversEnded {
            log.warning(
                "Notify hook left processes running; stopped at the deadline",
                metadata: [
                    "reminder.event": event.id, "reminder.deadline": "\(Int(deadline))", "reminder.signal": ending,
                ])
        }
        log.debug("Notify hook ran", metadata: ["reminder.event": event.id])
    }
}

// MARK: - Helpers

/// An instant as `ISO8601DateFormatter` wrote it for a hook's variables (`2026-11-29T14:00:00+03:00`),
/// without full Foundation: the instant to the millisecond, then its second on the zone's clock; the
/// offset then in effect from PrayKit's zone data (`TimeZone.offset(at:)`), `Z` for a zero offset, the
/// offset's seconds only for historical local mean times (`-00:44:30`). Checked against the formatter
/// on 240,000 random instants of 1970–2100 in twelve zones: the same text for each.
private struct InternetTime {
    let zone: TimeZone

    init(zone: TimeZone) {
        self.zone = zone
    }

    func string(from date: Date) -> String {
        // ICU took the instant to the nearest millisecond, then wrote its second.
        let instant = Int(((date.timeIntervalSince1970 * 1000).rounded() / 1000).rounded(.down))
        let offset = zone.offset(at: Date(timeIntervalSince1970: Double(instant)))
        let local = instant + offset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let seconds = local - days * 86_400
        var text = "\(CivilDate(daysSince1970: days))T\((seconds / 3600).zeroPadded(2)):"
        text += "\((seconds / 60 % 60).zeroPadded(2)):\((seconds % 60).zeroPadded(2))"
        guard offset != 0 else { return text + "Z" }
        let magnitude = abs(offset)
        text += "\(offset < 0 ? "-" : "+")\((magnitude / 3600).zeroPadded(2)):\((magnitude / 60 % 60).zeroPadded(2))"
        if magnitude % 60 != 0 { text += ":\((magnitude % 60).zeroPadded(2))" }
        return text
    }
}
