import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plain TCP to this machine for tests that speak HTTP by hand: a proxy forwarding to a server, a
/// client sending a deliberately odd request, a probe for a port that accepts, a free port for a
/// program that cannot choose its own.
///
/// ```swift
/// guard let socket = Loopback.connect(port: server.port) else { … }   // nothing listens there
/// defer { close(socket) }
/// ```
public enum Loopback {
    /// A socket connected to `127.0.0.1:port`, for the caller to close; `nil` when nothing accepts
    /// there (or no socket can be opened).
    public static func connect(port: Int) -> Int32? {
        guard let descriptor = tcpSocket() else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                    Darwin.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard result == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// A port of `127.0.0.1` nothing listens on now (the system's choice for port 0), for a program
    /// that cannot be told to choose one itself; `nil` when no socket can be bound. Never the same port
    /// twice in a process: once closed, the system may choose a port again for the next caller, and two
    /// tests running side by side would share it (a second broker failing to bind it looks started
    /// while the first answers there). Another process may still take it before the program binds it:
    /// a caller that can tell tries another.
    public static func freePort() -> Int? {
        for _ in 0..<64 {
            guard let (descriptor, port) = listener(backlog: 1) else { return nil }
            close(descriptor)
            if handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
        return nil
    }

    /// The ports ``freePort()`` has handed out in this process.
    private static let handedOut = Mutex<Set<Int>>([])

    /// A socket listening on `127.0.0.1` at a port the system chose, for the caller to accept on and
    /// close, and its port; `nil` when none can be opened.
    /// - Parameter backlog: The connections the system keeps waiting to be accepted.
    public static func listener(backlog: Int32) -> (socket: Int32, port: Int)? {
        guard let descriptor = tcpSocket() else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, backlog) == 0
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            return nil
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A new TCP socket of IPv4, or `nil`.
    private static func tcpSocket() -> Int32? {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        return descriptor >= 0 ? descriptor : nil
    }
}
