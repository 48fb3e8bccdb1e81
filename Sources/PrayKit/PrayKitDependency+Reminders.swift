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

// MARK: - Home Assistant

extension PrayKitDependency {
    /// The MQTT publisher of Home Assistant's entities (`praykit mqtt`) over this container's services:
    /// its ``prayerService()``, ``hijriService()``, ``locationManager()``, ``mqttService()``,
    /// ``preferences()`` and ``mosqueTimetables()`` (watched for changes), ``homeAssistantState()``,
    /// ``syncService()``, ``clock()`` and ``log()``.
    ///
    /// ```swift
    /// let topics = try HomeAssistantTopics(deviceID: "praykit-den")
    /// let broker = try MQTTAPI.Broker(parsing: "mqtt://homeassistant.local")
    /// let publisher = PrayDependency().homeAssistantPublisher(
    ///     connection: MQTTAPI.Connection(broker: broker, clientID: "praykit-den"), topics: topics)
    /// try await publisher.run()   // at the current place, until the task is cancelled
    /// ```
    /// - Parameters:
    ///   - connection: How to reach the broker.
    ///   - topics: Where the entities' topics are.
    public func homeAssistantPublisher(
        connection: MQTTAPI.Connection, topics: HomeAssistantTopics
    ) -> HomeAssistantPublisher {
        HomeAssistantPublisher(
            prayers: prayerService(), hijri: hijriService(), location: locationManager(), mqtt: mqttService(),
            preferences: preferences(), mosques: mosqueTimetables(), state: homeAssistantState(),
            sync: syncService(), clock: clock(), log: log(), connection: connection, topics: topics)
    }
}
