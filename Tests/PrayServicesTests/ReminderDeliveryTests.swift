import Foundation
import PrayCore
import PrayMocks
import Synchronization
import Testing

@testable import PrayServices

#if canImport(Glibc)
    import Glibc
#endif

/// Deliveries never hold the schedule back: a hook still running while the next event comes, on the
/// fake clock and with real processes; late and missed events are warnings; a hook is ended with
/// everything it started; what a hook receives. No test measures time: each observes the order of
/// events, and the real-time waits in it are only there so a broken build fails instead of hanging.
@Suite(.tags(.concurrency)) struct ReminderDeliveryTests {
    let zone = TimeZone(identifier: "Asia/Riyadh")!

    /// Events of the given kinds at the given instants (the prayers in order), within the range asked.
    func plan(_ items: [(Date, ReminderEvent.Kind)]) -> ReminderDaemon.Planner {
        { from, until in
            items.enumerated().map { index, item in
                ReminderEvent(at: item.0, prayer: Prayer.obligatory[index % 5], kind: item.1, prayerTime: item.0)
            }.filter { $0.at >= from && $0.at < until }
        }
    }

    // MARK: - The schedule

    @Test func aDeliveryStillRunningDoesNotHoldBackTheNextEvents() async throws {
        // Given: fajr's delivery runs until another delivery lets it go; then, a minute later, two
        // events at the same instant (as imsak and a reminder are in Ramadan).
        let clock = PrayClockFake()
        let start = clock.now()
        let minute = start.addingTimeInterval(60)
        let later = start.addingTimeInterval(120)
        let journal = Journal()
        let release = Gate()
        let memory = LogServiceMemory()
        let daemon = ReminderDaemon(
            clock: clock, log: LogManager(services: [memory], minLevel: .info),
            plan: plan([(minute, .adhan), (later, .imsak), (later, .reminder)]),
            deliver: { event in
                journal.append("start \(event.prayer.rawValue)")
                if event.prayer == .fajr {
                    journal.append(await release.wait() ? "end fajr" : "end fajr, never released")
                } else {
                    release.open()
                }
            })
        // When
        let fired = try await daemon.run(until: start.addingTimeInterval(600))
        // Then: the later two began while fajr's was still running, and fajr's ended after them.
        #expect(fired.map(\.prayer) == [.fajr, .dhuhr, .asr])
        let entries = journal.entries
        #expect(entries.first == "start fajr")
        #expect(entries.last == "end fajr", "\(entries)")
        #expect(Set(entries.dropFirst().dropLast()) == ["start dhuhr", "start asr"], "\(entries)")
        #expect(!memory.events.contains { $0.level >= .warning }, "\(memory.events)")
    }

    @Test func lateAndMissedEventsAreWarnings() async throws {
        // Given: the machine sleeps from about start + 8 minutes to start + 21 minutes 20 s, through
        // two events (more than two minutes before it wakes: missed) and 30 s past a third (late, but
        // within two minutes: it fires).
        let fake = PrayClockFake()
        let start = fake.now()
        let clock = ClockWithSuspend(fake, at: start.addingTimeInterval(500), for: 740)
        let times = [60, 600, 700, 1250].map { start.addingTimeInterval(TimeInterval($0)) }
        let memory = LogServiceMemory()
        let daemon = ReminderDaemon(
            clock: clock, log: LogManager(services: [memory], minLevel: .info), plan: plan(times.map { ($0, .adhan) }),
            deliver: { _ in })
        // When
        let fired = try await daemon.run(until: start.addingTimeInterval(2000))
        // Then
        #expect(fired.map(\.at) == [times[0], times[3]])
        let warnings = memory.events.filter { $0.level == .warning }
        #expect(warnings.map(\.message) == ["Reminder missed", "Reminder missed", "Reminder late"], "\(warnings)")
        #expect(warnings.map { $0.metadata["reminder.late"] } == ["680", "580", "30"])
    }

    @Test func aPlanningErrorEndsTheScheduleButNotTheDeliveriesUnderWay() async throws {
        // Given: the first plan has an event due; the second fails — and lets the delivery go on.
        let clock = PrayClockFake()
        let start = clock.now()
        let plans = Mutex(0)
        let release = Gate()
        let journal = Journal()
        let daemon = ReminderDaemon(
            clock: clock, log: .silent,
            plan: { _, _ in
                guard
                    plans.withLock({
                        $0 += 1; return $0
                    }) == 1
                else {
                    release.open()
                    throw ValidationError(field: "place", message: "the saved place is gone")
                }
                return [ReminderEvent(at: start, prayer: .fajr, kind: .adhan, prayerTime: start)]
            },
            deliver: { _ in
                let released = await release.wait()
                journal.append(Task.isCancelled ? "cancelled" : released ? "delivered" : "never released")
            })
        // When / Then: the error comes out, after the delivery ended, not cancelled.
        await #expect(throws: ValidationError.self) { try await daemon.run() }
        #expect(journal.entries == ["delivered"])
    }

    @Test func cancellingTheDaemonCancelsItsDeliveries() async throws {
        // Given: a delivery that runs until it is cancelled, and a clock whose waits last until then too.
        let clock = ClockThatWaits()
        let start = clock.now()
        let began = Gate()
        let journal = Journal()
        let daemon = ReminderDaemon(
            clock: clock, log: .silent,
            plan: { _, _ in [ReminderEvent(at: start, prayer: .fajr, kind: .adhan, prayerTime: start)] },
            deliver: { _ in
                began.open()
                let stopped = await Gate.untilCancelled()
                journal.append(stopped ? "cancelled" : "never cancelled")
            })
        // When: the daemon's task is cancelled once the delivery has begun.
        let running = Task { try await daemon.run() }
        #expect(await began.wait())
        running.cancel()
        // Then
        await #expect(throws: CancellationError.self) { try await running.value }
        #expect(journal.entries == ["cancelled"])
    }

    // MARK: - Hooks as processes

    @Test(.tags(.process)) func aHookIsEndedAtItsDeadlineWithWhatItStarted() async throws {
        // Given: a hook whose shell starts a child and waits for it.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (hook, pidFile) = hookWaitingForAChild(in: folder, deadline: 2)
        // When
        let error = await #expect(throws: NotificationError.self) {
            try await hook.deliver(event(.adhan), context: NotificationContext(timeZone: zone))
        }
        // Then: the error says so, and the child is gone too (or a zombie its new parent has yet to reap).
        #expect(error?.kind == .timedOut)
        #expect(error?.message.contains("with everything it started") == true, "\(String(describing: error))")
        try await ProcessTable.expectEnded(writtenTo: pidFile)
    }

    @Test(.tags(.process)) func aHookThatIgnoresSIGTERMIsKilled() async throws {
        // Given: a shell that ignores SIGTERM, as does the child it starts (an ignored signal is inherited).
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pidFile = folder.path("child.pid")
        // When
        let outcome = try await ChildProcess.run(
            "/bin/sh", ["-c", "trap '' TERM; sleep 1000 & echo $! > '\(pidFile)'; wait"], deadline: 1, grace: 1)
        // Then: SIGKILL ended both.
        #expect(outcome.timedOut && outcome.endedWith == SIGKILL)
        try await ProcessTable.expectEnded(writtenTo: pidFile)
    }

    @Test(.tags(.process)) func whatAHookLeavesRunningIsEndedAtTheDeadlineAndTheDeliveryStands() async throws {
        // Given: a hook that starts a player in the background and exits at once.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pidFile = folder.path("child.pid")
        let memory = LogServiceMemory()
        let hook = NotificationServiceCommand(
            command: "sleep 1000 > /dev/null 2>&1 & echo $! > '\(pidFile)'", deadline: 1,
            log: LogManager(services: [memory], minLevel: .info))
        // When: it is delivered (no error: the hook itself succeeded).
        try await hook.deliver(event(.adhan), context: NotificationContext(timeZone: zone))
        // Then: the background process was ended with the group, and a warning says so.
        try await ProcessTable.expectEnded(writtenTo: pidFile)
        #expect(memory.events.map(\.message) == ["Notify hook left processes running; stopped at the deadline"])
        #expect(memory.events.first?.level == .warning)
    }

    @Test(.tags(.process)) func cancellingADeliveryEndsTheHooksGroup() async throws {
        // Given: a hook that starts a child and waits for it, with a deadline it will not reach.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (hook, pidFile) = hookWaitingForAChild(in: folder, deadline: 3600)
        let delivery = Task { try await hook.deliver(event(.adhan), context: NotificationContext(timeZone: zone)) }
        // When: the task is cancelled once the child runs.
        let pid = try #require(
            await SessionBus.eventualValue {
                TemporaryFolder.text(pidFile).flatMap { pid_t($0.trimmed) }
            })
        delivery.cancel()
        // Then
        await #expect(throws: CancellationError.self) { try await delivery.value }
        #expect(await ProcessTable.ends(pid))
    }

    @Test(.tags(.process)) func theHookInheritsOnlyTheAllowedVariablesOfTheGivenEnvironment() async throws {
        // Given: a daemon's environment with an API key, a token and the session's variables.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("environment")
        let daemon = [
            "PATH": "/usr/bin:/bin", "HOME": "/home/amina", "LANG": "ar_SA.UTF-8", "LC_TIME": "en_GB.UTF-8",
            "XDG_RUNTIME_DIR": "/run/user/1000", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus",
            "DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "PULSE_SERVER": "unix:/run/user/1000/pulse/native",
            "PRAYKIT_API_KEY": "secret", "PRAYKIT_DATABASE": "/home/amina/db.sqlite", "GITHUB_TOKEN": "t",
            "LD_PRELOAD": "/tmp/evil.so", "PRAYKIT_EVENT": "forged",
        ]
        let hook = NotificationServiceCommand(command: "env > '\(file)'", environment: daemon, log: .silent)
        // When
        try await hook.deliver(event(.iqama), context: NotificationContext(place: "Makkah", timeZone: zone))
        // Then
        let lines = Set(try #require(TemporaryFolder.text(file)).split(separator: "\n").map(String.init))
        for name in ["PATH", "HOME", "LANG", "LC_TIME", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY"]
            + ["WAYLAND_DISPLAY", "PULSE_SERVER"]
        {
            #expect(lines.contains("\(name)=\(daemon[name] ?? "")"), "\(name)")
        }
        #expect(!lines.contains { $0.contains("secret") || $0.contains("GITHUB_TOKEN") || $0.contains("LD_PRELOAD") })
        #expect(!lines.contains { $0.hasPrefix("PRAYKIT_DATABASE=") })
        #expect(lines.contains("PRAYKIT_EVENT=iqama"))
        #expect(NotificationServiceCommand.inheritedVariables.contains("LC_*"))
    }

    @Test(.tags(.process)) func theHookGetsOnlyItsEventAndAllowedVariables() async throws {
        // Given: a place name with control characters, and a hook that writes its whole environment.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("environment")
        let hook = NotificationServiceCommand(command: "env > '\(file)'", log: .silent)
        // When
        try await hook.deliver(
            event(.adhan), context: NotificationContext(place: "Mak\u{1B}[31mkah\nX\u{7}", timeZone: zone))
        // Then: nothing of this process's environment but the allowed variables (the shell adds PWD and
        // the like), and the place without its control characters.
        let lines = try #require(TemporaryFolder.text(file)).split(separator: "\n")
        let names = Set(lines.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        let allowed: Set = [
            "PATH", "HOME", "LANG", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY",
            "PULSE_SERVER", "PWD", "SHLVL", "OLDPWD", "_",
        ]
        let others = names.filter { !allowed.contains($0) && !$0.hasPrefix("LC_") && !$0.hasPrefix("PRAYKIT_") }
        #expect(others.isEmpty, "\(others.sorted())")
        #expect(names.contains("PRAYKIT_EVENT") && names.contains("PRAYKIT_PLACE"))
        #expect(lines.contains("PRAYKIT_PLACE=Mak\u{FFFD}[31mkah\u{FFFD}X\u{FFFD}"), "\(lines)")
        #expect(!lines.contains { $0.contains("\u{1B}") || $0.contains("\u{7}") })
    }

    @Test(.tags(.process)) func theReadmesPaplayHookPlaysOnWhileTheNextEventFires() async throws {
        // Given: the README's hook, `paplay ~/Music/adhan.ogg`, run by a shell that finds a stand-in
        // paplay first on PATH: for the adhan it "plays" until the next event's run releases it (a
        // fifo both open), as a real adhan plays on for minutes while a reminder comes.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let journal = folder.path("journal")
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        try await folder.executable(
            "bin/paplay",
            """
            #!/bin/sh
            echo "start $PRAYKIT_EVENT $*" >> '\(journal)'
            if [ "$PRAYKIT_EVENT" = adhan ]; then read line < '\(fifo)'; else echo go > '\(fifo)'; fi
            echo "end $PRAYKIT_EVENT" >> '\(journal)'
            """)
        let shell = try await folder.executable(
            "sh", "#!/bin/sh\nPATH='\(folder.path("bin"))':\"$PATH\" exec /bin/sh \"$@\"\n")
        // The deadline only ends a broken run; the hook does not come near it when the daemon works.
        let hook = NotificationServiceCommand(
            command: "paplay ~/Music/adhan.ogg", shell: shell, deadline: 20, log: .silent)
        let clock = PrayClockFake()
        let start = clock.now()
        let memory = LogServiceMemory()
        let daemon = ReminderDaemon(
            clock: clock, log: LogManager(services: [memory], minLevel: .info),
            plan: plan([(start.addingTimeInterval(60), .adhan), (start.addingTimeInterval(120), .reminder)]),
            deliver: { event in
                try await hook.deliver(event, context: NotificationContext(place: "Makkah", timeZone: zone))
            })
        // When
        try await daemon.run(until: start.addingTimeInterval(600))
        // Then: both runs began before either ended — the adhan's could only end once the reminder's
        // ran (on the fake clock the two fire at once, so which began first is not set) — and both
        // ended well, with the file the README names.
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        let text = TemporaryFolder.text(journal) ?? ""
        let lines = text.split(separator: "\n").map(String.init)
        #expect(
            Set(lines.prefix(2)) == ["start adhan \(home)/Music/adhan.ogg", "start reminder \(home)/Music/adhan.ogg"],
            "\(lines) \(memory.events)")
        #expect(Set(lines.dropFirst(2)) == ["end adhan", "end reminder"], "\(lines)")
        #expect(!memory.events.contains { $0.level >= .warning }, "\(memory.events)")
    }

    /// A hook whose shell starts `sleep 1000`, writes its pid to the file returned, and waits for it.
    func hookWaitingForAChild(
        in folder: TemporaryFolder, deadline: TimeInterval
    ) -> (NotificationServiceCommand, pidFile: String) {
        let pidFile = folder.path("child.pid")
        let command = "sleep 1000 & echo $! > '\(pidFile)'; wait"
        return (NotificationServiceCommand(command: command, deadline: deadline, log: .silent), pidFile)
    }

    func event(_ kind: ReminderEvent.Kind) -> ReminderEvent {
        let time = Date(timeIntervalSince1970: 1_795_950_000)
        return ReminderEvent(at: time, prayer: .asr, kind: kind, prayerTime: time)
    }
}

// MARK: - Support

/// Lines appended from any task, in the order they came.
final class Journal: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }
}

