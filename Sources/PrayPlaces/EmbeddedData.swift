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

    private init(_ accessor: (UnsafeMutablePointer<Int>) -> UnsafePointer<UInt8>?) {
        var count = 0
        let start = accessor(&count)
        bytes = UnsafeBufferPointer(start: start, count: start == nil ? 0 : count)
    }
}

/// Reads little-endian integers from bytes in place; a read past the end gives 0, so damaged data
/// gives a wrong answer that the caller's checks catch, never a crash.
struct LittleEndianReader {
    /// The bytes read.
    let buffer: UnsafeBufferPointer<UInt8>

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
}
