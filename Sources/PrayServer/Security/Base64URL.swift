/// Base64 with the URL- and file-safe alphabet of RFC 4648 §5 (`-` and `_` for `+` and `/`) and no
/// `=` padding: the form of device tokens (`pkd_…`).
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The text of `bytes`: 4 characters for every 3 bytes, 2 or 3 for a last partial group.
    package static func encode(_ bytes: [UInt8]) -> String {
        var text = [UInt8]()
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let first = UInt32(bytes[index])
            let second = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let third = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let group = first << 16 | second << 8 | third
            let remaining = bytes.count - index
            let characters = remaining >= 3 ? 4 : remaining + 1
            for position in 0..<characters {
                text.append(alphabet[Int((group >> UInt32(18 - 6 * position)) & 63)])
            }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a text ``encode(_:)`` wrote, or `nil` for a character outside the alphabet, `=`,
    /// a length no encoding has (1 more than a multiple of 4), or unused bits that are not zero.
    package static func decode(_ text: String) -> [UInt8]? {
        var values = [UInt8]()
        values.reserveCapacity(text.utf8.count)
        for character in text.utf8 {
            guard let value = value(of: character) else { return nil }
            values.append(value)
        }
        guard values.count % 4 != 1 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let count = min(4, values.count - index)
            var group: UInt32 = 0
            for position in 0..<4 {
                group = group << 6 | UInt32(position < count ? values[index + position] : 0)
            }
            let byteCount = count - 1
            // A last partial group must leave its unused low bits zero (RFC 4648 §3.5: canonical).
            if count < 4, group & ((1 << UInt32(8 * (3 - byteCount))) - 1) != 0 { return nil }
            for position in 0..<byteCount {
                bytes.append(UInt8(truncatingIfNeeded: group >> UInt32(16 - 8 * position)))
            }
            index += 4
        }
        return bytes
    }

    /// Whether `text` uses only the alphabet's characters.
    package static func isAlphabet(_ text: String) -> Bool {
        text.utf8.allSatisfy { value(of: $0) != nil }
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
