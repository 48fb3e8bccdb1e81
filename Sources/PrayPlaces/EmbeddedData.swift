internal import CPrayPlacesData

/// Bytes compiled into the binary by `CPrayPlacesData` (the files of `Sources/CPrayPlacesData/data`,
/// embedded as the generators wrote them): read in place, never copied. They are constant for the
/// life of the process, which is what makes sharing the pointer between threads safe.
struct EmbeddedData: @unchecked Sendable {
    /// The bytes.
    let bytes: UnsafeBufferPointer<UInt8>

    /// The time zone boundaries (`Scripts/data/generate_timezones.py` describes the layout).
    static let timeZoneBoundaries = EmbeddedData { praykit_time_zone_boundaries($0) }
    /// The gazetteer's UTF-8 text (`Scripts/data/generate_places.py` describes the layout).
    static let gazetteer = EmbeddedData { praykit_gazetteer($0) }
    /// The cities by position (`Scripts/data/generate_nearest.py` describes the layout).
    static let nearestIndex = EmbeddedData { praykit_nearest_index($0) }
    /// The compatibility decompositions, a line a scalar (`Scripts/data/generate_compatibility.py`).
    static let compatibilityDecompositions = EmbeddedData { praykit_compatibility_decompositions($0) }

    private init(_ accessor: (UnsafeMutablePointer<Int>) -> UnsafePointer<UInt8>?) {
        var count = 0
        let start = accessor(&count)
        bytes = UnsafeBufferPointer(start: start, count: start == nil ? 0 : count)
    }
}

/// Reads little-endian integers and LEB128 varints from bytes in place, at an offset or at
/// ``position``; a read past the end gives 0, so damaged data gives a wrong answer that the caller's
/// checks catch, never a crash.
struct LittleEndianReader {
    /// The bytes read.
    let buffer: UnsafeBufferPointer<UInt8>
    /// Where the reads without an offset (``u8()``, ``u16()``, ``varint()``) read next.
    var position = 0

    /// The byte at `index`, or 0 outside the buffer.
    func byte(_ index: Int) -> UInt8 {
        index >= 0 && index < buffer.count ? buffer[index] : 0
    }

    /// The UInt16 at `index`.
    func u16(at index: Int) -> UInt16 {
        UInt16(byte(index)) | UInt16(byte(index + 1)) << 8
    }

    /// The UInt32 at `index`.
    func u32(at index: Int) -> UInt32 {
        guard index >= 0, index <= buffer.count - 4, let base = buffer.baseAddress else {
            return UInt32(u16(at: index)) | UInt32(u16(at: index + 2)) << 16
        }
        return UInt32(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self))
    }

    /// The byte at ``position``, moving past it.
    mutating func u8() -> UInt8 {
        defer { position += 1 }
        return byte(position)
    }

    /// The UInt16 at ``position``, moving past it.
    mutating func u16() -> UInt16 {
        defer { position += 2 }
        return u16(at: position)
    }

    /// The unsigned LEB128 varint at ``position``, moving past it.
    mutating func varint() -> Int {
        var value = 0
        var shift = 0
        while shift < 56 {
            let byte = u8()
            value |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        return value
    }

    /// The zigzag-encoded signed varint at ``position``, moving past it.
    mutating func zigzag() -> Int {
        let value = varint()
        return value & 1 == 0 ? value >> 1 : -((value + 1) >> 1)
    }
}