/// Lets waiting tasks go once opened. A wait gives up after `atMost` seconds of real time — not a
/// measure of anything, only so that a daemon that waits for the waiter fails the test instead of
/// hanging it.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Bool, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// `true` when opened, `false` when it gave up.
    func wait(atMost seconds: Int = 30) async -> Bool {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if open { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                let waiters = state.withLock { state in
                    defer { state.waiters = [] }
                    return state.waiters
                }
                for waiter in waiters { waiter.resume(returning: false) }
            }
        }
    }
}

extension Gate {
    /// Waits until the task is cancelled (`true`), or gives up after `atMost` seconds (`false`).
    static func untilCancelled(atMost seconds: Int = 30) async -> Bool {
        for _ in 0..<(seconds * 20) where !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return Task.isCancelled
    }
}

/// A clock that stands still and whose every wait lasts until the task is cancelled.
struct ClockThatWaits: PrayClock {
    func now() -> Date { Date(timeIntervalSince1970: 1_795_953_600) }

    func sleep(for seconds: TimeInterval) async throws {
        _ = await Gate.untilCancelled()
        try Task.checkCancellation()
    }
}

/// A fake clock on which the machine sleeps once: the first wait that reaches `at` ends `length`
/// seconds later than asked.
final class ClockWithSuspend: PrayClock {
    private let fake: PrayClockFake
    private let at: Date
    private let length: TimeInterval
    private let slept = Mutex(false)

