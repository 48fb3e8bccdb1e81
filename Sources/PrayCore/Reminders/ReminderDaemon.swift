#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fires reminder events as their moments come: plans, sleeps until the next event in bounded
/// steps, and after every wake reads the clock again and plans afresh — so a suspend and resume, a
/// clock that jumps, a new zone or changed settings are all taken in. An event is fired once at
/// most (a clock set back does not repeat it) and never late by more than ``lateness``: one whose
/// moment passed longer ago (the machine slept through it) is logged as missed instead.
///
/// Deliveries never hold the schedule back: each runs in a task of its own while the daemon goes on
/// waiting for the next event, so a hook that plays a whole adhan, or hangs until its deadline, does
/// not delay the next reminder — nor the second of two events at the same instant (imsak and a
/// reminder in Ramadan). An event fired more than ``tolerance`` after its moment, and one missed, is
/// logged at `warning`; a failed delivery at `error`. ``run(until:limit:)`` returns once the
/// deliveries it started have ended; cancelling it cancels them.
///
/// With a ``ReminderStateStore``, every event handled is recorded before its delivery starts, and a
/// daemon that starts reads the record: an event fired (or missed) before a restart is not fired
/// again, even while it is still within ``lateness`` — the adhan is not called twice because the
/// daemon was restarted during it.
///
/// ```swift
/// let daemon = ReminderDaemon(clock: PrayClockSystem(), log: log, plan: { from, until in
///     try await manager.events(for: request, from: from, until: until, settings: settings, iqama: nil)
/// }, deliver: { event in try await notifications.deliver(event, context: context) })
/// try await daemon.run()
/// ```
public struct ReminderDaemon: Sendable {
    /// Plans the events in a range of instants.
    public typealias Planner = @Sendable (_ from: Date, _ until: Date) async throws -> [ReminderEvent]
    /// Delivers one event; several may run at once.
    public typealias Deliverer = @Sendable (ReminderEvent) async throws -> Void
    /// Told of each event as it fires, in order, at its moment on the daemon's clock, before its
    /// delivery starts (to print it, say); it must return at once.
    public typealias Announcer = @Sendable (ReminderEvent) -> Void

    private let clock: any PrayClock
    private let log: LogManager
    private let plan: Planner
    private let deliver: Deliverer
    private let announce: Announcer
    private let state: (any ReminderStateStore)?
    /// The most an event may be late and still fire, seconds.
    public let lateness: TimeInterval
    /// How late an event may fire before it is logged as late (at `warning`), seconds.
    public let tolerance: TimeInterval
    /// The longest single wait, seconds: the clock is read again at least this often.
    public let step: TimeInterval
    /// How far ahead each plan looks, seconds; also how far back the daemon looks for events it
    /// slept through.
    public let horizon: TimeInterval

    /// Creates a daemon.
    /// - Parameters:
    ///   - clock: Tells the time and waits (a real clock, or a fake one in tests).
    ///   - log: Where firing, late and missed events and failures are logged.
    ///   - lateness: The most an event may be late and still fire; 120 s by default.
    ///   - tolerance: How late an event may fire without a warning; 5 s by default.
    ///   - step: The longest wait before the clock is read again; 60 s by default.
    ///   - horizon: How far ahead each plan looks; two days by default.
    ///   - plan: Plans the events of a range.
    ///   - deliver: Delivers one event, in a task of its own.
    ///   - announce: Told of each event as it fires, in order; nothing by default.
    ///   - state: Where the events handled are recorded across restarts; none by default.
    public init(
        clock: any PrayClock, log: LogManager, lateness: TimeInterval = 120, tolerance: TimeInterval = 5,
        step: TimeInterval = 60, horizon: TimeInterval = 2 * 86_400, plan: @escaping Planner,
        deliver: @escaping Deliverer, announce: @escaping Announcer = { _ in }, state: (any ReminderStateStore)? = nil
    ) {
        self.state = state
        self.clock = clock
        self.log = log
        self.lateness = lateness
        self.tolerance = tolerance
        self.step = step
        self.horizon = horizon
        self.plan = plan
        self.deliver = deliver
        self.announce = announce
    }

