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

/// `praykit mqtt`'s daemon, assembled from a container's services: it publishes the day's prayer times,
/// iqama, Jumu'ah, the next prayer, the current period, the disliked times, Ramadan's suhoor and iftar
/// and the Hijri date to an MQTT broker as Home Assistant entities (``HomeAssistantDiscovery``,
/// ``HomeAssistantState``), and fires an event at each adhan and iqama, once, at its second.
///
/// Like the reminder daemon (``ReminderRunner``), it reads the place, the settings and the chosen
/// mosque's timetable again at every wake — at least once a minute, and at once when the preferences
/// or the chosen mosque change in this process (a `config set`, or the sync scheduler it runs beside
/// itself bringing a mosque's new iqama) — and republishes what changed. The broker may come and go:
/// it reconnects with backoff (1 s doubling to a minute) and publishes everything again; a broker that refuses
/// the credentials ends the run with the error.
///
/// ```swift
/// let topics = try HomeAssistantTopics(deviceID: "praykit-den")
/// let connection = MQTTAPI.Connection(broker: try MQTTAPI.Broker(parsing: "mqtt://homeassistant.local"),
///                                     clientID: "praykit-den")
/// let publisher = dependency.homeAssistantPublisher(connection: connection, topics: topics)
/// try await publisher.run()   // until cancelled
/// ```
public struct HomeAssistantPublisher: Sendable {
    /// Told of each event as it is published, in order (to print it, say); it must return at once.
    public typealias Announcer = @Sendable (ReminderEvent, HomeAssistantTimeline) -> Void

    private let prayers: any PrayerService
    private let hijri: any HijriService
    private let mqtt: any MQTTService
    private let preferences: any PreferencesStore
    private let mosques: any MosqueTimetableStore
    private let state: any ReminderStateStore
    private let sync: any SyncService
    private let clock: any PrayClock
    private let log: LogManager

    /// How to reach the broker.
    public var connection: MQTTAPI.Connection
    /// Where the entities' topics are.
    public var topics: HomeAssistantTopics
    /// Gives the place and settings of each reading; by default the current place with the saved
    /// settings.
    public var calculation: ReminderRunner.Calculate
    /// Told of each event as it is published; nothing by default.
    public var announce: Announcer = { _, _ in }
    /// PrayKit's version, in the device's discovery block.
    public var version = PrayKitInfo.version
    /// Whether this process is the publisher: SIGTERM and SIGINT then end the run (publishing
    /// `offline` first), and the process is registered in the state store while it runs.
    public var handlesSignals = false
    /// The most an event may be late (a machine that slept through it) and still be published, seconds.
    public var lateness: TimeInterval = 120
    /// The longest wait before the stores are read again, seconds.
    public var step: TimeInterval = 60
    /// How far back the events published are remembered, seconds.
    private let horizon: TimeInterval = 2 * 86_400

    /// Creates a publisher over a container's services.
    /// - Parameters:
    ///   - prayers: The times (with the chosen mosque's timetable over them, in the live container).
    ///   - hijri: The Hijri dates and Ramadan's days.
    ///   - location: Finds the current place for the default ``calculation``.
    ///   - mqtt: The MQTT client.
    ///   - preferences: Watched: a change is published at once.
    ///   - mosques: Watched: the chosen mosque's change is published at once.
    ///   - state: Records the events published across restarts, and the publisher's process.
    ///   - sync: Its scheduler runs beside the publisher.
    ///   - clock: Tells the time and waits.
    ///   - log: Where the publisher's life is logged.
    ///   - connection: How to reach the broker.
    ///   - topics: Where the entities' topics are.
    public init(
        prayers: any PrayerService, hijri: any HijriService, location: LocationManager, mqtt: any MQTTService,
        preferences: any PreferencesStore, mosques: any MosqueTimetableStore, state: any ReminderStateStore,
        sync: any SyncService, clock: any PrayClock, log: LogManager, connection: MQTTAPI.Connection,
        topics: HomeAssistantTopics
    ) {
        self.prayers = prayers
        self.hijri = hijri
        self.mqtt = mqtt
        self.preferences = preferences
        self.mosques = mosques
        self.state = state
        self.sync = sync
        self.clock = clock
        self.log = log
        self.connection = connection
        self.topics = topics
        calculation = {
            let prepared = try await location.prayerRequest(at: clock.now())
            return ReminderRunner.Calculation(
                request: prepared.request, iqama: prepared.iqama, placeName: prepared.location.name)
        }
    }

    /// The retained messages the publisher would publish at `instant` — every entity's discovery, the
    /// state, the countdown and `online` — without connecting: what `praykit mqtt --dry-run` prints.
    /// - Throws: What ``calculation`` and the prayer service throw.
    public func messages(at instant: Date) async throws -> [MQTTAPI.Message] {
        retainedMessages(of: try await timeline(at: instant), at: instant)
    }

