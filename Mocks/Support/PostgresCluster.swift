#if os(Linux)
    import Foundation
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #endif

    /// A throwaway PostgreSQL cluster for tests: `initdb` into a new temporary folder, a server that
    /// listens only on a Unix socket in that folder (no TCP), a new database per store, and the whole
    /// cluster stopped and removed when the last test using it ends (also when one fails).
    ///
    /// The server refuses to run as root, so as root every command runs as the `postgres` user
    /// (`runuser`), in a folder that user owns.
    ///
    /// ```swift
    /// try PostgresCluster.with { cluster in
    ///     let url = try cluster.newDatabase()      // postgresql:///praykit_1?host=/tmp/praykit-pg-…&user=postgres
    ///     let store = SyncStorePostgres(url: url, log: .silent)
    /// }
    /// ```
    public final class PostgresCluster: Sendable {
        /// The folder of the data, the log and the socket.
        public let folder: String
        private let binaries: String
        private let databases = Atomic<Int>(0)
        /// The folders of the standbys started, each stopped with the cluster.
        private let standbys = Mutex<[String]>([])

        /// The binaries of the newest PostgreSQL installed (`/usr/lib/postgresql/N/bin`), or `nil`.
        public static let installedBinaries: String? = {
            let root = "/usr/lib/postgresql"
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }.first { bin in
                ["initdb", "pg_ctl", "postgres"].allSatisfy {
                    FileManager.default.isExecutableFile(atPath: "\(bin)/\($0)")
                }
            }
        }()

        /// Why the PostgreSQL tests cannot run here, for their skip message.
        public static let missing =
            "PostgreSQL's server binaries are not installed (apt-get install postgresql): the PostgreSQL store's "
            + "tests are skipped"

        /// The shared cluster and how many tests use it.
        private struct Shared: ~Copyable {
            var cluster: PostgresCluster?
            var users = 0
        }

        private static let shared = Mutex(Shared())

        /// Runs `body` with the shared cluster, started for the first user and stopped after the last.
        public static func with<T>(_ body: (PostgresCluster) throws -> T) throws -> T {
            let cluster = try acquire()
            defer { release() }
            return try body(cluster)
        }

        /// Runs `body` with the shared cluster, started for the first user and stopped after the last.
        public static func with<T>(_ body: (PostgresCluster) async throws -> T) async throws -> T {
            let cluster = try acquire()
            defer { release() }
            return try await body(cluster)
        }

        private static func acquire() throws -> PostgresCluster {
            try shared.withLock { state in
                if let cluster = state.cluster {
                    state.users += 1
                    return cluster
                }
                let cluster = try PostgresCluster()
                state.cluster = cluster
                state.users = 1
                return cluster
            }
        }

        private static func release() {
            shared.withLock { state in
                state.users -= 1
                if state.users == 0 {
                    state.cluster?.stop()
                    state.cluster = nil
                }
            }
        }

        /// `initdb`, then `pg_ctl start`.
        private init() throws {
            guard let binaries = Self.installedBinaries else { throw ClusterError(message: Self.missing) }
            self.binaries = binaries
            folder =
                FileManager.default.temporaryDirectory.appendingPathComponent(
                    "praykit-pg-\(UUID().uuidString.prefix(8))"
                ).path
            // 0700: the server trusts whoever reaches its socket, so only its owner (and root) may.
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            if geteuid() == 0 {
                guard let user = getpwnam("postgres") else {
                    throw ClusterError(message: "running as root needs a postgres user to run the server as")
                }
                chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
            }
            do {
                try run(
                    "initdb",
                    [
                        "-D", "\(folder)/data", "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8",
                        "--locale=C",
                    ])
                // One role logs in with a password (SCRAM), to test what a wrong one gives; every other
                // role is trusted on the socket.
                let hba = "\(folder)/data/pg_hba.conf"
                let rules = try String(contentsOfFile: hba, encoding: .utf8)
                try ("local all \(Self.passwordUser) scram-sha-256\n" + rules).write(
                    toFile: hba, atomically: false, encoding: .utf8)
                try startServer()
                try execute(
                    "CREATE ROLE \(Self.passwordUser) LOGIN PASSWORD '\(Self.password)'", in: url("postgres"))
            } catch {
                stop()
                throw error
            }
        }

        /// The role that logs in with ``password`` (every other role is trusted), owner of the
        /// databases of ``newDatabase(ownedByPasswordUser:)``.
        public static let passwordUser = "praykit_password"
        /// The password of ``passwordUser``.
        public static let password = "right-horse-battery"

        /// A cluster of the caller's own, not shared: for a test that stops and starts its server.
        /// The caller calls ``remove()`` at the end.
        public static func privateCluster() throws -> PostgresCluster { try PostgresCluster() }

        /// Starts the server (again): `pg_ctl start`, waiting until it accepts connections.
        public func startServer() throws {
            try run(
                "pg_ctl",
                [
                    "-D", "\(folder)/data", "-l", "\(folder)/server.log", "-w", "-t", "120", "-o",
                    "-k \(folder) -c listen_addresses='' -c fsync=off -c max_connections=200", "start",
                ])
        }

        /// Stops the server (`pg_ctl stop -m fast`: connections are ended, as in a restart or a
        /// failover); the data stays for ``startServer()``.
        public func stopServer() throws {
            try run("pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "-t", "120", "stop"])
        }

        /// Stops a ``privateCluster()`` and removes its folder.
        public func remove() { stop() }

        /// A URL of a new, empty database of this cluster (user `postgres`, trusted). Owned by
        /// ``passwordUser`` when `ownedByPasswordUser`, so that its URL with `user=praykit_password`
        /// and a password may create the store's schema.
        public func newDatabase(ownedByPasswordUser: Bool = false) throws -> String {
            let name = "praykit_\(databases.wrappingAdd(1, ordering: .relaxed).newValue)"
            try execute(
                "CREATE DATABASE \(name)" + (ownedByPasswordUser ? " OWNER \(Self.passwordUser)" : ""),
                in: url("postgres"))
            return url(name)
        }

        /// Starts a hot standby of this cluster: a base backup (`pg_basebackup -R`, which also writes
        /// the settings that make it follow this cluster) in a folder of its own, started on a socket
        /// of its own. It takes reads only, and `pg_is_in_recovery()` is true there.
        /// - Returns: The URL of `database` on the standby (create the database first: the backup
        ///   copies what exists).
        public func startStandby(of database: String) throws -> String {
            let number = standbys.withLock { standbys in
                standbys.append("\(folder)/standby-\(standbys.count + 1)")
                return standbys.count
            }
            let standby = "\(folder)/standby-\(number)"
            try FileManager.default.createDirectory(
                atPath: standby, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            if geteuid() == 0, let user = getpwnam("postgres") {
                chown(standby, user.pointee.pw_uid, user.pointee.pw_gid)
            }
            try run(
                "pg_basebackup",
                ["-D", "\(standby)/data", "-R", "-X", "stream", "-c", "fast", "-d", "host=\(folder) user=postgres"])
            try run(
                "pg_ctl",
                [
                    "-D", "\(standby)/data", "-l", "\(standby)/server.log", "-w", "-t", "120", "-o",
                    "-k \(standby) -c listen_addresses='' -c fsync=off -c hot_standby=on "
                        + "-c max_connections=200", "start",
                ])
            return "postgresql:///\(database)?host=\(standby)&user=postgres"
        }

        /// The name of the database of `url`: `praykit_3` of `postgresql:///praykit_3?host=…`.
        public static func database(of url: String) -> String { databaseName(url) }

        /// Ends every connection to the database of `url` (as a restart of the server would).
        public func endConnections(to url: String) throws {
            try execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(Self.databaseName(url))'",
                in: self.url("postgres"))
        }

        /// Runs SQL (one or more statements, no values bound: tests' own text) in the database of `url`
        /// with `psql`, stopping at the first error.
        /// - Returns: What `psql` printed: unaligned rows, no header (`-At`).
        @discardableResult
        public func execute(_ sql: String, in url: String) throws -> String {
            let output = "\(folder)/psql-\(UUID().uuidString.prefix(8)).out"
            defer { try? FileManager.default.removeItem(atPath: output) }
            try run(
                "psql", ["-X", "-At", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql, "-o", output],
                log: output + ".log")
            return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }

        /// `praykit_3` of `postgresql:///praykit_3?host=…`.
        private static func databaseName(_ url: String) -> String {
            String(url.dropFirst("postgresql:///".count).prefix { $0 != "?" })
        }

        /// The URL of a database by name: the socket in ``folder``, user `postgres`.
        public func url(_ database: String) -> String {
            "postgresql:///\(database)?host=\(folder)&user=postgres"
        }

        /// Stops the server at once and removes the folder.
        private func stop() {
            for standby in standbys.withLock({ $0 })
            where FileManager.default.fileExists(atPath: "\(standby)/data/postmaster.pid") {
                try? run("pg_ctl", ["-D", "\(standby)/data", "-m", "immediate", "-w", "stop"])
            }
            if FileManager.default.fileExists(atPath: "\(folder)/data/postmaster.pid") {
                try? run("pg_ctl", ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"])
            }
            try? FileManager.default.removeItem(atPath: folder)
        }

        /// Runs one of the binaries (as `postgres` when root) with `posix_spawn`, its output in
        /// `commands.log`, and waits for it. Signals are unblocked in the child: a thread of Swift
        /// concurrency may have some blocked, and the server must hear pg_ctl's.
        private func run(_ program: String, _ arguments: [String], log: String? = nil) throws {
            let log = log ?? "\(folder)/commands.log"
            let command =
                geteuid() == 0
                ? ["/usr/sbin/runuser", "-u", "postgres", "--", "\(binaries)/\(program)"] + arguments
                : ["\(binaries)/\(program)"] + arguments
            let pid: pid_t
            do {
                pid = try LoggedSpawn.start(command, log: log)
            } catch {
                throw ClusterError(message: "\(error)")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            guard status == 0 else {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw ClusterError(message: "\(program) failed (status \(status)): \(text.suffix(2_000))")
            }
        }
    }

    /// A cluster that could not be started, or a command that failed, with its output.
    public struct ClusterError: Error, CustomStringConvertible {
        /// What failed, and what the command printed.
        public let message: String
        /// ``message``.
        public var description: String { message }
    }
#endif
