import Foundation
import PrayCore
import PrayMocks
import PrayServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Many raw connections to one server, read together on a thread of their own with `poll`: the event
/// streams of many paired devices (`GET /sync/v1/events`), or idle connections from another loopback
/// address. It notes, for each, whether its stream began (a `space` event came) and whether the server
/// ended it (the last chunk, or the connection closed).
final class StreamCrowd: @unchecked Sendable {
    private struct Connection {
        var text = ""
        var began = false
        var ended = false
    }

    private let sockets: [Int32]
    private let state: Mutex<[Connection]>
    private let stopped = Atomic<Bool>(false)

    private init(sockets: [Int32]) {
        self.sockets = sockets
        state = Mutex(Array(repeating: Connection(), count: sockets.count))
        let thread = Thread { [self] in readLoop() }
        thread.name = "praykit-test-crowd"
        thread.start()
    }

    deinit { close() }

    /// `perDevice` event streams for each of `tokens`, to `127.0.0.1:port`.
    static func streams(port: Int, tokens: [String], perDevice: Int) throws -> StreamCrowd {
        raiseOpenFileLimit(by: tokens.count * perDevice)
        var sockets: [Int32] = []
        for token in tokens {
            for _ in 0..<perDevice {
                guard let socket = Loopback.connect(port: port) else {
                    sockets.forEach { Glibc.close($0) }
                    throw TestFailure("the server refused stream \(sockets.count + 1)")
                }
                let head = "GET /sync/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
                _ = head.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                sockets.append(socket)
            }
        }
        return StreamCrowd(sockets: sockets)
    }

    /// `count` connections to `127.0.0.1:port` from `address` (another loopback address, such as
    /// `127.0.0.2`), which send nothing.
    static func connections(port: Int, count: Int, from address: String) throws -> StreamCrowd {
        raiseOpenFileLimit(by: count)
        var sockets: [Int32] = []
        for _ in 0..<count {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else {
                sockets.forEach { Glibc.close($0) }
                throw TestFailure("no socket: \(String(cString: strerror(errno)))")
            }
            sockets.append(socket)
            var source = sockaddr_in()
            source.sin_family = sa_family_t(AF_INET)
            source.sin_addr.s_addr = inet_addr(address)
            var target = sockaddr_in()
            target.sin_family = sa_family_t(AF_INET)
            target.sin_port = in_port_t(UInt16(port).bigEndian)
            target.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &source) { from in
                withUnsafePointer(to: &target) { to in
                    from.withMemoryRebound(to: sockaddr.self, capacity: 1) { from in
                        to.withMemoryRebound(to: sockaddr.self, capacity: 1) { to in
                            bind(socket, from, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                                && connect(socket, to, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                        }
                    }
                }
            }
            guard connected else {
                sockets.forEach { Glibc.close($0) }
                throw TestFailure("connection \(sockets.count) from \(address): \(String(cString: strerror(errno)))")
            }
        }
        return StreamCrowd(sockets: sockets)
    }

    /// Raises this process's soft limit of open files by `count` and a margin (within the hard limit),
    /// where a machine's default (often 1,024) would not hold the crowd.
    private static func raiseOpenFileLimit(by count: Int) {
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        let wanted = rlim_t(count + 1_024)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(limit.rlim_max, wanted)
        _ = setrlimit(resource, &limit)
    }

    /// How many connections there are.
    var count: Int { sockets.count }
    /// How many streams began (a `space` event came).
    var began: Int { state.withLock { $0.count(where: \.began) } }
    /// How many the server ended.
    var ended: Int { state.withLock { $0.count(where: \.ended) } }

    /// Waits until `condition` holds of the crowd, or two minutes pass (a guard against a hang, not a
    /// measure); whether it holds.
    func wait(until condition: @escaping @Sendable (StreamCrowd) -> Bool) async throws -> Bool {
        let guardTime = ContinuousClock.now + .seconds(120)
        while !condition(self), ContinuousClock.now < guardTime { try await Task.sleep(for: .milliseconds(20)) }
        return condition(self)
    }

    /// Closes every connection.
    func close() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // The reader stops within one poll; the sockets are closed once it has.
        while reading.load(ordering: .acquiring) { usleep(1000) }
        for socket in sockets { Glibc.close(socket) }
    }

    private let reading = Atomic<Bool>(true)

    private func readLoop() {
        defer { reading.store(false, ordering: .releasing) }
        var descriptors = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !stopped.load(ordering: .acquiring) {
            guard poll(&descriptors, nfds_t(descriptors.count), 50) > 0 else { continue }
            for index in descriptors.indices where descriptors[index].revents != 0 {
                let count = recv(descriptors[index].fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count < 0, errno == EAGAIN || errno == EINTR { continue }
                let piece = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
                state.withLock { connections in
                    var connection = connections[index]
                    if connection.text.utf8.count < 8 * 1024 { connection.text += piece }
                    connection.began = connection.began || connection.text.contains("event: space")
                    connection.ended = count <= 0 || connection.text.hasSuffix("0\r\n\r\n")
                    connections[index] = connection
                }
                // A connection that ended is not polled again (its descriptor stays open until close).
                if count <= 0 { descriptors[index].fd = -descriptors[index].fd - 1 }
            }
        }
    }
}
