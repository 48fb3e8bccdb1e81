#if os(Linux)
    import Foundation
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #endif

    /// A throwaway Mosquitto broker (Debian's `mosquitto`) for tests: on a free loopback port, its
    /// configuration, password file, certificates and log in a new temporary folder, killed (SIGKILL) and
    /// removed when released. It can require a user name and password, speak TLS with a certificate of its
    /// own authority (made with `openssl`), and be killed and started again on the same port, as a broker
    /// that restarts.
    ///
    /// ```swift
    /// let broker = try MosquittoBroker.start(users: ["amina": "secret"])
    /// let subscriber = try broker.subscribe("#")          // mosquitto_sub, its lines in a file
    /// … run praykit mqtt --broker broker.url …
    /// try await subscriber.wait { $0.contains { $0.topic == "praykit/den/availability" } }
    /// ```
    public final class MosquittoBroker: Sendable {
        /// The folder of the configuration, the log and the certificates.
        public let folder: String
        /// The port it listens on, on 127.0.0.1.
        public let port: Int
        /// Whether it speaks TLS (`mqtts://`).
        public let tls: Bool
        private let process = Mutex<pid_t?>(nil)

        /// `mqtt://127.0.0.1:port`, or `mqtts://127.0.0.1:port`.
        public var url: String { "\(tls ? "mqtts" : "mqtt")://127.0.0.1:\(port)" }
        /// The certificate of the authority that signed the broker's (with ``tls``).
        public var certificateAuthority: String { "\(folder)/ca.pem" }
        /// What the broker logged so far: every connection, refusal and subscription.
        public var log: String { (try? String(contentsOfFile: "\(folder)/broker.log", encoding: .utf8)) ?? "" }

        /// The broker's program, or `nil` when it is not installed.
        public static let executable: String? =
            TestRequirement.executable("mosquitto")
            ?? ["/usr/sbin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }

        private init(folder: String, port: Int, tls: Bool) {
            self.folder = folder
            self.port = port
            self.tls = tls
        }

        deinit {
            kill()
            try? FileManager.default.removeItem(atPath: folder)
        }

        /// Starts a broker on a free port.
        /// - Parameters:
        ///   - users: User names and passwords it accepts; with none, anyone may connect.
        ///   - tls: Whether it speaks TLS, with a certificate for `127.0.0.1` and `localhost` signed by
        ///     ``certificateAuthority``.
        /// - Throws: ``BrokerFailure`` when it cannot be started.
        public static func start(users: [String: String] = [:], tls: Bool = false) throws -> MosquittoBroker {
            guard let executable else { throw BrokerFailure(TestRequirement.mqttSkip ?? "mosquitto is not installed") }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("praykit-mqtt-\(UUID())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var failures: [String] = []
            for _ in 0..<3 {
                // The broker cannot choose its port: should another process take this one, the next try
                // has another.
                guard let port = Loopback.freePort() else { throw BrokerFailure("no free port") }
                let broker = MosquittoBroker(folder: folder, port: port, tls: tls)
                try broker.configure(users: users, executable: executable)
                if try broker.launch(executable) { return broker }
                failures.append(broker.log)
            }
            throw BrokerFailure("mosquitto did not start: \(failures.joined(separator: "\n"))")
        }

        /// Kills the broker (SIGKILL: it keeps nothing, its retained messages are gone) and waits for it.
        public func kill() {
            guard
                let pid = process.withLock({ process in
                    defer { process = nil }; return process
                })
            else { return }
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }

        /// Starts the broker again on the same port, after ``kill()``.
        /// - Throws: ``BrokerFailure`` when it does not start.
        public func restart() throws {
            kill()
            guard let executable = Self.executable, try launch(executable) else {
                throw BrokerFailure("mosquitto did not start again on port \(port): \(log)")
            }
        }

        /// Starts `mosquitto_sub` on `filter`, its messages (retain flag, topic, payload) in a file.
        /// - Parameters:
        ///   - filter: The topics.
        ///   - user: A user name and password, for a broker that asks for them.
        /// - Throws: ``BrokerFailure`` when it cannot be started.
        public func subscribe(
            _ filter: String = "#", user: (name: String, password: String)? = nil
        ) throws -> MosquittoSubscriber {
            var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", filter, "-F", "%r\t%t\t%p", "-q", "1"]
            if tls { arguments += ["--cafile", certificateAuthority] }
            if let user { arguments += ["-u", user.name, "-P", user.password] }
            return try MosquittoSubscriber(arguments: arguments, folder: folder)
        }
    }

    // MARK: - Helpers

    extension MosquittoBroker {
        /// Writes the configuration: the listener, the users, TLS, no persistence, everything logged.
        private func configure(users: [String: String], executable: String) throws {
            var lines = [
                "listener \(port) 127.0.0.1", "persistence false", "log_dest file \(folder)/broker.log",
                "log_type all", "connection_messages true",
            ]
            // As root, Mosquitto would switch to its own user, which cannot write into this folder.
            if geteuid() == 0 { lines.append("user root") }
            if users.isEmpty {
                lines.append("allow_anonymous true")
            } else {
                lines += ["allow_anonymous false", "password_file \(folder)/passwords"]
                let passwd = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("bin/mosquitto_passwd").path
                for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                    let create = index == 0 ? ["-c"] : []
                    try Self.run(
                        passwd, create + ["-b", "\(folder)/passwords", user, password], log: "\(folder)/tools.log")
                }
            }
            if tls {
                try makeCertificates()
                lines += ["cafile \(folder)/ca.pem", "certfile \(folder)/server.pem", "keyfile \(folder)/server.key"]
            }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(
                to: URL(fileURLWithPath: "\(folder)/mosquitto.conf"))
        }

        /// A certificate authority and a server certificate for `127.0.0.1` and `localhost`, with openssl.
        private func makeCertificates() throws {
            let openssl = "/usr/bin/openssl"
            let log = "\(folder)/tools.log"
            try Self.run(
                openssl,
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650", "-subj", "/CN=PrayKit test CA",
                    "-keyout", "\(folder)/ca.key", "-out", "\(folder)/ca.pem",
                ], log: log)
            try Self.run(
                openssl,
                [
                    "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "\(folder)/server.key",
                    "-out", "\(folder)/server.csr",
                ], log: log)
            try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\n".utf8).write(
                to: URL(fileURLWithPath: "\(folder)/san.ext"))
            try Self.run(
                openssl,
                [
                    "x509", "-req", "-in", "\(folder)/server.csr", "-CA", "\(folder)/ca.pem", "-CAkey",
                    "\(folder)/ca.key", "-CAcreateserial", "-days", "3650", "-extfile", "\(folder)/san.ext", "-out",
                    "\(folder)/server.pem",
                ], log: log)
        }

        /// Starts the program and waits until its port accepts connections (`true`), or it ends (`false`).
        private func launch(_ executable: String) throws -> Bool {
            let pid = try Self.spawn([executable, "-c", "\(folder)/mosquitto.conf"], log: "\(folder)/mosquitto.out")
            process.withLock { $0 = pid }
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if let socket = Loopback.connect(port: port) {
                    close(socket)
                    return true
                }
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid {
                    process.withLock { $0 = nil }
                    return false
                }
                usleep(20_000)
            }
            kill()
            return false
        }

        /// Runs a tool to its end (a hang guard of 60 s).
        static func run(_ program: String, _ arguments: [String], log: String) throws {
            let pid = try spawn([program] + arguments, log: log)
            var status: Int32 = 0
            let deadline = ContinuousClock.now + .seconds(60)
            while waitpid(pid, &status, WNOHANG) == 0 {
                guard ContinuousClock.now < deadline else {
                    Glibc.kill(pid, SIGKILL)
                    throw BrokerFailure("\(program) did not end")
                }
                usleep(5_000)
            }
            guard status == 0 else {
                throw BrokerFailure("\(program) failed: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
        }

        /// Starts `command` (``LoggedSpawn``), its output appended to `log`.
        static func spawn(_ command: [String], log: String) throws -> pid_t {
            do {
                return try LoggedSpawn.start(command, log: log)
            } catch {
                throw BrokerFailure("\(error)")
            }
        }
    }

    /// A broker or subscriber that could not start, or messages that did not come, with what was seen.
    public struct BrokerFailure: Error, CustomStringConvertible {
        /// What failed, and what the programs said.
        public let message: String

        /// Creates a failure.
        public init(_ message: String) {
            self.message = message
        }

        /// ``message``.
        public var description: String { message }
    }

    /// `mosquitto_sub` on a broker, each message a line of a file: its retain flag, topic and payload.
    public final class MosquittoSubscriber: Sendable {
        /// One message as `mosquitto_sub` printed it.
        public struct Line: Hashable, Sendable {
            /// Whether the broker delivered it as retained (a message kept from before the subscription).
            public let retained: Bool
            /// The topic.
            public let topic: String
            /// The payload, as text.
            public let payload: String
        }

        private let file: String
        private let process = Mutex<pid_t?>(nil)

        init(arguments: [String], folder: String) throws {
            file = "\(folder)/sub-\(UUID().uuidString.prefix(8)).out"
            guard let program = TestRequirement.executable("mosquitto_sub") else {
                throw BrokerFailure(TestRequirement.mqttSkip ?? "mosquitto_sub is not installed")
            }
            let pid = try MosquittoBroker.spawn([program] + arguments, log: file)
            process.withLock { $0 = pid }
        }

        deinit {
            stop()
        }

        /// The messages received so far, in order.
        public var lines: [Line] {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count == 3 else { return nil }
                return Line(retained: fields[0] == "1", topic: String(fields[1]), payload: String(fields[2]))
            }
        }

        /// The last payload received on `topic`, if any.
        public func last(_ topic: String) -> String? {
            lines.last { $0.topic == topic }?.payload
        }

        /// Waits until the messages received satisfy `condition`, with a hang guard of `seconds`.
        /// - Returns: The messages then.
        /// - Throws: ``BrokerFailure`` naming what was received when the guard ran out.
        @discardableResult
        public func wait(
            seconds: Int = 120, _ what: String = "the messages expected",
            until condition: ([Line]) -> Bool
        ) async throws -> [Line] {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while true {
                let lines = self.lines
                if condition(lines) { return lines }
                guard ContinuousClock.now < deadline else {
                    let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                    throw BrokerFailure(
                        "\(what) did not come within \(seconds) s; mosquitto_sub printed:\n\(text.suffix(3_000))")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        /// Stops `mosquitto_sub` (SIGKILL) and waits for it.
        public func stop() {
            guard
                let pid = process.withLock({ process in
                    defer { process = nil }; return process
                })
            else { return }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }
#endif
