#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ServerAPI.Configuration {
    /// Whether the server listens on this machine only: ``host`` is `localhost`, an IPv4 address in
    /// 127.0.0.0/8 or the IPv6 loopback `::1` (in any of its spellings). Decided on the parsed
    /// address, never on how the text begins; `0.0.0.0`, `::` and every other address are reachable
    /// from elsewhere. A server that is not loopback-only must not carry tokens over plain HTTP
    /// (SYNC.md §7).
    public var listensOnLoopbackOnly: Bool {
        Self.isLoopbackAddress(host)
    }

    /// Whether `host` is `localhost` or a loopback IP address literal (see ``listensOnLoopbackOnly``).
    public static func isLoopbackAddress(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        // The address as written: `::ffff:127.0.0.1` is an IPv6 socket's address, not loopback-only.
        switch IPAddress(parsing: host) {
        case .v4(let bytes)?: return bytes[0] == 127
        case .v6(let bytes)?: return bytes == [UInt8](repeating: 0, count: 15) + [1]
        case nil: return false
        }
    }

    /// The address of the client of a request that came from `peer` with the `X-Forwarded-For`
    /// field `forwardedFor`: the field's last address when `peer` is one of ``trustedProxies`` and
    /// that address is an IP address, else `peer` — in its one spelling (``canonicalAddress(_:)``)
    /// when it is an IP address. Only the last is taken: a client can write any addresses before it,
    /// and only the one the trusted proxy appended is the proxy's word.
    /// - Parameters:
    ///   - peer: The address the connection came from.
    ///   - forwardedFor: The request's `X-Forwarded-For` field, if any.
    public func clientAddress(peer: String, forwardedFor: String?) -> String {
        let canonicalPeer = Self.canonicalAddress(peer)
        guard !trustedProxies.isEmpty, let forwardedFor, let canonicalPeer,
            trustedProxies.contains(where: { Self.canonicalAddress($0) == canonicalPeer }),
            let last = forwardedFor.split(separator: ",").last?.trimmingWhitespace(),
            let forwarded = Self.canonicalAddress(last)
        else { return canonicalPeer ?? peer }
        return forwarded
    }

    /// One spelling of an IP address literal, to compare two and to count by: an IPv4 address in
    /// dotted decimal, an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `0:0:0:0:0:ffff:7f00:1`) as
    /// its IPv4 address, any other IPv6 address as `inet_ntop` writes it (lower case, the longest run
    /// of zero groups as `::`); brackets around an IPv6 address are dropped. `nil` for anything else
    /// (a name, a shortened or octal IPv4 form, a zone index). Parsed with `inet_pton`.
    public static func canonicalAddress(_ text: String) -> String? {
        // The common case, the server's every request: an IPv4 address as `inet_ntop` writes it, which
        // is its own spelling (parsing and writing it again cost 6,000 instructions).
        if isDottedQuad(text) { return text }
        return IPAddress(parsing: text)?.unmapped.text
    }

    /// Whether `text` is an IPv4 address in the dotted decimal `inet_ntop` writes: four numbers to 255
    /// without leading zeros.
    static func isDottedQuad(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard (7...15).contains(bytes.count) else { return false }
            var parts = 0
            var value = 0
            var digits = 0
            for byte in bytes {
                if byte == UInt8(ascii: ".") {
                    guard digits > 0 else { return false }
                    (parts, value, digits) = (parts + 1, 0, 0)
                    continue
                }
                let digit = Int(byte &- UInt8(ascii: "0"))
                // At most three digits, no leading zero, at most 255.
                guard digit < 10, digit >= 0, digits < 3, digits == 0 || value != 0 else { return false }
                (value, digits) = (value * 10 + digit, digits + 1)
                guard value <= 255 else { return false }
            }
            return parts == 3 && digits > 0
        }
    }

    /// The key under which the server counts a client — failed tokens and pairing codes, connections
    /// per address: ``canonicalAddress(_:)`` for IPv4 (an IPv4-mapped IPv6 address included), and the
    /// /64 network of an IPv6 address (`2001:db8:1:2::/64`), which is what one subscriber gets (RFC
    /// 6177): a client that picks a new address in its /64 for each request is still counted once.
    /// Text that is not an IP address (an unknown peer, a test's name) is its own key, cut to 100
    /// bytes so that it cannot fill a table with long keys.
    ///
    /// ```swift
    /// ServerAPI.Configuration.addressKey("::FFFF:192.0.2.7")        // "192.0.2.7"
    /// ServerAPI.Configuration.addressKey("2001:db8:0:1:aaaa::7")    // "2001:db8:0:1::/64"
    /// ```
    public static func addressKey(_ text: String) -> String {
        if isDottedQuad(text) { return text }
        guard let address = IPAddress(parsing: text)?.unmapped else {
            return String(decoding: text.utf8.prefix(100), as: UTF8.self)
        }
        switch address {
        case .v4: return address.text
        case .v6(let bytes): return IPAddress.v6(Array(bytes.prefix(8)) + [UInt8](repeating: 0, count: 8)).text + "/64"
        }
    }
}

/// An IP address parsed by `inet_pton`: four bytes, or sixteen.
private enum IPAddress: Equatable {
    case v4([UInt8])
    case v6([UInt8])

    /// Parses an address literal, with or without brackets around an IPv6 address; `nil` for anything
    /// else (at most 64 bytes are looked at: no address is longer).
    init?(parsing text: String) {
        var name = Substring(text)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        guard !name.isEmpty, name.utf8.count <= 64, !name.utf8.contains(0) else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(name), &v4) == 1 {
            self = .v4(withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, String(name), &v6) == 1 else { return nil }
        self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
    }

    /// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) as its IPv4 address; any
    /// other as it is.
    var unmapped: IPAddress {
        guard case .v6(let bytes) = self, bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF,
            bytes[11] == 0xFF
        else { return self }
        return .v4(Array(bytes.suffix(4)))
    }

    /// The address as `inet_ntop` writes it.
    var text: String {
        let (family, bytes): (Int32, [UInt8]) =
            switch self {
            case .v4(let bytes): (AF_INET, bytes)
            case .v6(let bytes): (AF_INET6, bytes)
            }
        // INET6_ADDRSTRLEN (46) bytes hold any address as text.
        var buffer = [CChar](repeating: 0, count: 64)
        let written = bytes.withUnsafeBytes { source in
            inet_ntop(family, source.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
