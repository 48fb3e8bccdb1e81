#if os(Linux)
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #endif

    /// Starts the programs a test runs beside it (a PostgreSQL server, a broker, `openssl`) with
    /// `posix_spawn`: standard input from `/dev/null`, standard output and error appended to a log
    /// file, and no signal blocked or ignored in the child — a thread of Swift concurrency may have
    /// some blocked, which the child would inherit, and a server must hear its stop signal.
    ///
    /// ```swift
    /// let pid = try LoggedSpawn.start(["/usr/sbin/mosquitto", "-c", config], log: "\(folder)/out")
    /// ```
    enum LoggedSpawn {
        /// Why a program could not be started: its path and the system's reason.
        struct Failure: Error, CustomStringConvertible {
            /// `cannot start PATH: REASON`.
            let description: String
        }

        /// Starts `command` (its first word a path), appending its output to `log`; its process ID.
        /// - Throws: ``Failure`` when `posix_spawn` fails.
        static func start(_ command: [String], log: String) throws(Failure) -> pid_t {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var pid = pid_t()
            let argv = command.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            let spawned = posix_spawn(&pid, command[0], &actions, &attributes, argv, environ)
            guard spawned == 0 else {
                throw Failure(description: "cannot start \(command[0]): \(String(cString: strerror(spawned)))")
            }
            return pid
        }
    }
#endif
