#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Writes compact JSON text straight into a byte buffer, member by member, in the order it is
/// given: the one JSON writer of the AlAdhan API (``JSONValue`` renders through it too).
///
/// Answers are written without building a tree of values first: a `/v1/timings` answer is about
/// 1.2 KB of text and costs about a microsecond this way. The writer puts the commas in: a
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
///
/// It writes into memory of its own (`malloc`ed, grown by doubling), so each piece costs a bounds
/// check and a copy; the writer cannot be copied, and frees that memory when it ends unless
/// ``takeData()`` hands it to a `Data` (the response body, without a copy).
struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    /// The bytes written so far.
    private(set) var count = 0
    private var capacity: Int
    /// Whether the next value or key follows another one of the same object or array.
    private var needsComma = false

    /// Creates an empty writer with room for `capacity` bytes.
    init(capacity: Int = 2048) {
        self.capacity = max(16, capacity)
        // malloc rather than `allocate`, so that `Data` can free the memory it is handed.
        guard let memory = malloc(self.capacity) else { fatalError("JSONWriter: out of memory") }
        base = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit {
        free(base)
    }

    /// The text written, as UTF-8, in the writer's own memory, which the `Data` now owns and frees:
    /// the writer ends here.
    consuming func takeData() -> Data {
        let (base, count) = (self.base, self.count)
        discard self
        return Data(bytesNoCopy: base, count: count, deallocator: .free)
    }

    /// The text written so far, as UTF-8.
    var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// The text written so far, as UTF-8.
    var data: Data {
        Data(bytes: base, count: count)
    }

    // MARK: - Structure

    /// Starts an object: `{`.
    mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Ends the object: `}`.
    mutating func endObject() {
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Starts an array: `[`.
    mutating func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Ends the array: `]`.
    mutating func endArray() {
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A member's key, `"name":`; its value comes next. Keys are the API's own words, ASCII without
    /// quotes or backslashes.
    ///
    /// The comma, the quotes and the colon are stored after one check of the room for them all: an
    /// answer writes a hundred keys or more.
    @inline(__always)
    mutating func key(_ name: StaticString) {
        name.withUTF8Buffer { name in
            let needed = name.count + 4
            if count + needed > capacity { grow(to: count + needed) }
            var next = base + count
            if needsComma {
                next.initialize(to: UInt8(ascii: ","))
                next += 1
            }
            next.initialize(to: UInt8(ascii: "\""))
            if let source = name.baseAddress { Self.copy(source, count: name.count, to: next + 1) }
            next += name.count + 1
            next[0] = UInt8(ascii: "\"")
            next[1] = UInt8(ascii: ":")
            count = next - base + 2
        }
        needsComma = false
    }

    /// A member's key from text (escaped like any string). Named apart from ``key(_:)``: a literal key
    /// (`json.key("date")`) would otherwise be typed `String`, the literal's default, and scanned for
    /// characters to escape on every answer instead of copied.
    mutating func key(text name: String) {
        separate()
        appendQuoted(name)
        append(UInt8(ascii: ":"))
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
        append(UInt8(ascii: "\""))
        value.withUTF8Buffer { append($0) }
        append(UInt8(ascii: "\""))
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
        append(UInt8(ascii: "\""))
        appendDigits(value, width: width)
        append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A number with a fraction: the shortest decimal that reads back the same (`51.5074`); a stray
    /// NaN or infinity becomes `null`.
    mutating func double(_ value: Double) {
        self.value { $0.decimal(value) }
    }

    /// `true` or `false`.
    mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
        needsComma = true
    }

    /// `null`.
    mutating func null() {
        separate()
        append("null" as StaticString)
        needsComma = true
    }

    /// A value rendered before: one complete JSON value.
    mutating func raw(_ text: [UInt8]) {
        separate()
        text.withUnsafeBufferPointer { append($0) }
        needsComma = true
    }

    /// A string value written piece by piece into the quotes: `body` appends plain text (digits, ASCII
    /// letters and punctuation other than quotes and backslashes) with ``text(_:)`` and ``digits(_:width:)``.
    @inline(__always)
    mutating func quoted(_ body: (inout JSONWriter) -> Void) {
        separate()
        append(UInt8(ascii: "\""))
        body(&self)
        append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// One value written as text: `body` writes the whole of it (a template of fixed JSON text and
    /// ``digits(_:width:)``), which must be valid JSON; it is placed like any other value.
    @inline(__always)
    mutating func value(_ body: (inout JSONWriter) -> Void) {
        separate()
        body(&self)
        needsComma = true
    }

    /// One value copied from a template of JSON text, then filled in place: `fill` gets the copy's
    /// first byte and may change the template's bytes (placeholders of a fixed length), never its
    /// length; the result must be valid JSON. It is placed like any other value.
    mutating func filled(_ template: [UInt8], _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        separate()
        let length = template.count
        if count + length > capacity { grow(to: count + length) }
        template.withUnsafeBufferPointer { source in
            guard let start = source.baseAddress else { return }
            (base + count).update(from: start, count: length)
        }
        fill(base + count)
        count += length
        needsComma = true
    }

    /// Plain text inside ``quoted(_:)``, or JSON text inside ``value(_:)``.
    @inline(__always)
    mutating func text(_ value: StaticString) {
        value.withUTF8Buffer { append($0) }
    }

    /// A number with a fraction (as ``double(_:)`` writes it), inside ``value(_:)``.
    mutating func decimal(_ value: Double) {
        guard value.isFinite else { return append("null" as StaticString) }
        // The shortest decimal (`description`'s text) written straight into the writer's memory:
        // `description` makes a `String`, and one of more than 15 bytes (a coordinate of 17 digits) is
        // a heap allocation, then a copy.
        if count + DecimalSink.room > capacity { grow(to: count + DecimalSink.room) }
        var sink = DecimalSink(start: base + count)
        value.write(to: &sink)
        count += sink.count
    }

    /// A JSON string of any text (escaped), inside ``value(_:)``.
    mutating func quotedText(_ string: String) {
        appendQuoted(string)
    }

    /// JSON text rendered before, inside ``value(_:)``.
    mutating func text(_ rendered: [UInt8]) {
        rendered.withUnsafeBufferPointer { append($0) }
    }

    /// Plain text inside ``quoted(_:)``, from a byte.
    @inline(__always)
    mutating func text(_ byte: UInt8) {
        append(byte)
    }

    /// `DD-MM-YYYY` inside ``quoted(_:)``: day and month of two digits, the year of at least
    /// `yearWidth`. A four-digit year (nearly every date) is written with one check of the room.
    mutating func dayMonthYear(_ day: Int, _ month: Int, _ year: Int, yearWidth: Int) {
        guard (0..<100).contains(day), (0..<100).contains(month), (1000...9999).contains(year), yearWidth <= 4 else {
            appendDigits(day, width: 2)
            append(UInt8(ascii: "-"))
            appendDigits(month, width: 2)
            append(UInt8(ascii: "-"))
            appendDigits(year, width: yearWidth)
            return
        }
        if count + 10 > capacity { grow(to: count + 10) }
        let digits = base + count
        Self.putTwoDigits(day, at: digits)
        digits[2] = UInt8(ascii: "-")
        Self.putTwoDigits(month, at: digits + 3)
        digits[5] = UInt8(ascii: "-")
        let year = UInt32(truncatingIfNeeded: year)
        Self.putTwoDigits(year / 100, at: digits + 6)
        Self.putTwoDigits(year % 100, at: digits + 8)
        count += 10
    }

    /// Writes `value` (0…99) as two digits at `place`.
    @inline(__always)
    static func putTwoDigits(_ value: Int, at place: UnsafeMutablePointer<UInt8>) {
        putTwoDigits(UInt32(truncatingIfNeeded: value), at: place)
    }

    /// Writes `value` (0…99) as two digits at `place`, in unsigned arithmetic.
    @inline(__always)
    static func putTwoDigits(_ value: UInt32, at place: UnsafeMutablePointer<UInt8>) {
        place[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
        place[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
    }

    /// Writes `HH:mm` of `seconds` into a day (0…86,399) at `place`: five bytes.
    @inline(__always)
    static func putClock(_ seconds: Int, at place: UnsafeMutablePointer<UInt8>) {
        let seconds = UInt32(truncatingIfNeeded: seconds)
        putTwoDigits(seconds / 3600, at: place)
        place[2] = UInt8(ascii: ":")
        putTwoDigits(seconds / 60 % 60, at: place + 3)
    }

    /// Decimal digits inside ``quoted(_:)``, zero-padded to `width`.
    @inline(__always)
    mutating func digits(_ value: Int, width: Int = 1) {
        appendDigits(value, width: width)
    }

    // MARK: - Writing

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    private mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress, !buffer.isEmpty else { return }
        if count + buffer.count > capacity { grow(to: count + buffer.count) }
        Self.copy(source, count: buffer.count, to: base + count)
        count += buffer.count
    }

    /// Copies `count` bytes that do not overlap their destination. Most pieces of an answer are a
    /// few bytes (a key, a comma and a quote, a weekday's name): up to 16 are moved as two words that
    /// may overlap, without a call to `memcpy`, which costs more than the copy at these lengths.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, count: Int, to destination: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(destination)
        switch count {
        case 8...16:
            let (head, tail) = (
                from.loadUnaligned(as: UInt64.self), from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            )
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            let (head, tail) = (
                from.loadUnaligned(as: UInt32.self), from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            )
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        case 1..<4:
            // One to three bytes: the first, the middle and the last (some the same).
            destination[0] = source[0]
            destination[count / 2] = source[count / 2]
            destination[count - 1] = source[count - 1]
        case 0: break
        default: destination.update(from: source, count: count)
        }
    }

    /// A clock time as a string value, `"HH:mm"` of seconds into a day, or `"HH:mm (abbreviation)"`
    /// when `abbreviation` (the UTF-8 of ASCII text without quotes or backslashes) is not empty: every
    /// time of an answer, so its bytes are stored after one check of the room for them all.
    mutating func clock(_ seconds: Int, abbreviation: [UInt8] = []) {
        separate()
        let length = abbreviation.isEmpty ? 7 : 10 + abbreviation.count
        if count + length > capacity { grow(to: count + length) }
        var next = base + count
        func put(_ byte: UInt8) {
            next.initialize(to: byte)
            next += 1
        }
        put(UInt8(ascii: "\""))
        Self.putClock(seconds, at: next)
        next += 5
        if !abbreviation.isEmpty {
            put(UInt8(ascii: " "))
            put(UInt8(ascii: "("))
            for byte in abbreviation { put(byte) }
            put(UInt8(ascii: ")"))
        }
        put(UInt8(ascii: "\""))
        count += length
        needsComma = true
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Moves the text to memory with room for at least `needed` bytes.
    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        guard let larger = realloc(base, newCapacity) else { fatalError("JSONWriter: out of memory") }
        (base, capacity) = (larger.assumingMemoryBound(to: UInt8.self), newCapacity)
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
    }

    /// Appends the decimal digits of `value` (with a minus sign when negative), zero-padded to `width`.
    private mutating func appendDigits(_ value: Int, width: Int = 1) {
        // Four digits or fewer (days, months, years, a month's length): most of the numbers an answer
        // writes, two digits at a time, in unsigned arithmetic (a signed division by ten costs more).
        if value >= 0, value < 10_000, width <= 4 {
            let number = UInt32(truncatingIfNeeded: value)
            let length = number < 10 ? 1 : number < 100 ? 2 : number < 1000 ? 3 : 4
            let total = max(length, width)
            if count + total > capacity { grow(to: count + total) }
            let end = base + count + total
            switch total {
            case 1: end[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number)
            case 2: Self.putTwoDigits(number, at: end - 2)
            case 3:
                end[-3] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number / 100)
                Self.putTwoDigits(number % 100, at: end - 2)
            default:
                Self.putTwoDigits(number / 100, at: end - 4)
                Self.putTwoDigits(number % 100, at: end - 2)
            }
            count += total
            return
        }
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        var length = 1
        var rest = magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        let total = max(length, width)
        if count + total > capacity { grow(to: count + total) }
        // The digits from the last, two at a time, then the padding.
        var index = count + total
        while magnitude >= 100 {
            index -= 2
            Self.putTwoDigits(UInt32(truncatingIfNeeded: magnitude % 100), at: base + index)
            magnitude /= 100
        }
        if magnitude >= 10 {
            index -= 2
            Self.putTwoDigits(UInt32(truncatingIfNeeded: magnitude), at: base + index)
        } else {
            index -= 1
            base[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        while index > count {
            index -= 1
            base[index] = UInt8(ascii: "0")
        }
        count += total
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Where `Double.write(to:)` puts a number's shortest decimal: memory with ``room`` bytes, more
    /// than the longest such text (24 bytes, `-2.2250738585072014e-308`). The standard library hands
    /// the digits to `_writeASCII(_:)`, the hook `TextOutputStream` has for ASCII text (its default
    /// makes a `String` of them for `write(_:)`); `write(_:)` takes any other text the same way.
    private struct DecimalSink: TextOutputStream {
        static let room = 32
        let start: UnsafeMutablePointer<UInt8>
        var count = 0

        mutating func write(_ string: String) {
            for byte in string.utf8 { put(byte) }
        }

        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            guard let source = buffer.baseAddress else { return }
            let length = min(buffer.count, Self.room - count)
            (start + count).update(from: source, count: length)
            count += length
        }

        private mutating func put(_ byte: UInt8) {
            guard count < Self.room else { return }
            start[count] = byte
            count += 1
        }
    }

    /// Appends `"text"`, escaping quotes, backslashes and control characters.
    private mutating func appendQuoted(_ string: String) {
        append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            let plain = !utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            if plain {
                append(utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    append(UInt8(ascii: "\\"))
                    append(byte)
                case 0..<0x20:
                    append("\\u00" as StaticString)
                    append(Self.hexDigits[Int(byte >> 4)])
                    append(Self.hexDigits[Int(byte & 15)])
                default: append(byte)
                }
            }
        }
        append(UInt8(ascii: "\""))
    }
}
