import Foundation

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
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" { return true }
        if let v4 = ipv4(name) { return v4[0] == 127 }
        guard let v6 = ipv6(name) else { return false }
        return v6 == [0, 0, 0, 0, 0, 0, 0, 1]
    }

    /// The address of the client of a request that came from `peer` with the `X-Forwarded-For`
    /// field `forwardedFor`: the field's last address when `peer` is one of ``trustedProxies`` and
    /// that address is an IP address, else `peer`. Only the last is taken: a client can write any
    /// addresses before it, and only the one the trusted proxy appended is the proxy's word.
    /// - Parameters:
    ///   - peer: The address the connection came from.
    ///   - forwardedFor: The request's `X-Forwarded-For` field, if any.
    public func clientAddress(peer: String, forwardedFor: String?) -> String {
        guard !trustedProxies.isEmpty, let forwardedFor, let peerAddress = Self.canonicalAddress(peer),
            trustedProxies.contains(where: { Self.canonicalAddress($0) == peerAddress }),
            let last = forwardedFor.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
            Self.canonicalAddress(last) != nil
        else { return peer }
        return last
    }

    /// One spelling of an IP address literal, to compare two (`::ffff:127.0.0.1` is `127.0.0.1`,
    /// `0:0::1` is `::1`); `nil` for anything else.
    public static func canonicalAddress(_ text: String) -> String? {
        var name = text.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if let v4 = ipv4(name) { return v4.map(String.init).joined(separator: ".") }
        guard let v6 = ipv6(name) else { return nil }
        if v6[0..<5].allSatisfy({ $0 == 0 }), v6[5] == 0xFFFF {
            return [v6[6] >> 8, v6[6] & 0xFF, v6[7] >> 8, v6[7] & 0xFF].map(String.init).joined(separator: ".")
        }
        return v6.map { String($0, radix: 16) }.joined(separator: ":")
    }

    // MARK: - Helpers

    /// The four bytes of a dotted-decimal IPv4 address (`127.0.0.1`; no shortened or octal forms).
    private static func ipv4(_ text: some StringProtocol) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let bytes = parts.compactMap { part -> UInt8? in
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber),
                part == "0" || !part.hasPrefix("0")
            else { return nil }
            return UInt8(part)
        }
        return bytes.count == 4 ? bytes : nil
    }

    /// The eight 16-bit groups of an IPv6 address (RFC 4291 §2.2: `::` once, a dotted IPv4 tail).
    private static func ipv6(_ text: String) -> [UInt16]? {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let v4 = ipv4(piece) {
                    result += [UInt16(v4[0]) << 8 | UInt16(v4[1]), UInt16(v4[2]) << 8 | UInt16(v4[3])]
                } else {
                    guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit),
                        let value = UInt16(piece, radix: 16)
                    else { return nil }
                    result.append(value)
                }
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
