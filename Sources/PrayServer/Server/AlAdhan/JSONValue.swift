#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JSON value whose object members keep their order, for the answers that are assembled from
/// parts (the method list, Hijri conversions); the hot answers write through ``JSONWriter``
/// directly. Both render the same compact text.
enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// JSON text rendered before (a fragment that does not change between answers, or one written
    /// by a ``JSONWriter``).
    case raw([UInt8])

    /// A number: whole values as integers (`18`), others as the shortest decimal that reads back the
    /// same (`18.5`), as PHP's `json_encode` writes them.
    static func number(_ value: Double) -> JSONValue {
        if value.rounded() == value, abs(value) < 1e15 { return .int(Int(value)) }
        return .double(value)
    }

    /// The value that `body` writes, rendered.
    static func written(_ body: (inout JSONWriter) -> Void) -> JSONValue {
        var writer = JSONWriter(capacity: 1024)
        body(&writer)
        return .raw(writer.bytes)
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

    /// The compact JSON text as UTF-8 bytes.
    var renderedBytes: [UInt8] {
        var writer = JSONWriter(capacity: 256)
        write(to: &writer)
        return writer.bytes
    }

    /// Writes the compact JSON text.
    func write(to writer: inout JSONWriter) {
        switch self {
        case .string(let value): writer.string(value)
        case .int(let value): writer.int(value)
        case .double(let value): writer.double(value)
        case .bool(let value): writer.bool(value)
        case .null: writer.null()
        case .raw(let text): writer.raw(text)
        case .array(let values):
            writer.beginArray()
            for value in values { value.write(to: &writer) }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for (key, value) in members {
                writer.key(text: key)
                value.write(to: &writer)
            }
            writer.endObject()
        }
    }
}
