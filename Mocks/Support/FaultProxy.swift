import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP proxy for tests that stands between a client and a server and does to each
/// request what a bad network does: refuse it, hold it, reset it before it reaches the server,
/// forward it and lose the answer, or forward it twice at once. The faults come from a seeded plan,
/// so a failing run can be repeated. Nothing leaves the machine.
///
/// ```swift
/// let proxy = try FaultProxy(upstream: server.port, seed: 7, faults: [.dropAnswer: 0.2, .resetBeforeForwarding: 0.1])
/// // point the client at proxy.url … later:
/// proxy.heal()                    // every request goes through from now on
/// #expect(proxy.counts[.dropAnswer, default: 0] > 0)
/// ```
public final class FaultProxy: Sendable {
    /// What the proxy does to one request.
    public enum Fault: String, CaseIterable, Hashable, Sendable {
        /// Forwards it and relays the answer.
        case none
        /// Closes the connection at once: the server never sees the request.
        case resetBeforeForwarding
        /// Waits a moment, then forwards it.
        case delay
        /// Forwards it, lets the server answer, and closes the connection without relaying the
        /// answer: the server changed, the client cannot know.
        case dropAnswer
        /// Forwards it twice at the same time and relays one of the answers.
        case forwardTwice
        /// Refuses it as a partitioned network does (the connection is closed unanswered) — kept
        /// apart from ``resetBeforeForwarding`` only in the counts, for partitions.
        case partitioned
    }

    private let server: TestHTTPServer
    private let upstream: Int
    private let plan: Plan
    private let delay: TimeInterval

    /// Starts a proxy in front of `127.0.0.1:upstream`.
    /// - Parameters:
    ///   - upstream: The server's port.
    ///   - seed: The seed of the plan.
    ///   - faults: The chance of each fault per request; the rest go through.
    ///   - delay: How long ``Fault/delay`` holds a request, seconds (only ever a fault: nothing
    ///     measures it).
    /// - Throws: `POSIXError` when no socket can be opened.
    public init(upstream: Int, seed: UInt64, faults: [Fault: Double] = [:], delay: TimeInterval = 0.05) throws {
        self.upstream = upstream
        self.delay = delay
        let plan = Plan(seed: seed, faults: faults)
        self.plan = plan
        server = try TestHTTPServer { [upstream, delay] request in
            let fault = plan.state.withLock { state -> Fault in
                let fault = state.partitioned ? Fault.partitioned : Self.draw(&state.generator, state.faults)
                state.counts[fault, default: 0] += 1
                return fault
            }
            return Self.handle(request, fault: fault, upstream: upstream, delay: delay)
        }
    }

    /// `http://127.0.0.1:port`, the address to give the client.
    public var url: URL { server.url("") }

    /// The port the proxy listens on.
    public var port: Int { server.port }

    /// How many requests met each fault.
    public var counts: [Fault: Int] { plan.state.withLock { $0.counts } }

    /// Changes the chances of the faults from now on.
    public func setFaults(_ faults: [Fault: Double]) {
        plan.state.withLock { $0.faults = faults }
    }

    /// Cuts the client off from the server (every request closed unanswered) or joins them again.
    public func setPartitioned(_ partitioned: Bool) {
        plan.state.withLock { $0.partitioned = partitioned }
    }

    /// No faults from now on.
    public func heal() {
        plan.state.withLock { state in
            state.faults = [:]
            state.partitioned = false
        }
    }

    /// Stops listening.
    public func stop() { server.stop() }

    private static func draw(_ generator: inout SeededGenerator, _ faults: [Fault: Double]) -> Fault {
        var roll = Double(generator.next() >> 11) / Double(1 << 53)
        for fault in Fault.allCases where fault != .none {
            let chance = faults[fault] ?? 0
            if roll < chance { return fault }
            roll -= chance
        }
        return .none
    }

    private static func handle(
        _ request: TestHTTPServer.Request, fault: Fault, upstream: Int, delay: TimeInterval
    ) -> TestHTTPServer.Reply {
        switch fault {
        case .resetBeforeForwarding, .partitioned:
            return .close
        case .delay:
            Thread.sleep(forTimeInterval: delay)
            return forward(request, upstream: upstream).map(reply) ?? .close
        case .none:
            return forward(request, upstream: upstream).map(reply) ?? .close
        case .dropAnswer:
            _ = forward(request, upstream: upstream)
            return .close
        case .forwardTwice:
            let answers = Mutex<[Answer]>([])
            let group = DispatchGroup()
            for _ in 0..<2 {
                group.enter()
                Thread {
                    if let answer = forward(request, upstream: upstream) { answers.withLock { $0.append(answer) } }
                    group.leave()
                }.start()
            }
            group.wait()
            return answers.withLock { $0.first }.map(reply) ?? .close
        }
    }

    /// The faults to come and those met.
    private final class Plan: Sendable {
        let state: Mutex<(generator: SeededGenerator, faults: [Fault: Double], partitioned: Bool, counts: [Fault: Int])>

        init(seed: UInt64, faults: [Fault: Double]) {
            state = Mutex((SeededGenerator(seed: seed), faults, false, [:]))
        }
    }

    /// An upstream answer.
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    private static func reply(_ answer: Answer) -> TestHTTPServer.Reply {
        var headers = answer.headers
        for name in ["content-length", "connection", "transfer-encoding"] { headers.removeValue(forKey: name) }
        return .respond(status: answer.status, headers: headers, body: answer.body)
    }

    /// Sends the request to the server on a new connection and reads the whole answer (the request
    /// says `Connection: close`), or `nil` when the server cannot be reached.
    private static func forward(_ request: TestHTTPServer.Request, upstream: Int) -> Answer? {
        guard let descriptor = Loopback.connect(port: upstream) else { return nil }
        defer { close(descriptor) }
        var head = "\(request.method) \(request.path) HTTP/1.1\r\n"
        for (name, value) in request.headers where !["connection", "content-length", "host"].contains(name) {
            head += "\(name): \(value)\r\n"
        }
        head += "Host: 127.0.0.1:\(upstream)\r\nContent-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = [UInt8](Data(head.utf8) + request.body)
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
                let sent = bytes[offset...].withUnsafeBytes {
                    send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
            #else
                let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            #endif
            guard sent > 0 else { return nil }
            offset += sent
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return parse(received)
    }

    /// Reads a response with `Content-Length` (or one ended by the close).
    private static func parse(_ data: Data) -> Answer? {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if let length = headers["content-length"].flatMap(Int.init), body.count >= length {
            body = body.prefix(length)
        }
        return Answer(status: status, headers: headers, body: body)
    }
}
