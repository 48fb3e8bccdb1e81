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
