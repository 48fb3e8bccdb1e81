#if canImport(Glibc)
    import Glibc
#endif

/// A program's clock shifted by libfaketime, preloaded into the program itself rather than through the
/// `faketime` command, which runs the program as a child of its own (a signal sent to the test's child
/// did not reach it).
///
/// libfaketime keeps the shifted clock's state in shared memory named by the process ID
/// (`/dev/shm/faketime_shm_<pid>` and the semaphore `sem.faketime_sem_<pid>`), which the process
/// removes when it ends normally — as the `faketime` command did for the memory it made. A test that killed one
/// left both behind, and a later process given the same ID (they wrap at 32,768 here) could not start
/// its clock ("sem_open: File exists"). ``removeLeftovers(of:)`` removes them once a process is
/// killed; ``ChildProcesses/killTree(_:)`` and ``PraykitProcess/Running/kill()`` call it.
enum FakeTime {
    /// The library the `faketime` command preloads (`$LIB` is the loader's own folder of libraries,
    /// `lib/x86_64-linux-gnu` on Debian's amd64), in the package `libfaketime`, which `faketime` needs.
    static let library = "/usr/$LIB/faketime/libfaketime.so.1"

    /// The environment that runs a program on a clock set by `specification`, libfaketime's `FAKETIME`
    /// as `faketime -f` takes it: `@2026-11-29 02:21:52` (from that instant in the program's `TZ`,
    /// running on), `@2026-12-06 14:37:40 x20` (twenty times as fast), `+6h` (six hours ahead).
    static func environment(_ specification: String) -> [String: String] {
        [
            "LD_PRELOAD": library, "FAKETIME": specification,
            // Names of shared memory that does not exist. libfaketime 0.9.10 makes its own when it loads
            // (see `removeLeftovers(of:)`) and sets this variable to name it. Where the variable was
            // absent, praykit then read no arguments (it printed its help and exited; `env` shows the
            // variable added), as if the Swift runtime found them from where the environment's table
            // was before it grew; where it is present, it is replaced, and praykit reads them.
            "FAKETIME_SHARED": "/praykit_tests_no_sem /praykit_tests_no_shm",
        ]
    }

    /// The environment of a clock that starts at `start` (`2026-11-29 02:21:52`, in the program's `TZ`)
    /// and runs on, as `faketime '2026-11-29 02:21:52' program` sets it.
    static func environment(from start: String) -> [String: String] { environment("@" + start) }

    /// Removes the shared memory and the semaphore libfaketime made for process `pid`, which a process
    /// killed with SIGKILL could not remove itself. Nothing when it made none.
    static func removeLeftovers(of pid: pid_t) {
        for name in ["/dev/shm/faketime_shm_\(pid)", "/dev/shm/sem.faketime_sem_\(pid)"] { unlink(name) }
    }

    /// The words of a shell command that runs what follows them on the clock of `specification`:
    /// `exec \(FakeTime.shellPrefix("@2026-11-29 02:21:52")) praykit notify …`.
    static func shellPrefix(_ specification: String) -> String {
        "env "
            + environment(specification).sorted { $0.key < $1.key }.map { "'\($0.key)=\($0.value)'" }
            .joined(separator: " ")
    }
}
