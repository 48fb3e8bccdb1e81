/// A zone's offsets as a TZif file of the system's tz database states them (RFC 8536): its transitions,
/// then, past the last, the rule of its footer.
///
/// Versions 1 to 4 are read: the 64-bit data of version 2 and later, the 32-bit data of a version 1
/// file. A file that counts leap seconds (the `right/` tree) is refused: its transition times are not
/// Unix seconds. A class, so that the clocks and caches that keep a zone share one copy of its table.
package final class TZifZone: Sendable {
    /// Transition instants (Unix seconds), ascending.
    package let transitions: [Int64]
    /// The offset (seconds east of UTC) from each transition on.
    package let offsets: [Int32]
    /// The offset before the first transition (RFC 8536 §3.2: local time type 0).
    package let initialOffset: Int
    /// The rule after the last transition; `nil` when the file has none (version 1, or an empty footer:
    /// the last transition's offset holds).
    package let footer: POSIXZoneRule?

    /// The offset at `instant` (Unix seconds), the instant from which it holds (`nil`: always before)
    /// and the next instant at which it changes (`nil`: never).
    package func period(at instant: Int64) -> (offset: Int, from: Int64?, until: Int64?) {
        // The index of the first transition after the instant.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] > instant { high = middle } else { low = middle + 1 }
        }
        if low == transitions.count, let footer {
            // Past the table, the footer's rule; its period starts at the table's end at the earliest.
            let period = footer.period(at: instant)
            let last = transitions.last ?? .min
            return (period.offset, max(period.from ?? last, last), period.until)
        }
        let offset = low == 0 ? initialOffset : Int(offsets[low - 1])
        // Transitions that keep the offset (a new name, a daylight flag) are steps within the period.
        var first = low
        while first > 0, Int(offsets[first - 1]) == offset { first -= 1 }
        let from = first == 0 && offset == initialOffset ? nil : transitions[first]
        var next = low
        while next < transitions.count, Int(offsets[next]) == offset { next += 1 }
        if next < transitions.count { return (offset, from, transitions[next]) }
        // The table ends with this offset; the footer says when it next changes.
        guard let footer, let last = transitions.last else { return (offset, from, nil) }
        let after = footer.period(at: max(last, instant))
        return (offset, from, after.offset == offset ? after.until : last)
    }

    /// The zone a TZif file's bytes state, or `nil` when they are not a TZif file this reader accepts.
    package init?(_ bytes: UnsafeRawBufferPointer) {
        var reader = Reader(bytes: bytes)
        guard let first = reader.header() else { return nil }
        let block: Header
        let timeSize: Int
        if first.version >= 2 {
            // Skip the 32-bit block for the second header and its 64-bit data.
            guard reader.skip(first.dataSize(timeSize: 4)), let second = reader.header() else { return nil }
            (block, timeSize) = (second, 8)
        } else {
            (block, timeSize) = (first, 4)
        }
        guard block.leapCount == 0, block.typeCount >= 1, block.charCount >= 1,
            block.isStandardCount == 0 || block.isStandardCount == block.typeCount,
            block.isUTCCount == 0 || block.isUTCCount == block.typeCount,
            reader.remaining >= block.dataSize(timeSize: timeSize)
        else { return nil }
        var times: [Int64] = []
        times.reserveCapacity(block.timeCount)
        for _ in 0..<block.timeCount {
            let time = timeSize == 8 ? reader.int64() : Int64(reader.int32())
            // Times must increase (RFC 8536 §3.2).
            if let previous = times.last, time <= previous { return nil }
            times.append(time)
        }
        var typeIndices: [Int] = []
        typeIndices.reserveCapacity(block.timeCount)
        for _ in 0..<block.timeCount {
            let index = Int(reader.byte())
            guard index < block.typeCount else { return nil }
            typeIndices.append(index)
        }
        var typeOffsets: [Int32] = []
        for _ in 0..<block.typeCount {
            let offset = reader.int32()
            _ = reader.byte()  // isdst
            _ = reader.byte()  // the abbreviation's index
            // −25 to +26 hours (RFC 8536 §3.2), never −2^31.
            guard (-89_999...93_599).contains(offset) else { return nil }
            typeOffsets.append(offset)
        }
        _ = reader.skip(block.charCount + block.isStandardCount + block.isUTCCount)
        transitions = times
        offsets = typeIndices.map { typeOffsets[$0] }
        initialOffset = Int(typeOffsets[0])
        // The footer: "\n" TZ "\n" after the 64-bit data.
        if first.version >= 2, reader.skip(UInt8(ascii: "\n")), let end = reader.indexOf(UInt8(ascii: "\n")) {
            let text = reader.text(upTo: end)
            footer = text.isEmpty ? nil : POSIXZoneRule(Substring(text).utf8)
            guard text.isEmpty || footer != nil else { return nil }
        } else {
            footer = nil
        }
    }

    /// The counts of a TZif header.
    private struct Header {
        let version: Int
        let isUTCCount: Int
        let isStandardCount: Int
        let leapCount: Int
        let timeCount: Int
        let typeCount: Int
        let charCount: Int

        /// The size of the data block after this header.
        func dataSize(timeSize: Int) -> Int {
            timeCount * (timeSize + 1) + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isStandardCount
                + isUTCCount
        }
    }

    /// Reads big-endian numbers from the bytes, never past their end.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var remaining: Int { bytes.count - index }

        mutating func header() -> Header? {
            guard remaining >= 44, bytes[index] == 0x54, bytes[index + 1] == 0x5A, bytes[index + 2] == 0x69,
                bytes[index + 3] == 0x66
            else { return nil }
            let versionByte = bytes[index + 4]
            let version: Int
            switch versionByte {
            case 0: version = 1
            case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - 48)
            default: return nil
            }
            index += 20
            let counts = (0..<6).map { _ in Int(UInt32(bitPattern: int32())) }
            // Bounds that no real zone comes near, so that a damaged file cannot ask for gigabytes.
            guard counts.allSatisfy({ $0 <= 1 << 20 }) else { return nil }
            return Header(
                version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count <= remaining else { return false }
            index += count
            return true
        }

        mutating func skip(_ byte: UInt8) -> Bool {
            guard remaining > 0, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        func indexOf(_ byte: UInt8) -> Int? {
            var position = index
            while position < bytes.count {
                if bytes[position] == byte { return position }
                position += 1
            }
            return nil
        }

        mutating func text(upTo end: Int) -> String {
            defer { index = end + 1 }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
        }

        // The callers check `remaining` first (the header's counts against the data's size).
        mutating func byte() -> UInt8 {
            defer { index += 1 }
            return bytes[index]
        }

        mutating func int32() -> Int32 {
            var value: UInt32 = 0
            for _ in 0..<4 { value = value << 8 | UInt32(byte()) }
            return Int32(bitPattern: value)
        }

        mutating func int64() -> Int64 {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
            return Int64(bitPattern: value)
        }
    }
}
