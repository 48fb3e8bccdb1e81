#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Delivers a reminder to a person: a desktop notification, a user's hook, an app's own channel.
///
/// ```swift
/// try await dependency.notificationService().deliver(event, context: NotificationContext(place: "Makkah"))
/// ```
public protocol NotificationService: Sendable {
    /// Delivers `event`.
    /// - Throws: ``NotificationError`` when it could not be delivered.
    func deliver(_ event: ReminderEvent, context: NotificationContext) async throws
}

/// What a notification says besides the event: where, and in which zone its times are written.
public struct NotificationContext: Hashable, Sendable {
    /// The place's name, if known.
    public var place: String?
    /// The zone the times are shown in.
    public var timeZone: TimeZone

    /// Creates a context.
    public init(place: String? = nil, timeZone: TimeZone) {
        self.place = place
        self.timeZone = timeZone
    }

    /// `HH:MM` of `date` in ``timeZone``.
    public func clock(_ date: Date) -> String {
        let local = Int(date.timeIntervalSince1970.rounded()) + timeZone.offset(at: date)
        let minutes = ((local % 86_400) + 86_400) % 86_400 / 60
        return "\((minutes / 60).zeroPadded(2)):\((minutes % 60).zeroPadded(2))"
    }

    /// One line about the event: `Asr at 15:16 (iqama 15:30) — Makkah`.
    public func message(for event: ReminderEvent) -> String {
        var text = "\(event.prayer.name) at \(clock(event.prayerTime))"
        if let iqama = event.iqama { text += " (iqama \(clock(iqama)))" }
        if event.kind == .imsak { text = "Imsak at \(clock(event.at)); fajr at \(clock(event.prayerTime))" }
        if let place { text += " — \(place)" }
        return text
    }
}

/// A notification that could not be delivered.
public typealias NotificationError = PrayKitError<NotificationErrorKind>

/// What kind of failure a ``NotificationError`` is.
public enum NotificationErrorKind: String, Hashable, Sendable {
    /// The program that delivers it (the hook, `notify-send`, `gdbus`) could not be started.
    case cannotStart
    /// It ran longer than its deadline and was stopped.
    case timedOut
    /// It ran and reported a failure.
    case failed
}
