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

/// Runs a program to completion on a thread of its own (never one of Swift's few concurrency
/// threads), in a process group of its own, and ends the whole group — the program and everything it
/// started — at a deadline or when the calling task is cancelled: SIGTERM, then SIGKILL after a grace
/// period. The program runs with stdin and stdout on `/dev/null`, no signal blocked or ignored (a child
/// would otherwise inherit the mask of the thread that started it, and a shell would ignore SIGTERM:
/// see TOOLCHAIN.md), and an environment of only the ``inheritedVariables`` of this process plus what
/// the caller adds.
///
/// `Foundation.Process` cannot put a child in a group of its own, so the child is started with
/// `posix_spawn` and `POSIX_SPAWN_SETPGROUP`. A run is over when the program has exited and nothing
/// it started is left in its group, or at the deadline: a hook that leaves a player running in the
/// background (`paplay adhan.ogg &`) has it ended with the rest at the deadline. Something meant to
/// outlive the hook leaves the group itself (`setsid`).
///
/// Only Linux and macOS can start programs; on iOS, watchOS, tvOS and visionOS an app cannot, and
/// ``run(_:_:environment:inheriting:deadline:grace:)`` throws ``NotificationError`` saying so.
enum ChildProcess {
    /// How a run ended.
    struct Outcome: Sendable {
        /// The program's exit status, or 128 + the signal that ended it.
        let status: Int32
        /// The first 4 KiB of what the program and its children wrote to standard error.
        let standardError: String
        /// Whether the program itself was still running at the deadline (and was ended with its group).
        let timedOut: Bool
        /// Whether the program had exited but processes it started were still running at the deadline
        /// (and were ended).
        let leftoversEnded: Bool
        /// The signal that ended the group at the deadline: SIGTERM, or SIGKILL when SIGTERM did not
        /// within the grace period; `nil` when nothing had to be ended.
        let endedWith: Int32?
    }

    /// The variables of this process's environment that a child receives; all others stay here (an
    /// API key in `PRAYKIT_API_KEY`, tokens, the database path). A trailing `*` matches any suffix.
    static let inheritedVariables = [
        "PATH", "HOME", "LANG", "LC_*", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY",
        "PULSE_SERVER",
    ]

    /// The allowed part of `environment` (see ``inheritedVariables``).
    static func inherited(from environment: [String: String]) -> [String: String] {
        environment.filter { name, _ in
            inheritedVariables.contains { pattern in
                pattern.hasSuffix("*") ? name.hasPrefix(pattern.dropLast()) : name == pattern
            }
        }
    }

    /// Runs `executable` with `arguments`.
    /// - Parameters:
    ///   - environment: Variables added to the inherited ones.
    ///   - inheriting: The environment the inherited variables are taken from; this process's by default.
    ///   - deadline: Seconds after which the program and its group are ended.
    ///   - grace: Seconds between SIGTERM and SIGKILL.
    /// - Throws: ``NotificationError`` when it cannot be started; `CancellationError` when the task was
    ///   cancelled (the group is ended first).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        inheriting: [String: String] = ProcessInfo.processInfo.environment, deadline: TimeInterval = 30,
        grace: TimeInterval = 2
    ) async throws -> Outcome {
        let variables = inherited(from: inheriting).merging(environment) { $1 }
        let stop = StopSignal()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                DetachedThread.start {
                    continuation.resume(
                        with: Result {
                            try runBlocking(
                                executable, arguments, variables, Limits(deadline: deadline, grace: grace), stop)
                        })
                }
            }
        } onCancel: {
            stop.raise()
        }
    }

    /// The first executable called `name` in an absolute folder of `$PATH`, or `nil`. An empty entry
    /// (`::`, a leading or trailing `:`) and a relative one (`.`, `bin`) are skipped: they name the
    /// current folder or one below it, wherever the process was started — a sound player or a PDF
    /// converter planted in a shared or downloaded folder must not run because someone started
    /// `praykit` there.
    static func find(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: true)
        where folder.hasPrefix("/") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

// MARK: - Helpers

extension ChildProcess {
    struct Limits {
        let deadline: TimeInterval
        let grace: TimeInterval
    }

    /// Set when the task that waits for a run is cancelled; read by the thread that runs it.
    final class StopSignal: Sendable {
        private let raised = Atomic(false)
        func raise() { raised.store(true, ordering: .relaxed) }
        var isRaised: Bool { raised.load(ordering: .relaxed) }
    }
}

