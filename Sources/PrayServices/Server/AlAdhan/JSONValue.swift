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
        default: false
        }
    }

    /// The compact JSON text as UTF-8 bytes.
    var data: Data {
        var text = ""
        text.reserveCapacity(2048)
        write(to: &text)
        return Data(text.utf8)
    }

    /// Appends the compact JSON text to `text`.
    func write(to text: inout String) {
        switch self {
        case .string(let value): Self.write(string: value, to: &text)
        case .int(let value): text += String(value)
        case .double(let value):
            // Finite by construction (coordinates and angles are checked); a stray NaN becomes null.
            text += value.isFinite ? "\(value)" : "null"
        case .bool(let value): text += value ? "true" : "false"
        case .null: text += "null"
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                Self.write(string: member.0, to: &text)
                text += ":"
                member.1.write(to: &text)
            }
            text += "}"
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped; other text as UTF-8.
    private static func write(string: String, to text: inout String) {
        text += "\""
        let needsEscaping = string.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
        guard needsEscaping else {
            text += string
            text += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
