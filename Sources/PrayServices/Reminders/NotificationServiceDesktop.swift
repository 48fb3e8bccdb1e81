import Foundation
import PrayCore

/// A ``NotificationService`` that shows a freedesktop notification (D-Bus
/// `org.freedesktop.Notifications`) through `notify-send`, or `gdbus` when `notify-send` is missing.
///
/// ```swift
/// let desktop = NotificationServiceDesktop(log: log)
/// guard desktop.isAvailable else { … }
/// ```
public struct NotificationServiceDesktop: NotificationService {
    private let log: LogManager
    private let notifySend: String?
    private let gdbus: String?

    /// Creates the service, finding `notify-send` and `gdbus` on `path` (`$PATH` by default).
    public init(log: LogManager, path: String? = ProcessInfo.processInfo.environment["PATH"]) {
        self.log = log
        notifySend = ChildProcess.find("notify-send", path: path)
        gdbus = ChildProcess.find("gdbus", path: path)
    }

    /// Whether a program to show notifications was found.
    public var isAvailable: Bool { notifySend != nil || gdbus != nil }

    /// Shows the notification.
    /// - Throws: ``NotificationError`` when neither program exists or the call fails (no session bus).
    public func deliver(_ event: ReminderEvent, context: NotificationContext) async throws {
        let title = "🕌 " + event.title
        let body = context.message(for: event)
        let outcome: ChildProcess.Outcome
        if let notifySend {
            outcome = try await ChildProcess.run(
                notifySend, ["--app-name=praykit", "--urgency=normal", title, body], deadline: 10)
        } else if let gdbus {
            outcome = try await ChildProcess.run(
                gdbus,
                [
                    "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                    "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify", "praykit",
                    "0", "", title, body, "[]", "{}", "-1",
                ], deadline: 10)
        } else {
            throw NotificationError(
                .cannotStart,
                message:
                    "desktop notifications need notify-send (libnotify-bin) or gdbus (libglib2.0-bin), or a hook instead"
            )
        }
        guard outcome.status == 0 else {
            throw NotificationError(
                .failed, message: "the desktop notification failed: \(outcome.standardError.prefix(200))")
        }
    }
}
