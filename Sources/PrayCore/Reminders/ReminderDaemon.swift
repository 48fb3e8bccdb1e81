import Foundation

/// Fires reminder events as their moments come: plans, sleeps until the next event in bounded
/// steps, and after every wake reads the clock again and plans afresh — so a suspend and resume, a
/// clock that jumps, a new zone or changed settings are all taken in. An event is fired once at
/// most (a clock set back does not repeat it) and never late by more than ``lateness``: one whose
/// moment passed longer ago (the machine slept through it) is logged as missed instead.
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
    /// Delivers one event.
    public typealias Deliverer = @Sendable (ReminderEvent) async throws -> Void

    private let clock: any PrayClock
    private let log: LogManager
    private let plan: Planner
    private let deliver: Deliverer
    /// The most an event may be late and still fire, seconds.
    public let lateness: TimeInterval
    /// The longest single wait, seconds: the clock is read again at least this often.
    public let step: TimeInterval
    /// How far ahead each plan looks, seconds.
    public let horizon: TimeInterval

    /// Creates a daemon.
    /// - Parameters:
    ///   - clock: Tells the time and waits (a real clock, or a fake one in tests).
    ///   - log: Where firing, missed events and failures are logged.
    ///   - lateness: The most an event may be late and still fire; 120 s by default.
    ///   - step: The longest wait before the clock is read again; 60 s by default.
    ///   - horizon: How far ahead each plan looks; two days by default.
    ///   - plan: Plans the events of a range.
    ///   - deliver: Delivers one event.
    public init(
        clock: any PrayClock, log: LogManager, lateness: TimeInterval = 120, step: TimeInterval = 60,
        horizon: TimeInterval = 2 * 86_400, plan: @escaping Planner, deliver: @escaping Deliverer
    ) {
        self.clock = clock
        self.log = log
        self.lateness = lateness
        self.step = step
        self.horizon = horizon
        self.plan = plan
        self.deliver = deliver
    }

    /// Runs until `until` (forever when `nil`), `limit` events have fired, or the task is cancelled.
    /// - Returns: The events fired, in order.
    /// - Throws: `CancellationError`, or what planning throws (a bad place or setting).
    @discardableResult
    public func run(until: Date? = nil, limit: Int? = nil) async throws -> [ReminderEvent] {
        var fired: [ReminderEvent] = []
        // Every event handled (fired or missed) with its moment, kept for a horizon so that a clock set
        // back by hours does not fire an event again.
        var done: [String: Date] = [:]
        while true {
            try Task.checkCancellation()
            let now = clock.now()
            if let until, now >= until { return fired }
            let events = try await plan(now.addingTimeInterval(-lateness), now.addingTimeInterval(horizon))
            for event in events where event.at <= now && done[event.id] == nil {
                done[event.id] = event.at
                guard now.timeIntervalSince(event.at) <= lateness else {
                    log.notice(
                        "Reminder missed",
                        metadata: [
                            "reminder.event": event.id, "reminder.late": "\(Int(now.timeIntervalSince(event.at)))",
                        ])
                    continue
                }
                do {
                    try await deliver(event)
                    log.info("Reminder fired", metadata: ["reminder.event": event.id])
                } catch {
                    log.error(
                        "Reminder not delivered", metadata: ["reminder.event": event.id, "reminder.error": "\(error)"])
                }
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
}
