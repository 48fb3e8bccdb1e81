/// Writes compact JSON text straight into a byte buffer, member by member, in the order it is
/// given: the one JSON writer of the AlAdhan API (``JSONValue`` renders through it too).
///
/// Answers are written without building a tree of values first: a `/v1/timings` answer is about
/// 1.3 KB of text and costs a few hundred nanoseconds this way. The writer puts the commas in: a
/// value after another value of the same object or array gets one, a value after a key does not.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.key("code"); json.int(200)
/// json.key("status"); json.string("OK")
/// json.endObject()
/// // json.bytes is {"code":200,"status":"OK"}
/// ```
struct JSONWriter {
    /// The text written so far, as UTF-8.
    private(set) var bytes: [UInt8] = []
    /// Whether the next value or key follows another one of the same object or array.
    private var needsComma = false

    /// Creates an empty writer with room for `capacity` bytes.
    init(capacity: Int = 2048) {
        bytes.reserveCapacity(capacity)
    }

    // MARK: - Structure

    /// Starts an object: `{`.
    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Ends the object: `}`.
    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Starts an array: `[`.
    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Ends the array: `]`.
    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A member's key, `"name":`; its value comes next. Keys are the API's own words, ASCII without
    /// quotes or backslashes.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A member's key from text (escaped like any string).
    mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: - Values

    /// A string value: quotes, backslashes and control characters escaped; other text as UTF-8.
    mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// A string value of the API's own words (ASCII or UTF-8 without quotes, backslashes or control
    /// characters).
    mutating func string(_ value: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A whole number.
    mutating func int(_ value: Int) {
        separate()
        appendDigits(value)
        needsComma = true
    }

    /// A whole number as a string, `"2027"`, zero-padded to `width` digits (as AlAdhan writes days,
    /// months and years).
    mutating func intString(_ value: Int, width: Int = 1) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendDigits(value, width: width)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A number with a fraction: the shortest decimal that reads back the same (`51.5074`); a stray
    /// NaN or infinity becomes `null`.
    mutating func double(_ value: Double) {
        separate()
        bytes.append(contentsOf: (value.isFinite ? value.description : "null").utf8)
        needsComma = true
    }

    /// `true` or `false`.
    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// `null`.
    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// A value rendered before: one complete JSON value.
    mutating func raw(_ text: [UInt8]) {
        separate()
        bytes.append(contentsOf: text)
        needsComma = true
    }

    /// A string value written piece by piece into the quotes: `body` appends plain text (digits, ASCII
    /// letters and punctuation other than quotes and backslashes) with ``text(_:)`` and ``digits(_:width:)``.
    mutating func quoted(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        body(&self)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Plain text inside ``quoted(_:)``.
    mutating func text(_ value: StaticString) {
        value.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Plain text inside ``quoted(_:)``, from a byte.
    mutating func text(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Decimal digits inside ``quoted(_:)``, zero-padded to `width`.
    mutating func digits(_ value: Int, width: Int = 1) {
        appendDigits(value, width: width)
    }

    // MARK: - Writing

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Appends the decimal digits of `value` (with a minus sign when negative), zero-padded to `width`.
    private mutating func appendDigits(_ value: Int, width: Int = 1) {
        // Clock fields, days and months: one or two digits.
        if value >= 0, value < 100, width <= 2 {
            if value >= 10 || width == 2 { bytes.append(UInt8(ascii: "0") + UInt8(value / 10)) }
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // At most 20 digits, found from the last; then the padding.
        var digits: [UInt8] = []
        digits.reserveCapacity(20)
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        if digits.count < width {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count))
        }
        bytes.append(contentsOf: digits.reversed())
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `"text"`, escaping quotes, backslashes and control characters.
    private mutating func appendQuoted(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            let plain = !utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            if plain {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case 0..<0x20:
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), 48, 48])
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 15)])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
