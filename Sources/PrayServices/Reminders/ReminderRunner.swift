import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reminder daemon, assembled from a container's services: a ``ReminderDaemon`` that plans with a
/// ``ReminderManager`` at the place ``calculation`` gives before every plan, plays each event's sound
/// (``sounds``) at its moment, delivers it through a ``NotificationService`` with the place and zone
/// of its plan, records what it handled in a ``ReminderStateStore`` — and runs the sync scheduler
/// (``SyncService/runScheduler()``) beside it for as long as it runs. `praykit notify` runs this; an
/// app or a service runs the same, over its own container (`dependency.reminderRunner()` in PrayKit).
///
/// ```swift
/// var reminders = dependency.reminderRunner()
/// reminders.settings = ReminderSettings(minutesBefore: [10])
/// reminders.sounds = ReminderSounds(adhan: "/home/amina/Music/adhan.wav")
/// let task = Task { try await reminders.run() }   // the current place, until cancelled
/// …
/// task.cancel()                                   // ends the run and the sound playing
/// ```
///
/// By default the place is the current one with the saved settings and iqama times
/// (``LocationManager/prayerRequest(for:at:days:given:)``), read again before every plan, so a new
/// place or setting is followed at once. A process that is the daemon itself (a command-line tool, a
/// system service) sets ``handlesSignals``.
public struct ReminderRunner: Sendable {
    /// Where and by which settings one plan's prayer times are calculated, and the place's name the
    /// notifications show.
    public struct Calculation: Sendable {
        /// The place, its zone and the parameters (its dates are replaced by the plan's range).
        public var request: PrayerAPI.Request
        /// The iqama and Jumu'ah times, when set.
        public var iqama: IqamaSettings?
        /// The place's name for the notifications, if known.
        public var placeName: String?

        /// Creates a calculation.
        public init(request: PrayerAPI.Request, iqama: IqamaSettings? = nil, placeName: String? = nil) {
            self.request = request
            self.iqama = iqama
            self.placeName = placeName
        }
    }

    /// Gives the calculation of the next plan; called before every plan.
    public typealias Calculate = @Sendable () async throws -> Calculation
    /// Told of each event as it fires, in order, at its moment on the daemon's clock, with the place
    /// and zone of its plan, after its sound has started and before its delivery starts (to print
    /// it, say); it must return at once.
    public typealias Announcer = @Sendable (ReminderEvent, NotificationContext) -> Void

    private let reminders: ReminderManager
    private let notifications: any NotificationService
    private let player: any SoundService
    private let state: any ReminderStateStore
    private let sync: any SyncService
    private let clock: any PrayClock
    private let log: LogManager

    /// Which events fire; by default the adhan of the five prayers, Ramadan and Jumu'ah.
    public var settings = ReminderSettings()
    /// Which sound each event plays; none by default.
    public var sounds = ReminderSounds()
    /// Gives the place and settings of each plan; by default the current place (the location
    /// service's) with the saved settings, at the clock's instant.
    public var calculation: Calculate
    /// Told of each event as it fires; nothing by default.
    public var announce: Announcer = { _, _ in }
    /// Whether this process is the daemon: SIGTERM and SIGINT then end the run (and the sound
    /// playing), SIGUSR1 stops the sound only, and the process is registered in the state store while
    /// it runs, so that another process can signal it (`praykit notify stop-sound`). Off by default:
    /// an app cancels the task that runs ``run(until:limit:)`` instead.
    public var handlesSignals = false
    /// Metadata of the "Reminder daemon started" log event, beside the player's (`reminder.player`):
    /// how events are delivered, say.
    public var startMetadata: [String: String] = [:]

    /// Creates a runner over a container's services.
    /// - Parameters:
    ///   - reminders: Plans the events.
    ///   - location: Finds the current place for the default ``calculation``.
    ///   - notifications: Delivers each event.
    ///   - player: Plays the events' sounds.
    ///   - state: Records the events handled across restarts, and the daemon's process.
    ///   - sync: Its scheduler runs beside the reminders.
    ///   - clock: Tells the time and waits.
    ///   - log: Where the daemon's life and its events are logged.
    public init(
        reminders: ReminderManager, location: LocationManager, notifications: any NotificationService,
        player: any SoundService, state: any ReminderStateStore, sync: any SyncService, clock: any PrayClock,
        log: LogManager
    ) {
        self.reminders = reminders
        self.notifications = notifications
        self.player = player
        self.state = state
        self.sync = sync
        self.clock = clock
        self.log = log
        calculation = {
            let prepared = try await location.prayerRequest(at: clock.now())
            return Calculation(request: prepared.request, iqama: prepared.iqama, placeName: prepared.location.name)
        }
    }