#if os(Linux) || os(macOS)
    extension ChildProcess {
        /// How often a run looks at its child while it waits for output, seconds.
        private static let tick: Int32 = 50

        fileprivate static func runBlocking(
            _ executable: String, _ arguments: [String], _ environment: [String: String], _ limits: Limits,
            _ stop: StopSignal
        ) throws -> Outcome {
            let pipe = try errorPipe()
            let pid: pid_t
            do {
                defer { close(pipe.write) }
                pid = try spawn(executable, arguments, environment, standardError: pipe.write)
            } catch {
                close(pipe.read)
                throw error
            }
            defer { close(pipe.read) }
            var group = Group(leader: pid)
            var errors = ErrorOutput(fd: pipe.read)
            let start = Date()
            var outcome: (timedOut: Bool, leftovers: Bool, signal: Int32?) = (false, false, nil)
            while group.status == nil || group.isAlive {
                if stop.isRaised {
                    _ = group.end(grace: limits.grace)
                    throw CancellationError()
                }
                if Date().timeIntervalSince(start) >= limits.deadline {
                    outcome = (group.status == nil, group.status != nil, group.end(grace: limits.grace))
                    break
                }
                errors.collect(waitingMilliseconds: tick)
                group.reap()
            }
            errors.collect(waitingMilliseconds: 0)
            return Outcome(
                status: group.status ?? 128 + SIGKILL, standardError: errors.text, timedOut: outcome.timedOut,
                leftoversEnded: outcome.leftovers, endedWith: outcome.signal)
        }

        /// A pipe for the child's standard error, both ends closed on `exec` (the child gets the write
        /// end as descriptor 2, which `dup2` leaves open). A child another thread starts in the instant
        /// between `pipe` and `fcntl` may inherit them; that costs nothing here, as a run never waits
        /// for the pipe to close (`pipe2`, which has no such instant, is not in Swift's Glibc).
        private static func errorPipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                throw NotificationError(
                    .cannotStart, message: "cannot make a pipe: \(String(cString: strerror(errno)))")
            }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }

        /// Starts the program in a new process group (its own pid), with no signal blocked and the
        /// usual signals at their default action.
        private static func spawn(
            _ executable: String, _ arguments: [String], _ environment: [String: String], standardError: Int32
        ) throws -> pid_t {
            #if canImport(Glibc)
                var attributes = posix_spawnattr_t()
                var actions = posix_spawn_file_actions_t()
            #else
                var attributes: posix_spawnattr_t?
                var actions: posix_spawn_file_actions_t?
            #endif
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawnattr_setpgroup(&attributes, 0)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2] {
                sigaddset(&defaults, signal)
            }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, standardError, 2)
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                for pointer in argv + envp { free(pointer) }
            }
            var pid: pid_t = 0
            let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            guard code == 0 else {
                throw NotificationError(
                    .cannotStart, message: "cannot start \(executable): \(String(cString: strerror(code)))")
            }
            return pid
        }
    }

    /// The child and the process group it leads.
    private struct Group {
        let leader: pid_t
        /// The leader's exit status once it has been reaped (128 + signal when a signal ended it).
        private(set) var status: Int32?

        init(leader: pid_t) { self.leader = leader }

        /// Whether any process is left in the group (a zombie its new parent has not reaped counts).
        var isAlive: Bool { kill(-leader, 0) == 0 || errno == EPERM }

        /// Reaps the leader if it has exited.
        mutating func reap() {
            guard status == nil else { return }
            var raw: Int32 = 0
            guard waitpid(leader, &raw, WNOHANG) == leader else { return }
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which are macros Swift does not import.
            status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        }

        /// Ends the group: SIGTERM, then SIGKILL if something is still there after `grace` seconds.
        /// - Returns: The last signal sent.
        mutating func end(grace: TimeInterval) -> Int32 {
            kill(-leader, SIGTERM)
            if waitForEnd(grace) { return SIGTERM }
            kill(-leader, SIGKILL)
            _ = waitForEnd(grace)
            return SIGKILL
        }

        /// Waits up to `seconds` for the leader to be reaped and the group to empty.
        private mutating func waitForEnd(_ seconds: TimeInterval) -> Bool {
            let start = Date()
            while true {
                reap()
                if status != nil, !isAlive { return true }
                if Date().timeIntervalSince(start) >= seconds { return false }
                usleep(10_000)
            }
        }
    }

    /// What the child writes to standard error: the first 4 KiB are kept, the rest read and dropped so
    /// that a chatty child never blocks on a full pipe.
    private struct ErrorOutput {
        let fd: Int32
        private var kept: [UInt8] = []
        private var atEnd = false

        init(fd: Int32) { self.fd = fd }

        var text: String { String(decoding: kept, as: UTF8.self) }

        /// Reads what is there, waiting up to `milliseconds` for something to come (or sleeping that
        /// long once the pipe is closed, so a caller's loop never spins).
        mutating func collect(waitingMilliseconds milliseconds: Int32) {
            guard !atEnd else {
                if milliseconds > 0 { usleep(useconds_t(milliseconds) * 1000) }
                return
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, milliseconds) > 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 {
                atEnd = count == 0 || (errno != EINTR && errno != EAGAIN)
                return
            }
            kept += buffer.prefix(max(0, min(count, 4096 - kept.count)))
        }
    }
#else
    extension ChildProcess {
        fileprivate static func runBlocking(
            _ executable: String, _ arguments: [String], _ environment: [String: String], _ limits: Limits,
            _ stop: StopSignal
        ) throws -> Outcome {
            throw NotificationError(
                .cannotStart,
                message: "cannot start \(executable): apps on this platform cannot run programs; deliver reminders "
                    + "with a NotificationService of the app's own"
            )
        }
    }
#endif
