import Dispatch
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

/// `praykit next --watch`: one line at each change of what the line says — the countdown's minute (its
/// second in the last minute), the next prayer, the period, the day at the zone's midnight, and the
/// times themselves when the stores under them change — waiting on the container's clock, never
/// polling. After every wake it reads the place, the settings and the chosen mosque's timetable
/// again, as the reminder daemon plans afresh after every wake (``ReminderDaemon``): an iqama or a
/// mosque's timetable that another process brought (`praykit notify`'s scheduler, `praykit sync`)
/// shows within a minute. While this device syncs, the watch also holds sync's live updates itself, so
/// a change made on another device shows in about a second (``follow(_:)``). SIGTERM and SIGINT end it
/// cleanly (exit 0), and so does a reader that closes standard output (`EPIPE`: a status bar that
/// restarts).
struct NextWatch {
    let arguments: ParsedArguments
    let context: CommandContext
    let format: OutputFormat
    let ramadan: Bool
    /// `--updates`: the lines to write before ending.
    let limit: Int?
    /// How far the watch's "now" is from the clock's: zero, or the distance to a pinned `--now`, which
    /// then moves on with the clock.
    let offset: TimeInterval

    /// The longest wait between two readings of the stores.
    static let step: TimeInterval = 60

    /// What the line shows at one instant.
    struct Frame {
        /// The line as written.
        let line: String
        /// What a reader sees of it, the day included: a line is written when this changes. For JSON,
        /// whose counts of seconds change every second, the plain line's words and the rest of the
        /// object (``NextRenderer/lastingJSON(_:note:extra:)``).
        let shown: String
        /// The next instant at which the line may change.
        let wake: Date
    }

    /// Writes the lines from `first`, with `view` read for it, until `--updates` lines, a signal or a
    /// closed output.
    /// - Throws: What reading the place, the settings or the times throws; ``CLIError`` when the
    ///   output fails other than by its reader closing it.
    func run(from first: Date, view: NextCommand.View) async throws {
        // A closed reader is then EPIPE from write(2), ended quietly below, not death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let terminal = context.output.isTerminal && (format == .plain || format == .tmux)
        let signals = await WatchSignals.install(terminal: terminal ? context.output : nil)
        let state = signals.state
        let wake = WakeSignal()
        let following = follow(wake)
        defer { following?.cancel() }
        let task = Task {
            try await lines(
                from: first, view: view, terminal: terminal, state: state, wake: following.map { _ in wake })
        }
        state.stopping(task)
        defer { signals.stop() }
        do {
            try await task.value
        } catch is CancellationError {
            // SIGTERM or SIGINT: a clean end.
        } catch let error as CLIError where error.kind == .closedOutput {
            // The reader went away (a status bar restarting): nothing to say, and exit 0.
            context.output.discardAfterClosedReader()
            return
        }
        if terminal { try? context.output.write("\n") }
    }

    private func now() -> Date { context.clock.now().addingTimeInterval(offset) }

    /// While this device syncs, the watch holds sync's live updates itself (``SyncService/live()``): a
    /// change another device makes — a mosque's new iqama — is pulled here in about a second, and the
    /// stores' sequences end the current wait at once (`wake`), so the bar shows it then rather than at
    /// the next minute. `nil` when sync is not set up (the stores are still read at every wake).
    private func follow(_ wake: WakeSignal) -> Task<Void, Never>? {
        let sync = context.dependency.syncService()
        guard let phase = try? sync.currentStatus().phase, ![.off, .needsLogin, .loggedOut].contains(phase) else {
            return nil
        }
        let (preferences, mosques) = (context.dependency.preferences(), context.dependency.mosqueTimetables())
        return Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await _ in sync.live() {} }
                group.addTask { await wake.follow(preferences: preferences, mosques: mosques) }
            }
        }
    }

    /// The loop: a line when what it shows changed, then a wait until the next moment it may change
    /// (at most ``step``), then the stores read again.
    private func lines(
        from first: Date, view: NextCommand.View, terminal: Bool, state: WatchSignals.State, wake: WakeSignal?
    ) async throws {
        var view = view
        var instant = first
        var shown: String?
        var written = 0
        while true {
            let frame = try self.frame(view, at: instant, first: written == 0)
            if frame.shown != shown {
                shown = frame.shown
                state.show(frame.line.trimmingNewlines())
                if terminal { try context.output.write(verbatim: "\r\u{1B}[2K") }
                try context.output.write(terminal ? frame.line.trimmingNewlines() : frame.line)
                try context.output.flush()
                written += 1
                if let limit, written >= limit { return }
            }
            let wait = min(max(frame.wake.timeIntervalSince(now()), 0.001), Self.step)
            if let wake {
                try await wake.wait(for: wait, on: context.clock)
            } else {
                try await context.clock.sleep(for: wait)
            }
            instant = now()
            try Task.checkCancellation()
            // Read again after every wake; a store that cannot be read now keeps the last reading.
            if let fresh = try? await NextCommand.View.read(
                arguments, around: instant, ramadan: ramadan, context: context)
            {
                view = fresh
            } else if view.timer.prayers.status(at: instant.addingTimeInterval(3600)) == nil {
                view = try await NextCommand.View.read(arguments, around: instant, ramadan: ramadan, context: context)
            }
        }
    }

    /// The line at `instant` and the next moment it may change.
    func frame(_ view: NextCommand.View, at instant: Date, first: Bool) throws -> Frame {
        let timer = view.timer
        guard let status = timer.prayers.status(at: instant) else { throw timer.noPrayerFollows }
        let parameters = view.calculation.request.parameters
        let note = NextRenderer.note(status, timer: timer.prayers, parameters: parameters)
        let extra = timer.extra(at: instant)
        let renderer = NextRenderer(calculation: view.calculation, format: format)
        let line = renderer.render(status, note: note, extra: extra, first: first, watching: true)
        let words =
            format == .json
            ? NextRenderer(calculation: view.calculation, format: .plain).render(
                status, note: note, extra: extra, first: false, watching: true)
                + renderer.lastingJSON(status, note: note, extra: extra)
            : renderer.render(status, note: note, extra: extra, first: false, watching: true)
        let zone = view.calculation.request.zone
        let day = (try? CivilDate(containing: instant, in: zone))?.description ?? ""
        var moments = timer.timeline(from: instant, until: instant.addingTimeInterval(86_400))
        moments += [Self.minuteMark(status.countdown, of: status.next.date), Self.midnight(after: instant, in: zone)]
            .compactMap { $0 }
        if let fast = extra.ramadan { moments += [Self.minuteMark(fast.countdown, of: fast.at)].compactMap { $0 } }
        let wake = moments.filter { $0 > instant }.min() ?? instant.addingTimeInterval(Self.step)
        return Frame(line: line, shown: day + "\n" + words, wake: wake)
    }

    /// The instant a countdown of `countdown` seconds to `end`, shown in minutes (``NextRenderer/countdown(_:)``
    /// rounds up), next shows one minute fewer; `nil` in its last minute, which counts seconds.
    static func minuteMark(_ countdown: TimeInterval, of end: Date) -> Date? {
        let total = Int(countdown.rounded(.up))
        guard total > 60 else { return nil }
        let minutes = (total + 59) / 60
        return end.addingTimeInterval(Double(-60 * (minutes - 1)))
    }

    /// The next midnight after `instant` on the zone's clock (the start of the next civil day, where a
    /// zone skips or repeats an hour).
    static func midnight(after instant: Date, in zone: TimeZoneName) -> Date? {
        guard let day = try? CivilDate(containing: instant, in: zone) else { return nil }
        var clock = ZoneClock(zone: zone)
        return clock.instant(of: day.adding(days: 1), hour: 0).map { Date(timeIntervalSince1970: $0) }
    }
}

