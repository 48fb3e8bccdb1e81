import Foundation

/// A JSON value whose object members keep their order, rendered compactly: the AlAdhan responses are
/// written member by member in AlAdhan's order, and faster than `JSONSerialization` would.
enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// JSON text rendered before (a fragment that does not change between answers).
    case raw([UInt8])

    /// A number: whole values as integers (`18`), others as the shortest decimal that reads back the
    /// same (`18.5`), as PHP's `json_encode` writes them.
    static func number(_ value: Double) -> JSONValue {
        if value.rounded() == value, abs(value) < 1e15 { return .int(Int(value)) }
        return .double(value)
    }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        case (.raw(let a), .raw(let b)): a == b
        default: false
        }
    }

    /// The compact JSON text as UTF-8 bytes, as a ``raw(_:)`` value.
    var rendered: JSONValue {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return .raw(bytes)
    }

    /// The compact JSON text as UTF-8 bytes.
    var data: Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2048)
        write(to: &bytes)
        return Data(bytes)
    }

    /// Appends the compact JSON text to `bytes`.
    func write(to bytes: inout [UInt8]) {
        switch self {
        case .string(let value): Self.write(string: value, to: &bytes)
        case .int(let value): bytes.append(contentsOf: String(value).utf8)
        case .double(let value):
            // Finite by construction (coordinates and angles are checked); a stray NaN becomes null.
            bytes.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        case .raw(let text): bytes.append(contentsOf: text)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.write(string: member.0, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.1.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string: quotes, backslashes and control characters escaped; other text as UTF-8.
    private static func write(string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let plain = string.utf8.withContiguousStorageIfAvailable { utf8 in
            !utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        if plain == true {
            bytes.append(contentsOf: string.utf8)
        } else {
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case 0..<0x20:
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), 48, 48])
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 15)])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
