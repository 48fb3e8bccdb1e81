#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// Tells systemd that a service is ready, as `sd_notify(3)` does, without libsystemd: one datagram
/// (`READY=1`) to the `AF_UNIX` socket that `$NOTIFY_SOCKET` names — a path, or `@name` for the
/// abstract namespace. systemd sets the variable for a unit of `Type=notify`, whose dependents
/// (`After=`) then start only once the server listens; elsewhere there is no variable and nothing is
/// sent.
enum SystemdNotify {
    /// Why a notification could not be sent.
    struct Failure: Error, CustomStringConvertible {
        /// What failed, for the warning.
        let description: String
    }

    /// Sends `state` (such as `READY=1`) to the socket of `$NOTIFY_SOCKET` in `environment`.
    /// - Returns: whether a socket was named (`false`: nothing to do).
    /// - Throws: ``Failure`` when the name is not a usable socket address or the datagram was not sent.
    @discardableResult
    static func send(_ state: String, environment: [String: String]) throws -> Bool {
        guard let name = environment["NOTIFY_SOCKET"], !name.isEmpty else { return false }
        #if os(Linux)
            var path = Array(name.utf8)
            if path.first == UInt8(ascii: "@") {
                path[0] = 0  // the abstract namespace: a leading NUL, no terminating one
            } else if path.first != UInt8(ascii: "/") {
                throw Failure(description: "NOTIFY_SOCKET is neither a path nor @name")
            }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let capacity = MemoryLayout.size(ofValue: address.sun_path)
            guard path.count < capacity else { throw Failure(description: "NOTIFY_SOCKET is too long") }
            withUnsafeMutableBytes(of: &address.sun_path) { bytes in
                bytes.copyBytes(from: path)
            }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
            let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
            defer { close(socket) }
            let message = Array(state.utf8)
            let sent = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(socket, message, message.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
            guard sent == message.count else {
                throw Failure(description: "\(name): \(String(cString: strerror(errno)))")
            }
            return true
        #else
            return false
        #endif
    }
}
