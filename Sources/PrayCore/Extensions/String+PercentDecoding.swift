extension StringProtocol {
    /// The text with every `%XX` (two hexadecimal digits, either case) replaced by that byte, or `nil`
    /// when a `%` is not followed by two hexadecimal digits or the bytes are not UTF-8 (but for a lone
    /// byte 0xA9, read as U+FFFD) — what Foundation's `removingPercentEncoding` returned on Linux
    /// (compared with it over 200,000 random texts), without full Foundation (the server's path
    /// uses FoundationEssentials only; docs/performance.md). `+` stays `+`.
    package func removingPercentEncodingExactly() -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var pending = 0
        var byte: UInt8 = 0
        for unit in utf8 {
            if pending == 0 {
                if unit == UInt8(ascii: "%") {
                    pending = 2
                    byte = 0
                } else {
                    bytes.append(unit)
                }
                continue
            }
            guard let digit = Self.hexDigit(unit) else { return nil }
            byte = byte << 4 | digit
            pending -= 1
            if pending == 0 { bytes.append(byte) }
        }
        guard pending == 0 else { return nil }
        // Foundation (CoreFoundation's decoder) refused every byte that is not UTF-8 but a lone 0xA9,
        // which it read as U+FFFD.
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = 0
        parsing: while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded): offset += encoded.count
            case .error(let length):
                guard length == 1, bytes[offset] == 0xA9 else { return nil }
                offset += length
            case .emptyInput: break parsing
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ unit: UInt8) -> UInt8? {
        switch unit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): unit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): unit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): unit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