    /// Fires the events until `until` (forever when `nil`), until `limit` events have fired, or until
    /// the task is cancelled (or, with ``handlesSignals``, SIGTERM or SIGINT comes); then waits for
    /// the deliveries under way and, when it ended by itself, for the last sound to play out.
    /// - Returns: The events fired, in order.
    /// - Throws: `CancellationError` when the task was cancelled; what ``calculation`` and planning
    ///   throw (a bad place or setting).
    @discardableResult
    public func run(until: Date? = nil, limit: Int? = nil) async throws -> [ReminderEvent] {
        let fired = Mutex<[ReminderEvent]>([])
        let daemon = self.daemon { event in fired.withLock { $0.append(event) } }
        let playing = sounds.isEmpty ? "none" : (try? player.player().path) ?? "none"
        log.info("Reminder daemon started", metadata: startMetadata.merging(["reminder.player": playing]) { $1 })
        // Sync's scheduler runs beside the reminders for as long as they do: a cycle a few seconds
        // after a change, every 30 minutes, with backoff after a failure (nothing while sync is off).
        let scheduler = Task { [sync] in await sync.runScheduler() }
        let running = Task { try await daemon.run(until: until, limit: limit) }
        // SIGTERM and Ctrl-C end the daemon and its sound; SIGUSR1 (praykit notify stop-sound) stops
        // the sound only. The handlers are in place before the pid file names this process.
        let signals = handlesSignals ? DaemonSignals(stopping: running, player: player, log: log) : nil
        let pid = handlesSignals ? register() : nil
        let outcome = await withTaskCancellationHandler {
            await running.result
        } onCancel: { [player] in
            running.cancel()
            Task { await player.stop() }
        }
        // A daemon that ends by itself (its limit, its end) lets its last sound play out; a stopped one
        // (a signal, a cancelled task) has already stopped it.
        if !sounds.isEmpty { await player.waitUntilQuiet() }
        // The pid file goes first: a stop-sound that comes after the handlers are gone would end the process.
        if let pid { state.unregisterDaemon(pid: pid) }
        signals?.stop()
        scheduler.cancel()
        await scheduler.value
        do {
            return try outcome.get()
        } catch is CancellationError where signals?.terminated == true {
            log.info("Reminder daemon stopped by a signal")
            return fired.withLock { $0 }
        }
    }
}

// MARK: - Helpers

extension ReminderRunner {
    /// The daemon over the services: it plans at the place of ``calculation``, tells `fired` of each
    /// event as it fires, plays and announces it, and delivers it with the place and zone of the latest
    /// plan.
    private func daemon(fired: @escaping @Sendable (ReminderEvent) -> Void) -> ReminderDaemon {
        let (reminders, notifications, player, log) = (reminders, notifications, player, log)
        let (settings, sounds, calculation, announce) = (settings, sounds, calculation, announce)
        // The daemon plans after every wake, just before it delivers what is due: the place and zone
        // of the latest plan are those of the events it delivers.
        let latest = Mutex<NotificationContext?>(nil)
        return ReminderDaemon(
            clock: clock, log: log,
            plan: { from, until in
                // The place and settings are read again for every plan: a change is followed at once.
                let calculation = try await calculation()
                latest.withLock {
                    $0 = NotificationContext(place: calculation.placeName, timeZone: calculation.request.timeZone)
                }
                return try await reminders.events(
                    for: calculation.request, from: from, until: until, settings: settings, iqama: calculation.iqama)
            },
            deliver: { event in
                let notice = latest.withLock { $0 } ?? NotificationContext(timeZone: .current)
                try await notifications.deliver(event, context: notice)
            },
            announce: { event in
                fired(event)
                // The sound starts at the event's moment, in order, and plays on by itself (play returns
                // at once): neither the notification nor the next event waits for it.
                do {
                    try player.play(sounds, for: event)
                } catch {
                    log.error(
                        "Reminder sound not played", metadata: ["reminder.event": event.id, "sound.error": "\(error)"])
                }
                announce(event, latest.withLock { $0 } ?? NotificationContext(timeZone: .current))
            },
            state: state)
    }

    /// Registers this process as the daemon in the state store (a failure is logged: the reminders
    /// still fire, but `praykit notify stop-sound` cannot find them).
    /// - Returns: The process's id, to unregister.
    private func register() -> Int32 {
        let pid = getpid()
        do {
            try state.registerDaemon(pid: pid)
        } catch {
            log.error("Reminder daemon not registered", metadata: ["reminder.error": "\(error)"])
        }
        return pid
    }
}