    /// Publishes until `until` (forever when `nil`) or until the task is cancelled (or, with
    /// ``handlesSignals``, SIGTERM or SIGINT comes); then publishes `offline` and disconnects.
    /// - Returns: The events published, in order.
    /// - Throws: ``MQTTError`` when the broker refused the credentials or the client, or TLS failed;
    ///   what ``calculation`` throws at the first reading (a bad place or setting); `CancellationError`
    ///   when the task was cancelled.
    @discardableResult
    public func run(until: Date? = nil) async throws -> [ReminderEvent] {
        let link = HomeAssistantLink(mqtt: mqtt, options: connection, topics: topics, clock: clock, log: log)
        let wake = WakeSignal()
        let fired = Published()
        log.info(
            "MQTT publisher started", metadata: ["mqtt.broker": "\(connection.broker)", "mqtt.topic": topics.base])
        // Sync's scheduler runs beside it, as beside the reminders: a mosque's change arrives here, and
        // the stores' sequences below wake the publisher for it.
        let scheduler = Task { [sync] in await sync.runScheduler() }
        let watcher = Task { [preferences, mosques] in await wake.follow(preferences: preferences, mosques: mosques) }
        let work = Task {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await link.run()
                    return false
                }
                group.addTask {
                    try await publish(to: link, wake: wake, until: until, fired: fired)
                    return true
                }
                defer { group.cancelAll() }
                // The publishing ends by itself at `until`; the link only by an error.
                while let ended = try await group.next(), !ended {}
            }
        }
        let signals = handlesSignals ? DaemonSignals(stopping: { work.cancel() }, log: log) : nil
        let pid = handlesSignals ? register() : nil
        let outcome = await withTaskCancellationHandler {
            await work.result
        } onCancel: {
            work.cancel()
        }
        await link.close()
        if let pid { state.unregisterDaemon(pid: pid) }
        signals?.stop()
        for task in [scheduler, watcher] { task.cancel() }
        await scheduler.value
        do {
            try outcome.get()
        } catch is CancellationError where signals?.terminated == true {
            log.info("MQTT publisher stopped by a signal")
        }
        return fired.events
    }
}

// MARK: - Helpers

extension HomeAssistantPublisher {
    /// The loop: read the times, publish what changed and the events that are due, wait for the next
    /// change (at most ``step``, or until a store changes).
    private func publish(
        to link: HomeAssistantLink, wake: WakeSignal, until: Date?, fired: Published
    ) async throws {
        // Every event published (or missed) with its moment, across restarts and clock changes.
        var done = recorded(since: clock.now().addingTimeInterval(-horizon))
        var looked: Date?
        var reading: HomeAssistantTimeline?
        var discovery: HomeAssistantDiscovery?
        while true {
            try Task.checkCancellation()
            let now = clock.now()
            if let until, now >= until { return }
            do {
                reading = try await timeline(at: now)
            } catch let error where reading != nil && !(error is CancellationError) {
                // The stores cannot be read now (a database another process holds): the last reading serves.
                log.warning("MQTT publisher kept its last reading", metadata: ["mqtt.error": "\(error)"])
            }
            guard let timeline = reading else { return }
            retain(timeline, at: now, on: link, discovery: &discovery)
            let from = min(now.addingTimeInterval(-lateness), max(looked ?? now, now.addingTimeInterval(-horizon)))
            looked = now
            for event in timeline.events(from: from, until: now.addingTimeInterval(1))
            where event.at <= now && done[event.id] == nil {
                done[event.id] = event.at
                remember(event)
                let late = now.timeIntervalSince(event.at)
                guard late <= lateness else {
                    log.warning("MQTT event missed", metadata: ["mqtt.event": event.id, "mqtt.late": "\(Int(late))"])
                    continue
                }
                link.send(message(for: event, in: timeline), at: event.at)
                fired.append(event)
                log.info("MQTT event published", metadata: ["mqtt.event": event.id])
                announce(event, timeline)
            }
            done = done.filter { $0.value > now.addingTimeInterval(-horizon) }
            var next = min(
                timeline.nextChange(after: now) ?? now.addingTimeInterval(step), now.addingTimeInterval(step))
            if let event = timeline.events(from: now, until: next.addingTimeInterval(1)).first(where: {
                $0.at > now && done[$0.id] == nil
            }) {
                next = min(next, event.at)
            }
            if let until { next = min(next, until) }
            try await wake.wait(for: max(next.timeIntervalSince(now), 0.001), on: clock)
        }
    }

