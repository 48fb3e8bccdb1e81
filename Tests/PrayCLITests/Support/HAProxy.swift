import Foundation
import PrayMocks

#if canImport(Glibc)
    import Glibc
#endif

/// A real HAProxy (Debian's `haproxy`) in the foreground, as a child of the test, in front of several
/// `praykit serve` on loopback ports: round robin per request, health checks on `GET /status`, and one
/// log line per request on its standard output (`backend/server status retries method path`).
final class HAProxy: @unchecked Sendable {
    /// `/usr/sbin/haproxy`, or `nil` when it is not installed.
    static let executable: String? = ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Why the tests that need HAProxy cannot run here.
    static let missing = "haproxy is not installed (apt-get install haproxy): the multi-server sync tests are skipped"

    let folder: TestFolder
    let port: Int
    private var process: PraykitProcess.Running
    private var ended = false
    private var output = ""

    /// `http://127.0.0.1:port`.
    var url: String { "http://127.0.0.1:\(port)" }

    private init(folder: TestFolder, port: Int, process: PraykitProcess.Running) {
        self.folder = folder
        self.port = port
        self.process = process
    }

    /// The configuration the tests run: the directives of `Scripts/deploy/haproxy.cfg` that matter to
    /// sync (round robin, a new server connection per request, health checks, retries of requests that
    /// are safe to send again, the event streams' longer server timeout), on loopback, with a log line per request on standard output.
    static func configuration(port: Int, backends: [Int]) -> String {
        let servers = backends.enumerated().map { "    server s\($0.offset + 1) 127.0.0.1:\($0.element)" }
        return """
            global
                log stdout format raw local0
            defaults
                mode http
                log global
                log-format "%b/%s %ST %rc %HM %HP"
                option dontlognull
                timeout connect 5s
                timeout client 60s
                timeout server 60s
                retries 3
                option redispatch 1
                retry-on conn-failure empty-response response-timeout
            frontend sync
                bind 127.0.0.1:\(port)
                default_backend praykit
            backend praykit
                balance roundrobin
                option http-server-close
                option httpchk GET /status
                http-check expect status 200
                # A pairing code is single-use: a pairing sent again after a lost answer would fail.
                http-request disable-l7-retry if { path /sync/v1/devices }
                http-request set-timeout server 90s if { path /sync/v1/events }
                default-server check inter 300ms fall 1 rise 1

            """ + servers.joined(separator: "\n") + "\n"
    }

    /// Starts HAProxy on a free loopback port in front of `backends` and waits until it accepts
    /// connections. (A port is found free, then given to HAProxy, which cannot choose one itself;
    /// should another process take it meanwhile, another port is tried.)
    static func start(backends: [Int]) async throws -> HAProxy {
        guard let executable else { throw TestFailure(missing) }
        var failures: [String] = []
        for _ in 0..<3 {
            let folder = try TestFolder("haproxy")
            guard let port = Loopback.freePort() else { throw TestFailure("no free loopback port") }
            let file = folder.path("haproxy.cfg")
            try Data(configuration(port: port, backends: backends).utf8).write(to: URL(fileURLWithPath: file))
            let process = try PraykitProcess.Running(
                ["-db", "-f", file], environment: [:], executable: URL(fileURLWithPath: executable))
            if try await waitUntilAccepting(port: port, process: process) {
                return HAProxy(folder: folder, port: port, process: process)
            }
            process.kill()
            let result = try await process.wait(deadline: 30)
            failures.append(result.stdout + result.stderr)
        }
        throw TestFailure("haproxy did not start: \(failures.joined(separator: "\n"))")
    }

    /// Stops HAProxy (SIGKILL, every connection through it cut) and starts it again on the same port
    /// with the same configuration, as a restart does; its log starts again.
    func restart() async throws {
        guard let executable = Self.executable else { throw TestFailure(Self.missing) }
        stop()
        let file = folder.path("haproxy.cfg")
        // The port was HAProxy's a moment ago; should the kernel not have let it go yet, try again.
        for _ in 0..<50 {
            let process = try PraykitProcess.Running(
                ["-db", "-f", file], environment: [:], executable: URL(fileURLWithPath: executable))
            if try await Self.waitUntilAccepting(port: port, process: process) {
                self.process = process
                ended = false
                output = ""
                return
            }
            process.kill()
            _ = try await process.wait(deadline: 30)
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("haproxy did not start again on port \(port)")
    }

    /// Checks a configuration file with `haproxy -c`.
    /// - Returns: `nil` when it is valid, else what HAProxy said.
    static func check(_ file: String) async throws -> String? {
        guard let executable else { throw TestFailure(missing) }
        let result = try await Shell.run(executable, ["-c", "-f", file])
        return result.status == 0 ? nil : result.stdout + result.stderr
    }

    /// The sync requests HAProxy sent to each server, by server name (`s1`, `s2` …), from its log so far
    /// (not those it answered itself, `<NOSRV>`, while no server was up).
    func requestsByServer() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in try log() {
            guard let match = line.firstMatch(of: /^praykit\/(s[0-9]+) [0-9-]+ \+?[0-9-]+ \S+ \/sync\//) else {
                continue
            }
            counts[String(match.1), default: 0] += 1
        }
        return counts
    }

    /// The request lines of HAProxy's log so far (`backend/server status retries method path`; retries
    /// start with `+` when the request was sent to another server).
    func log() throws -> [String] {
        let text = ended ? output : try TestFile.text(of: process.folder.appendingPathComponent("out"))
        return text.split(separator: "\n").map(String.init)
    }

    /// Stops HAProxy (SIGKILL: it keeps nothing) and returns its log.
    @discardableResult
    func stop() -> String {
        if !ended {
            process.kill()
            if let result = try? process.waitBlocking(deadline: 30) { output = result.stdout + result.stderr }
            ended = true
        }
        return output
    }

    /// Waits until `port` accepts a connection (`true`), or `process` ends or 60 s pass (`false`).
    private static func waitUntilAccepting(port: Int, process: PraykitProcess.Running) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.process.isRunning {
            if accepts(port: port) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    private static func accepts(port: Int) -> Bool {
        guard let descriptor = Loopback.connect(port: port) else { return false }
        close(descriptor)
        return true
    }
}

extension HAProxy {
    /// Whether `GET /status` through HAProxy reaches a server (200), on a thread of its own.
    func forwards() async throws -> Bool {
        let port = port
        return try await TestThread.run { Self.status(port: port) == 200 }
    }

    /// The status of `GET /status` on `127.0.0.1:port`, or `nil` without an answer.
    private static func status(port: Int) -> Int? {
        guard let descriptor = Loopback.connect(port: port) else { return nil }
        defer { close(descriptor) }
        let request = Array("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        let line = String(decoding: received.prefix { $0 != 13 }, as: UTF8.self)
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
