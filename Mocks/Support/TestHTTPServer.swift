import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests: it listens on a free port, answers each request
/// with what the test's handler says (a response or a scripted fault), records the requests, and
/// stops when told or released. Nothing leaves the machine.
///
/// ```swift
/// let server = try TestHTTPServer { request in
///     request.path.hasPrefix("/v1/") ? .respond(status: 200, body: Data("{}".utf8)) : .respond(status: 404)
/// }
/// defer { server.stop() }
/// let url = server.url("/v1/calendar/2026/11")
/// ```
public final class TestHTTPServer: Sendable {
    /// A request as the server read it.
    public struct Request: Sendable {
        /// `GET`, `POST`, …
        public let method: String
        /// The path with its query: `/v1/calendar/2026/11?latitude=21.4`.
        public let path: String
        /// Header fields, names in lower case.
        public let headers: [String: String]
        /// The body.
        public let body: Data
    }

    /// A `.hang` reply, from the request to the moment the client gave up (closed the connection).
    /// Measured on the server's own thread, so it shows the client's timeout or cancellation
    /// however busy the test's threads are.
    public struct Hang: Sendable {
        /// When the request was read.
        public let began: Date
        /// When the client closed the connection.
        public let ended: Date
        /// How long the client waited, seconds.
        public var duration: TimeInterval { ended.timeIntervalSince(began) }
    }

    /// What the server does with a request.
    public enum Reply: Sendable {
        /// A complete response (`Content-Length` is added).
        case respond(status: Int, headers: [String: String] = [:], body: Data = Data())
        /// Closes the connection without answering.
        case close
        /// Never answers (until the server stops), so the client times out.
        case hang
        /// Declares `declaredLength` bytes of body, sends `body` (fewer), and closes.
        case truncated(status: Int, declaredLength: Int, body: Data)
        /// A response without `Content-Length`: the body ends when the connection closes.
        case unsized(status: Int, body: Data)
    }

    /// The port it listens on.
    public let port: Int
    private let socket: Int32
    private let handler: @Sendable (Request) -> Reply
    private typealias State = (requests: [Request], stopped: Bool, gone: Bool, connections: [Int32], hangs: [Hang])
    private let state = Mutex<State>(([], false, false, [], []))

    /// Starts a server.
    /// - Parameter handler: Decides the reply to each request; called on the server's threads.
    /// - Throws: `POSIXError` when no socket can be opened.
    public convenience init(handler: @escaping @Sendable (Request) -> Reply) throws {
        try self.init(listening: true, handler: handler)
    }

    /// A server that is gone: a port that refuses every connection. It is bound without
    /// `SO_REUSEADDR` and never listens, so it stays reserved — no other test's server can be given
    /// it — until ``stop()``. (A stopped server's port, by contrast, may be handed out again at once.)
    /// - Throws: `POSIXError` when no socket can be opened.
    public static func refusingConnections() throws -> TestHTTPServer {
        try TestHTTPServer(listening: false) { _ in .close }
    }

    private init(listening: Bool, handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        #if canImport(Glibc)
            let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        if listening {
            var reuse: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, !listening || listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        socket = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        guard listening else { return }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "TestHTTPServer"
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:port` followed by `path`.
    public func url(_ path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The requests received, oldest first.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// The `.hang` replies whose client gave up, in the order they ended.
    public var hangs: [Hang] { state.withLock { $0.hangs } }

    /// Waits until at least `count` requests have arrived, and returns the requests.
    ///
    /// The server sees a request on its own thread, some time after the client sent it; wait for
    /// the event rather than for a length of time. `limit` only keeps a broken client from hanging
    /// the test run: it is not a measure of speed, and the caller checks what it got.
    public func requests(atLeast count: Int, limit: TimeInterval = 120) async -> [Request] {
        await wait(limit: limit) { $0.requests.count >= count }
        return requests
    }

    /// Waits until at least `count` `.hang` replies have seen their client give up, and returns them.
    ///
    /// A client that gives up (a timeout, a cancelled task) has closed its connection when its call
    /// returns, but the server notices on its own thread a moment later; wait for that event. As in
    /// ``requests(atLeast:limit:)``, `limit` only keeps a broken client from hanging the test run.
    public func hangs(atLeast count: Int, limit: TimeInterval = 120) async -> [Hang] {
        await wait(limit: limit) { $0.hangs.count >= count }
        return hangs
    }

    private func wait(limit: TimeInterval, until done: (State) -> Bool) async {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(limit)
        while !state.withLock({ done($0) }), clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Plays a server that has gone away: from now on every connection is reset as soon as it is
    /// accepted, while the port stays taken, so no other test's server can be given it and answer in
    /// its place (a stopped server's port may be handed out again at once). ``stop()`` still ends it.
    public func goAway() {
        state.withLock { $0.gone = true }
    }

    /// Stops listening and closes every open connection (hanging ones included).
    public func stop() {
        let connections = state.withLock { state -> [Int32]? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.connections
        }
        // Only once: a second close could close a descriptor number the system has given out again.
        guard let connections else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        while !isStopped {
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else {
                if isStopped { return }
                continue
            }
            #if canImport(Darwin)
                var noSignal: Int32 = 1
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let gone = state.withLock { state in
                if !state.gone { state.connections.append(connection) }
                return state.gone
            }
            if gone {
                // A zero linger time makes close send a reset, as a host with nothing listening does.
                var reset = linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
                close(connection)
                continue
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer {
            close(connection)
            state.withLock { $0.connections.removeAll { $0 == connection } }
        }
        guard let request = read(connection) else { return }
        state.withLock { $0.requests.append(request) }
        switch handler(request) {
        case .respond(let status, let headers, let body):
            write(connection, head(status, headers, length: body.count) + body)
        case .close:
            return
        case .hang:
            let began = Date()
            var buffer = [UInt8](repeating: 0, count: 1024)
            while !isStopped {
                var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 10) > 0 else { continue }
                // Readable with nothing to read: the client closed its end.
                if recv(connection, &buffer, buffer.count, 0) <= 0 {
                    let hang = Hang(began: began, ended: Date())
                    state.withLock { $0.hangs.append(hang) }
                    return
                }
            }
        case .truncated(let status, let declaredLength, let body):
            write(connection, head(status, [:], length: declaredLength) + body)
        case .unsized(let status, let body):
            write(connection, head(status, [:], length: nil) + body)
        }
    }

    private func head(_ status: Int, _ headers: [String: String], length: Int?) -> Data {
        var text =
            "HTTP/1.1 \(status) Status\r\n" + (length.map { "Content-Length: \($0)\r\n" } ?? "")
            + "Connection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Data((text + "\r\n").utf8)
    }

    private func write(_ connection: Int32, _ data: Data) {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                    let sent = send(connection, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                #else
                    // Darwin has no MSG_NOSIGNAL: the accept loop sets SO_NOSIGPIPE on the socket.
                    let sent = send(connection, base + offset, bytes.count - offset, 0)
                #endif
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes of body.
    private func read(_ connection: Int32) -> Request? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            data.append(contentsOf: buffer[0..<count])
            headEnd = data.range(of: separator)
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = data[headEnd.upperBound...]
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < length {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            body.append(contentsOf: buffer[0..<count])
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: Data(body))
    }
}
