import PrayCore
import PrayServices

// MARK: - Reminder daemon

extension PrayKitDependency {
    /// The reminder daemon over this container's services: its ``reminderManager()``,
    /// ``locationManager()``, ``notificationService()``, ``soundService()``, ``reminderState()``,
    /// ``syncService()``, ``clock()`` and ``log()`` — so a container with a service replaced
    /// (``PrayKitOverrides``, `PrayDependencyMock`) runs reminders through the replacement. Set its
    /// settings and sounds, then call `run()`.
    ///
    /// ```swift
    /// var reminders = PrayDependency().overriding { $0.notifications = BannerNotifications() }.reminderRunner()
    /// reminders.settings = ReminderSettings(minutesBefore: [10])
    /// try await reminders.run()   // at the current place, until the task is cancelled
    /// ```
    ///
    /// It is built here, in the container, rather than declared in `PrayKitDependency`: PrayCore does
    /// not know PrayServices' types. Every container has it, wired once.
    public func reminderRunner() -> ReminderRunner {
        ReminderRunner(
            reminders: reminderManager(), location: locationManager(), notifications: notificationService(),
            player: soundService(), state: reminderState(), sync: syncService(), clock: clock(), log: log())
    }
}
