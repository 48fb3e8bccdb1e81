/// Reads one JSON string (RFC 8259 §7) out of a text's bytes, escapes decoded: what the sync server's
/// reader of a value's leaves and ``JSONRepeatedKeys`` both read strings with.
package enum JSONStringText {
    /// The string whose first byte after the opening quote is at `index`, which is moved past the
    /// closing quote; `nil` for one that is not JSON (a control character, a bad escape, a lone
    /// surrogate, text that is not UTF-8, no closing quote).
    package static func read(_ bytes: [UInt8], at index: inout Int) -> String? {
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(validating: text, as: UTF8.self)
            case 0..<0x20: return nil
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape(bytes, at: &index) else { return nil }
                    text.append(contentsOf: String(scalar).utf8)
                default: return nil
                }
            default: text.append(byte)
            }
        }
        return nil
    }

    /// The index after the closing quote of the string whose first byte after the opening quote is at
    /// `start`, nothing of it kept (a value's, where only its end matters).
    package static func end(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return index
    }

    /// The scalar of `\uXXXX` (after the `u`), a surrogate pair's second half included.
    private static func unicodeEscape(_ bytes: [UInt8], at index: inout Int) -> Unicode.Scalar? {
        guard let high = hex4(bytes, at: &index) else { return nil }
        guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
        guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { return nil }
        index += 2
        guard let low = hex4(bytes, at: &index), (0xDC00...0xDFFF).contains(low) else { return nil }
        return Unicode.Scalar((high - 0xD800) * 0x400 + (low - 0xDC00) + 0x10000)
    }

    /// Four hexadecimal digits at `index` (no sign), which is moved past them.
    private static func hex4(_ bytes: [UInt8], at index: inout Int) -> UInt32? {
        guard index + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
            bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { return nil }
        index += 4
        return value
    }
}
