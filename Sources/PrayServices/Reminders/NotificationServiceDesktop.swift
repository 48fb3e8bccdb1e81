import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

    /// Shows the notification. Control characters in the texts are replaced with U+FFFD.
    /// - Throws: ``NotificationError`` when neither program exists or the call fails (no session bus).
    public func deliver(_ event: ReminderEvent, context: NotificationContext) async throws {
        let title = ("🕌 " + event.title).replacingControlCharacters
        let body = context.message(for: event).replacingControlCharacters
        let outcome: ChildProcess.Outcome
        if let notifySend {
            outcome = try await ChildProcess.run(
                notifySend, ["--app-name=praykit", "--urgency=normal", title, body], deadline: 10)
        } else if let gdbus {
            outcome = try await ChildProcess.run(gdbus, Self.gdbusArguments(title: title, body: body), deadline: 10)
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

// MARK: - Helpers

extension NotificationServiceDesktop {
    /// `gdbus call` of `Notify(app_name s, replaces_id u, app_icon s, summary s, body s, actions as,
    /// hints a{sv}, expire_timeout i)`. The method's arguments come after `--`, or gdbus would read the
    /// timeout `-1` as an option; each is written in GVariant text with its type, so that it means the
    /// same whether or not gdbus could ask the server for the signature first (a string is quoted, so
    /// no title is taken for a number or a list).
    static func gdbusArguments(title: String, body: String) -> [String] {
        [
            "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
            "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify", "--",
            gvariantString("praykit"), "uint32 0", gvariantString(""), gvariantString(title), gvariantString(body),
            "@as []", "@a{sv} {}", "int32 -1",
        ]
    }

    /// `text` as a GVariant string literal: in double quotes, with `\\` and `\"` escaped.
    static func gvariantString(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
