import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Stopping a child process that outlived its deadline, and whatever it started.
///
/// Killing only the child is not enough: a wrapper (a shell script, `faketime`) forks the real program,
/// which the kill would orphan and leave running. And Foundation's `Process` must not be waited for without
/// a bound afterwards: when it does not see the end (a child killed under a sanitizer's runtime was
/// seen to stay a zombie), `waitUntilExit()` and `isRunning` would wait forever and hang the run.
enum ChildProcesses {
    /// How long to wait for Foundation to see a killed child end.
    static let grace: TimeInterval = 10

    /// Sends SIGKILL to `pid` and, first, to every process below it, and removes what libfaketime
    /// kept for each (``FakeTime/removeLeftovers(of:)``).
    static func killTree(_ pid: pid_t) {
        for child in children(of: pid) { killTree(child) }
        kill(pid, SIGKILL)
        FakeTime.removeLeftovers(of: pid)
    }

    /// The processes whose parent is `pid`, from `/proc/<pid>/stat` (the parent is the second field
    /// after the name in parentheses).
    static func children(of pid: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> pid_t? in
            guard let candidate = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? candidate : nil
        }
    }

    /// Waits for `process` to end, killing it and what it started once `deadline` seconds have passed.
    /// - Returns: `true` when it ended by itself.
    /// - Throws: ``Timeout`` when it had to be killed and was not seen to end within ``grace``.
    static func wait(for process: Process, deadline: TimeInterval, pollMicroseconds: useconds_t = 2000) throws -> Bool {
        let start = Date()
        var killedAt: Date?
        while process.isRunning {
            if killedAt == nil, Date().timeIntervalSince(start) > deadline {
                killTree(process.processIdentifier)
                killedAt = Date()
            }
            if let killedAt, Date().timeIntervalSince(killedAt) > grace {
                throw Timeout(seconds: deadline, arguments: process.arguments ?? [])
            }
            usleep(pollMicroseconds)
        }
        process.waitUntilExit()
        return killedAt == nil
    }

    /// A child that did not finish within its deadline and was not seen to end after being killed.
    struct Timeout: Error, CustomStringConvertible {
        let seconds: TimeInterval
        let arguments: [String]
        var description: String {
            "the child process (\(arguments.prefix(3).joined(separator: " ")) …) was killed after \(Int(seconds)) s "
                + "and was not seen to end"
        }
    }
}
