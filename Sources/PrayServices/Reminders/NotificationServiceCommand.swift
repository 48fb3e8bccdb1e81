import Foundation
import PrayCore

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
/// ```swift
/// let hook = NotificationServiceCommand(command: "paplay ~/adhan.ogg", log: log)
/// ```
public struct NotificationServiceCommand: NotificationService {
    private let command: String
    private let shell: String
    private let deadline: TimeInterval
    private let log: LogManager

    /// Creates the service.
    /// - Parameters:
    ///   - command: The shell command (run with `/bin/sh -c`).
    ///   - shell: The shell; `/bin/sh` by default.
    ///   - deadline: After this many seconds the command is killed; 60 by default.
    ///   - log: The logger.
    public init(command: String, shell: String = "/bin/sh", deadline: TimeInterval = 60, log: LogManager) {
        self.command = command
        self.shell = shell
        self.deadline = deadline
        self.log = log
    }

    /// The environment a hook receives for `event`.
    public static func environment(for event: ReminderEvent, context: NotificationContext) -> [String: String] {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = context.timeZone
        return [
            "PRAYKIT_EVENT": event.kind.rawValue, "PRAYKIT_PRAYER": event.prayer.rawValue,
            "PRAYKIT_TIME": formatter.string(from: event.prayerTime), "PRAYKIT_AT": formatter.string(from: event.at),
            "PRAYKIT_IQAMA": event.iqama.map(formatter.string(from:)) ?? "",
            "PRAYKIT_MINUTES_BEFORE": event.minutesBefore.map(String.init) ?? "",
            "PRAYKIT_TITLE": event.title, "PRAYKIT_MESSAGE": context.message(for: event),
            "PRAYKIT_PLACE": context.place ?? "",
        ]
    }

    /// Runs the hook.
    /// - Throws: ``NotificationError`` when it cannot start, fails or times out.
    public func deliver(_ event: ReminderEvent, context: NotificationContext) async throws {
        let outcome = try await ChildProcess.run(
            shell, ["-c", command], environment: Self.environment(for: event, context: context), deadline: deadline)
        guard !outcome.timedOut else {
            throw NotificationError(
                .timedOut, message: "the notify hook ran longer than \(Int(deadline)) s and was stopped")
        }
        guard outcome.status == 0 else {
            throw NotificationError(
                .failed, message: "the notify hook exited with \(outcome.status): \(outcome.standardError.prefix(200))")
        }
        log.debug("Notify hook ran", metadata: ["reminder.event": event.id])
    }
}