/// The signals of a watch: SIGTERM and SIGINT end it (its task is cancelled, so its wait ends and the
/// command returns), and on a terminal SIGWINCH redraws the last line at once. Installed before the
/// first line is written; ``stop()`` restores the default actions. Not `Sendable`: the run that installs
/// the handlers also removes them; what the handlers share with the watch is its ``state``.
final class WatchSignals {
    /// The watch's task and its last line, shared with the handlers.
    final class State: Sendable {
        private struct Values {
            var task: Task<Void, any Error>?
            var stopped = false
            var line = ""
        }

        private let values = Mutex(Values())

        /// The task SIGTERM and SIGINT cancel; cancelled at once when one came before.
        func stopping(_ task: Task<Void, any Error>) {
            let stopped = values.withLock { values in
                values.task = task
                return values.stopped
            }
            if stopped { task.cancel() }
        }

        /// Cancels the task, or the one set later.
        func stop() {
            let task = values.withLock { values in
                values.stopped = true
                return values.task
            }
            task?.cancel()
        }

        /// Records the line shown, for a redraw.
        func show(_ line: String) {
            values.withLock { $0.line = line }
        }

        /// The line shown.
        var line: String { values.withLock { $0.line } }
    }

    /// What the handlers share with the watch.
    let state = State()
    private var sources: [any DispatchSourceSignal] = []

    /// Installs the handlers; `terminal` is the output a resize redraws, when it is a terminal. Returns
    /// once libdispatch has registered every handler: a signal that came between `resume()` and the
    /// registration would find only `SIG_IGN` and be lost (seen once in eight SIGTERMs sent right after
    /// the first line).
    static func install(terminal: OutputSink?) async -> WatchSignals {
        let signals = WatchSignals()
        let state = signals.state
        var handlers: [(Int32, @Sendable () -> Void)] = [(SIGTERM, { state.stop() }), (SIGINT, { state.stop() })]
        if let terminal {
            handlers.append(
                (
                    SIGWINCH,
                    {
                        try? terminal.write(verbatim: "\r\u{1B}[2K")
                        try? terminal.write(state.line)
                        try? terminal.flush()
                    }
                ))
        }
        let registered = Registrations(count: handlers.count)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            registered.whenAll { continuation.resume() }
            for (number, handler) in handlers {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler(handler: handler)
                source.setRegistrationHandler { registered.one() }
                source.resume()
                signals.sources.append(source)
            }
        }
        return signals
    }

    private init() {}

    /// Counts the handlers libdispatch has registered, and runs an action once all are.
    private final class Registrations: Sendable {
        private let values: Mutex<(left: Int, action: (@Sendable () -> Void)?)>

        init(count: Int) { values = Mutex((count, nil)) }

        /// Sets the action, run when the last handler is registered.
        func whenAll(_ action: @escaping @Sendable () -> Void) {
            values.withLock { $0.action = action }
        }

        /// One more handler is registered.
        func one() {
            let action = values.withLock { values -> (@Sendable () -> Void)? in
                values.left -= 1
                return values.left == 0 ? values.action : nil
            }
            action?()
        }
    }

    /// Stops handling the signals and restores their default actions.
    func stop() {
        for source in sources { source.cancel() }
        for number in [SIGTERM, SIGINT, SIGWINCH] { signal(number, SIG_DFL) }
    }
}