    /// Runs until `until` (forever when `nil`), `limit` events have fired, or the task is cancelled,
    /// then waits for the deliveries still running.
    /// - Returns: The events fired, in order.
    /// - Throws: `CancellationError`, or what planning throws (a bad place or setting).
    @discardableResult
    public func run(until: Date? = nil, limit: Int? = nil) async throws -> [ReminderEvent] {
        // A planning error ends the schedule but not the deliveries under way: the group waits for them,
        // then the error is thrown. Cancellation reaches them through the group.
        let outcome = await withDiscardingTaskGroup(returning: Result<[ReminderEvent], any Error>.self) { group in
            do {
                return .success(try await schedule(until: until, limit: limit, group: &group))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

// MARK: - Helpers

extension ReminderDaemon {
    private func schedule(until: Date?, limit: Int?, group: inout DiscardingTaskGroup) async throws -> [ReminderEvent] {
        var fired: [ReminderEvent] = []
        // Every event handled (fired or missed) with its moment, kept for a horizon so that a clock set
        // back by hours does not fire an event again.
        var done = recorded(since: clock.now().addingTimeInterval(-horizon))
        // The instant of the last look: events between it and now were slept through if long past.
        var looked: Date?
        while true {
            try Task.checkCancellation()
            let now = clock.now()
            if let until, now >= until { return fired }
            let from = min(now.addingTimeInterval(-lateness), max(looked ?? now, now.addingTimeInterval(-horizon)))
            looked = now
            let events = try await plan(from, now.addingTimeInterval(horizon))
            for event in events where event.at <= now && done[event.id] == nil {
                done[event.id] = event.at
                remember(event)
                guard fire(event, now: now, group: &group) else { continue }
                fired.append(event)
                if let limit, fired.count >= limit { return fired }
            }
            // Forget events long past, so the record stays small on a machine that runs for months.
            done = done.filter { $0.value > now.addingTimeInterval(-horizon) }
            var wait = step
            if let next = events.first(where: { $0.at > now && done[$0.id] == nil }) {
                wait = min(wait, next.at.timeIntervalSince(now))
            }
            if let until { wait = min(wait, until.timeIntervalSince(now)) }
            try await clock.sleep(for: max(wait, 0.001))
        }
    }

    /// The events an earlier run handled, from the state store; none without one or when it cannot be
    /// read (logged: the daemon runs on, at the risk of one event fired twice).
    private func recorded(since: Date) -> [String: Date] {
        guard let state else { return [:] }
        do {
            return try state.handled(since: since)
        } catch {
            log.error("Reminder record not read", metadata: ["reminder.error": "\(error)"])
            return [:]
        }
    }

    /// Records a handled event in the state store, if any (a failure is logged: the event still fires).
    private func remember(_ event: ReminderEvent) {
        guard let state else { return }
        do {
            try state.record(event)
        } catch {
            log.error("Reminder not recorded", metadata: ["reminder.event": event.id, "reminder.error": "\(error)"])
        }
    }

    /// Starts the delivery of a due event, or logs it as missed.
    /// - Returns: Whether it fired.
    private func fire(_ event: ReminderEvent, now: Date, group: inout DiscardingTaskGroup) -> Bool {
        let late = now.timeIntervalSince(event.at)
        let metadata = ["reminder.event": event.id, "reminder.late": "\(Int(late.rounded()))"]
        guard late <= lateness else {
            log.warning("Reminder missed", metadata: metadata)
            return false
        }
        if late > tolerance { log.warning("Reminder late", metadata: metadata) }
        announce(event)
        log.info("Reminder fired", metadata: ["reminder.event": event.id])
        group.addTask {
            do {
                try await deliver(event)
            } catch is CancellationError {
                log.notice("Reminder delivery cancelled", metadata: ["reminder.event": event.id])
            } catch {
                log.error(
                    "Reminder not delivered", metadata: ["reminder.event": event.id, "reminder.error": "\(error)"])
            }
        }
        return true
    }
}
