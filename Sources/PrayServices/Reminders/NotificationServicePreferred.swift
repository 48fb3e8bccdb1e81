import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``NotificationService`` that delivers each event the way the person chose: through the hook a
/// configuration gives (`praykit notify --hook`), else through the hook saved in the preferences
/// (`notify-hook`, read again at each delivery, so a change is followed at once), else as a desktop
/// notification.
///
/// ```swift
/// let notifications = NotificationServicePreferred(hook: nil, preferences: store, log: log)
/// try await notifications.deliver(event, context: NotificationContext(place: "Makkah", timeZone: zone))
/// ```
public struct NotificationServicePreferred: NotificationService {
    private let hook: String?
    private let preferences: any PreferencesStore
    private let desktop: any NotificationService
    private let log: LogManager

    /// Creates the service.
    /// - Parameters:
    ///   - hook: A shell command that wins over the saved one, if any.
    ///   - preferences: Where the saved hook is read.
    ///   - desktop: The desktop notifications; ``NotificationServiceDesktop`` by default.
    ///   - log: The logger.
    public init(
        hook: String?, preferences: any PreferencesStore, desktop: (any NotificationService)? = nil, log: LogManager
    ) {
        self.hook = hook
        self.preferences = preferences
        self.desktop = desktop ?? NotificationServiceDesktop(log: log)
        self.log = log
    }

    /// Delivers `event` through the chosen channel.
    /// - Throws: ``NotificationError`` when it could not be delivered; what the preferences store
    ///   throws.
    public func deliver(_ event: ReminderEvent, context: NotificationContext) async throws {
        let saved = hook == nil ? try await preferences.async.preferences()[.notifyHook] : nil
        if let command = hook ?? saved {
            try await NotificationServiceCommand(command: command, log: log).deliver(event, context: context)
        } else {
            try await desktop.deliver(event, context: context)
        }
    }

    /// The hook in effect: the given one, else the saved one, else `nil` (desktop notifications).
    /// - Throws: What the preferences store throws.
    public func hookCommand() throws -> String? {
        try hook ?? preferences.preferences()[.notifyHook]
    }
}
