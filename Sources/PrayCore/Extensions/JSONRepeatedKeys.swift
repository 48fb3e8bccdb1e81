#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds a name given twice in one JSON object. RFC 8259 §4 leaves such an object's meaning to the
/// reader, and readers differ: `JSONDecoder` keeps one of the values, `jq` and Python the last. A file
/// that a person checks with one tool and PrayKit reads with another must not mean two things, so
/// what PrayKit imports is refused when one of its objects repeats a name.
package enum JSONRepeatedKeys {
    /// The first name repeated within one object of `data`, with its escapes decoded (`"a"` and
    /// `"\u0061"` are the same name), or `nil` when no object repeats one. `data` is taken to be JSON a
    /// decoder has read already: on text that is not, the answer is `nil` or any name.
    package static func first(in data: Data) -> String? {
        data.withUnsafeBytes { first(in: $0.bindMemory(to: UInt8.self)) }
    }

    /// The same over the bytes.
    private static func first(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // One entry per open container: the names of an object so far, `nil` for an array.
        var containers: [Set<[UInt8]>?] = []
        // Whether the next string of the innermost object is a name (after `{` or `,`).
        var expectingName = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "{"):
                containers.append([])
                expectingName = true
            case UInt8(ascii: "["):
                containers.append(nil)
                expectingName = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = containers.popLast()
                expectingName = false
            case UInt8(ascii: ","):
                expectingName = containers.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                guard expectingName, let last = containers.indices.last else {
                    index = end(ofStringIn: bytes, from: index)
                    continue
                }
                let (text, end) = string(in: bytes, from: index)
                index = end
                expectingName = false
                if containers[last]?.insert(text).inserted == false { return String(decoding: text, as: UTF8.self) }
            default:
                continue
            }
        }
        return nil
    }

    /// The index after the closing quote of the string whose first byte after the opening quote is at
    /// `start` (a value's: nothing of it is kept).
    private static func end(ofStringIn bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
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

    /// The UTF-8 of the string whose first byte after the opening quote is at `start`, its escapes
    /// decoded, and the index after its closing quote.
    private static func string(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> ([UInt8], Int) {
        var text: [UInt8] = []
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return (text, index) }
            guard byte == UInt8(ascii: "\\"), index < bytes.count else {
                text.append(byte)
                continue
            }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex(bytes, at: index) else { continue }
                index += 4
                // A high surrogate followed by `\u` and a low one: one scalar.
                if (0xD800..<0xDC00).contains(scalar), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u"), let low = hex(bytes, at: index + 2),
                    (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                text.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default: text.append(escaped)  // `"`, `\` and `/` stand for themselves
            }
        }
        return (text, index)
    }

    /// The four hexadecimal digits at `index`, or `nil`.
    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[index + offset])).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
