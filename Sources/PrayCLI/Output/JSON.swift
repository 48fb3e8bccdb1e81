import PrayCore

/// A JSON value with ordered object keys, so output follows the documented field order. The one JSON
/// writer of every command.
indirect enum JSON {
    case null
    case bool(Bool)
    case int(Int)
    /// A finite number: made by ``number(_:)``, which turns NaN and infinities into `null`.
    case finite(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// A number, or `null` for NaN and infinities (which JSON cannot hold).
    static func number(_ value: Double?) -> JSON {
        guard let value, value.isFinite else { return .null }
        return .finite(value)
    }

    /// A string, or `null`.
    static func string(_ value: String?) -> JSON {
        value.map { .string($0) } ?? .null
    }

    /// Writes an object whose members are `head` and then `key` holding an array of `items`, item by
    /// item, so that a long array is never held whole in memory as text.
    static func writeObject<Items: Sequence<JSON>>(
        _ head: [(String, JSON)], streaming key: String, items: Items, to output: OutputSink
    ) throws(CLIError) {
        var text = "{\n"
        for (name, value) in head {
            text += "  "
            escape(name, into: &text)
            text += ": " + value.rendered(indent: 1) + ",\n"
        }
        text += "  "
        escape(key, into: &text)
        text += ": ["
        try output.write(text)
        var first = true
        for item in items {
            try output.write((first ? "\n    " : ",\n    ") + item.rendered(indent: 2))
            first = false
        }
        try output.write(first ? "]\n}\n" : "\n  ]\n}\n")
    }

    /// Writes an array item by item.
    static func writeArray<Items: Sequence<JSON>>(_ items: Items, to output: OutputSink) throws(CLIError) {
        var first = true
        try output.write("[")
        for item in items {
            try output.write((first ? "\n  " : ",\n  ") + item.rendered(indent: 1))
            first = false
        }
        try output.write(first ? "]\n" : "\n]\n")
    }

    /// The text on one line without spaces, as status bars read it.
    func compactRendered() -> String {
        switch self {
        case .array(let values): return "[" + values.map { $0.compactRendered() }.joined(separator: ",") + "]"
        case .object(let members):
            return "{"
                + members.map { key, value in
                    var text = ""
                    Self.escape(key, into: &text)
                    return text + ":" + value.compactRendered()
                }.joined(separator: ",") + "}"
        default: return rendered()
        }
    }

    /// The text, indented by two spaces per level, one array item or object member per line.
    func rendered(indent: Int = 0) -> String {
        var output = ""
        write(to: &output, indent: indent)
        return output
    }

    private func write(to output: inout String, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .finite(let value): output += value.isFinite ? value.formattedCompactly : "null"
        case .string(let value): Self.escape(value, into: &output)
        case .array(let values):
            Self.write(values.map { (nil, $0) }, open: "[", close: "]", to: &output, indent: indent)
        case .object(let members):
            Self.write(members.map { ($0.0, $0.1) }, open: "{", close: "}", to: &output, indent: indent)
        }
    }

    /// Writes an array (items without keys) or an object, one item per line.
    private static func write(
        _ items: [(key: String?, value: JSON)], open: String, close: String, to output: inout String, indent: Int
    ) {
        guard !items.isEmpty else {
            output += open + close
            return
        }
        let inner = String(repeating: "  ", count: indent + 1)
        output += open + "\n"
        for (index, item) in items.enumerated() {
            output += inner
            if let key = item.key {
                escape(key, into: &output)
                output += ": "
            }
            item.value.write(to: &output, indent: indent + 1)
            output += index == items.count - 1 ? "\n" : ",\n"
        }
        output += String(repeating: "  ", count: indent) + close
    }

    /// Writes a JSON string literal (RFC 8259 §7): quotes, backslashes and control characters escaped —
    /// DEL and C1 too, which JSON allows raw, so that the text never carries one to a terminal.
    private static func escape(_ text: String, into output: inout String) {
        output += text.jsonStringLiteral
    }
}

extension JSON: Decodable {
    /// Any JSON text, a bare number, string or literal too, each object's members in the order of
    /// their keys (as `mqtt` prints the messages it reads).
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let values = try? container.decode([JSON].self) {
            self = .array(values)
        } else {
            let members = try container.decode([String: JSON].self)
            self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }
}