    /// The timeline of the days around `now`: the day before to a week after (the next Friday).
    private func timeline(at now: Date) async throws -> HomeAssistantTimeline {
        let calculation = try await self.calculation()
        var request = calculation.request
        request.date = try CivilDate(containing: now, in: request.timeZone).clampedAdding(days: -1)
        request.days = 10
        if request.extraTimes == nil { request.extraTimes = ExtraTimeSettings() }
        let schedules = try await prayers.prayerTimes(for: request).schedules
        var hijriDates: [CivilDate: HijriDate] = [:]
        var ramadanDays: [CivilDate: Int] = [:]
        do {
            let days = try hijri.following(request.hijriMonthStarts).days(
                for: HijriAPI.Request(
                    date: request.date, days: request.days, calendar: request.hijriCalendar,
                    offset: request.hijriOffset))
            for day in days {
                hijriDates[day.gregorian] = day.hijri
                if day.hijri.month == .ramadan { ramadanDays[day.gregorian] = day.hijri.day }
            }
        } catch {
            // Only the Hijri date and Ramadan's times are lost; the prayers are published.
            log.warning("MQTT publisher has no Hijri dates", metadata: ["mqtt.error": "\(error)"])
        }
        return HomeAssistantTimeline(
            schedules: schedules, iqama: calculation.iqama, ramadanDays: ramadanDays, hijriDates: hijriDates,
            place: calculation.placeName, timeZone: request.timeZone)
    }

    /// Sets the retained messages of `timeline` at `now` (``retainedMessages(of:at:)``), in their order;
    /// the discovery only when the device's name changed since `discovery` was made.
    private func retain(
        _ timeline: HomeAssistantTimeline, at now: Date, on link: HomeAssistantLink,
        discovery: inout HomeAssistantDiscovery?
    ) {
        let name = HomeAssistantDiscovery.deviceName(for: deviceName(of: timeline))
        if discovery?.deviceName != name {
            let made = HomeAssistantDiscovery(topics: topics, deviceName: name, version: version)
            for message in made.messages { link.retain(message) }
            discovery = made
        }
        for message in discovery.map({ stateMessages(of: timeline, at: now, discovery: $0) }) ?? [] {
            link.retain(message)
        }
    }

    /// The name of the device: the mosque's, else the place's, else its coordinates.
    private func deviceName(of timeline: HomeAssistantTimeline) -> String {
        timeline.mosque ?? timeline.place
            ?? timeline.schedules.first.map { schedule in
                "\(schedule.coordinates.latitude.formattedCompactly), "
                    + "\(schedule.coordinates.longitude.formattedCompactly)"
            } ?? "PrayKit"
    }

    /// The state's messages, the countdown and `online`.
    private func stateMessages(
        of timeline: HomeAssistantTimeline, at now: Date, discovery: HomeAssistantDiscovery
    ) -> [MQTTAPI.Message] {
        let countdown = timeline.countdown(at: now)
        return discovery.messages(for: timeline.state(at: now)) + [
            MQTTAPI.Message(topic: topics.next, payload: countdown?.payload ?? Data("{}".utf8), retain: true),
            MQTTAPI.Message(topic: topics.availability, text: "online", retain: true),
        ]
    }

    /// The retained messages of `timeline` at `now`: the discovery (its device named after the mosque
    /// or the place), the state, the countdown, and `online` — in the order in which a new connection
    /// publishes them, so that the entities exist and hold their values before they become available.
    func retainedMessages(of timeline: HomeAssistantTimeline, at now: Date) -> [MQTTAPI.Message] {
        let discovery = HomeAssistantDiscovery(
            topics: topics, deviceName: HomeAssistantDiscovery.deviceName(for: deviceName(of: timeline)),
            version: version)
        return discovery.messages + stateMessages(of: timeline, at: now, discovery: discovery)
    }

    /// An event's message: `{"event_type": "asr", "time": …, "iqama": …}` on the adhan's or the iqama's topic.
    private func message(for event: ReminderEvent, in timeline: HomeAssistantTimeline) -> MQTTAPI.Message {
        let payload = timeline.payload(of: event)
        let topic = event.kind == .adhan ? topics.adhanEvents : topics.iqamaEvents
        return MQTTAPI.Message(topic: topic, payload: payload, retain: false)
    }

    /// The events published before, from the state store; none when it cannot be read (logged).
    private func recorded(since: Date) -> [String: Date] {
        do {
            return try state.handled(since: since)
        } catch {
            log.error("MQTT event record not read", metadata: ["mqtt.error": "\(error)"])
            return [:]
        }
    }

    /// Records an event handled (a failure is logged: the event is still published).
    private func remember(_ event: ReminderEvent) {
        do {
            try state.record(event)
        } catch {
            log.error("MQTT event not recorded", metadata: ["mqtt.event": event.id, "mqtt.error": "\(error)"])
        }
    }

    /// Registers this process as the publisher in the state store (a failure is logged).
    private func register() -> Int32 {
        let pid = getpid()
        do {
            try state.registerDaemon(pid: pid)
        } catch {
            log.error("MQTT publisher not registered", metadata: ["mqtt.error": "\(error)"])
        }
        return pid
    }
}

/// The events a run published, in order.
final class Published: Sendable {
    private let list = Mutex<[ReminderEvent]>([])

    func append(_ event: ReminderEvent) {
        list.withLock { $0.append(event) }
    }

    var events: [ReminderEvent] { list.withLock { $0 } }
}