    init(_ fake: PrayClockFake, at: Date, for length: TimeInterval) {
        self.fake = fake
        self.at = at
        self.length = length
    }

    func now() -> Date { fake.now() }

    func sleep(for seconds: TimeInterval) async throws {
        try await fake.sleep(for: seconds)
        let suspend = slept.withLock { slept in
            guard !slept, fake.now() >= at else { return false }
            slept = true
            return true
        }
        if suspend { fake.advance(by: length) }
    }
}

/// A folder of its own under the temporary directory (`defer { folder.remove() }`).
struct TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-delivery-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// A file's text, or `nil` when it cannot be read. (Not `String(contentsOfFile:)`: in Swift 6.3
    /// on Linux it leaks 4 KiB for an empty file — and `/proc` files say they are empty — which fails
    /// the address-sanitizer run.)
    static func text(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes an executable script at `name` (folders made as needed) and returns its path.
    ///
    /// The script is written by `install`, a process of its own: were this process to write it, a
    /// program that another test starts at that moment could inherit the open file, and starting the
    /// script would then fail with "Text file busy" (ETXTBSY).
    @discardableResult
    func executable(_ name: String, _ text: String) async throws -> String {
        let source = url.appendingPathComponent("\(UUID()).txt")
        try Data(text.utf8).write(to: source)
        let file = url.appendingPathComponent(name).path
        let installed = try await ChildProcess.run("/usr/bin/install", ["-D", "-m", "755", source.path, file])
        guard installed.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["path": file]) }
        return file
    }
}

/// What `/proc` says of a process.
enum ProcessTable {
    /// The state letter of `pid` (`S`, `R`, `Z` …), or `nil` when there is no such process.
    static func state(of pid: pid_t) -> String? {
        guard let stat = TemporaryFolder.text("/proc/\(pid)/stat"),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    /// Reads the pid a hook wrote to `pidFile`, and expects that process to end (see ``ends(_:within:)``).
    static func expectEnded(writtenTo pidFile: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let pid = try #require(
            TemporaryFolder.text(pidFile).flatMap { pid_t($0.trimmed) }, sourceLocation: sourceLocation)
        #expect(await ends(pid), "pid \(pid) still runs: \(state(of: pid) ?? "?")", sourceLocation: sourceLocation)
    }

    /// Whether `pid` is gone or a zombie, looking again for a while (a signalled process takes a
    /// moment to end; the wait only keeps a broken build from passing by luck, not a measure).
    static func ends(_ pid: pid_t, within seconds: Int = 10) async -> Bool {
        for _ in 0..<(seconds * 20) {
            let state = state(of: pid)
            if state == nil || state == "Z" || state == "X" { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}

extension StringProtocol {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
