import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The zone boundaries (`time-zone-boundaries.bin` of `CPrayPlacesData`): a 1° grid whose cells hold
/// one label (a zone, or a main zone with alternatives) or a quadtree of simplified polygons.
///
/// The layout is described in `Scripts/data/generate_timezones.py`, which writes it. Lookups read
/// the bytes in place, in the binary; nothing is expanded at load but the zone names and labels.
struct TimeZoneBoundaryData: Sendable {
    /// The zone identifiers.
    let zones: [String]
    /// Each label's zones by number, main first.
    let labels: [[Int]]
    private let data: EmbeddedData
    private let indexStart: Int
    private let offsetsStart: Int
    private let nodesStart: Int
    private let mixedCells: Int

    /// Grid units per degree inside a cell.
    static let units = 8192.0

    /// Opens the data: reads its header (the zone names and labels). The cell index is not read
    /// ahead (a lookup checks the cell it reads): it is 127 KB that every start would bring in.
    /// - Throws: `PrayError` (`.unavailable`) when the data is not in the expected layout.
    init(data: EmbeddedData = .timeZoneBoundaries) throws(PrayError) {
        let bytes = data.bytes
        guard bytes.count > 9, bytes[0..<4].elementsEqual("PKTZ".utf8), bytes[4] == 2 else {
            throw Self.corrupt("unknown header")
        }
        let header = try Self.header(bytes)
        self.data = data
        zones = header.zones
        labels = header.labels
        indexStart = header.indexStart
        offsetsStart = indexStart + 2 * Self.cellCount
        mixedCells = header.mixedCells
        nodesStart = offsetsStart + 4 * header.mixedCells
        guard nodesStart <= bytes.count else { throw Self.corrupt("truncated") }
    }

    /// Zone names, labels, where the cell index starts and how many cells are mixed.
    private static func header(_ buffer: UnsafeBufferPointer<UInt8>) throws(PrayError) -> (
        zones: [String], labels: [[Int]], indexStart: Int, mixedCells: Int
    ) {
        var reader = LittleEndianReader(buffer: buffer)
        reader.position = 5
        let mixed = Int(reader.u16())
        var zones: [String] = []
        for _ in 0..<reader.u16() {
            let length = Int(reader.u8())
            guard reader.position + length <= buffer.count else { throw corrupt("zone names") }
            zones.append(String(decoding: buffer[reader.position..<reader.position + length], as: UTF8.self))
            reader.position += length
        }
        var labels: [[Int]] = []
        for _ in 0..<reader.u16() {
            let count = Int(reader.u8())
            let label = (0..<count).map { _ in Int(reader.u16()) }
            guard !label.isEmpty, label.allSatisfy({ $0 < zones.count }) else { throw corrupt("labels") }
            labels.append(label)
        }
        let indexStart = reader.position
        guard indexStart + 2 * cellCount <= buffer.count else { throw corrupt("cell index") }
        return (zones, labels, indexStart, mixed)
    }

    static let cellCount = 360 * 180

    private static func corrupt(_ detail: String) -> PrayError {
        PrayError(.unavailable, message: "the built-in time zone boundaries are damaged (\(detail)); reinstall PrayKit")
    }
}

extension TimeZoneBoundaryData {
    /// The label at a point (latitude −90…90, longitude −180…180).
    func label(latitude: Double, longitude: Double) -> Int {
        let column = min(359, max(0, Int((longitude + 180).rounded(.down))))
        let row = min(179, max(0, Int((latitude + 90).rounded(.down))))
        var reader = LittleEndianReader(buffer: data.bytes)
        let entry = reader.u16(at: indexStart + 2 * (row * 360 + column))
        // A damaged entry gives a label past the end, which the caller checks.
        guard entry & 0x8000 != 0 else { return Int(entry) }
        guard Int(entry & 0x7FFF) < mixedCells else { return labels.count }
        let x = (longitude + 180 - Double(column)) * Self.units
        let y = (latitude + 90 - Double(row)) * Self.units
        let offset = nodesStart + Int(reader.u32(at: offsetsStart + 4 * Int(entry & 0x7FFF)))
        return Self.label(in: &reader, node: offset, nodesStart: nodesStart, x: x, y: y)
    }

    /// Walks the quadtree from `node` to the leaf that holds (x, y) and returns its label there.
    private static func label(in reader: inout LittleEndianReader, node: Int, nodesStart: Int, x: Double, y: Double)
        -> Int
    {
        var (node, originX, originY, size) = (node, 0.0, 0.0, units)
        // The generator splits at most 6 times; the bound keeps damaged offsets from looping.
        for _ in 0..<16 {
            reader.position = node
            switch reader.u8() {
            case 0:
                return reader.varint()
            case 1:
                size /= 2
                let east = x >= originX + size
                let north = y >= originY + size
                if east { originX += size }
                if north { originY += size }
                let child = (east ? 1 : 0) + (north ? 2 : 0)
                node = nodesStart + Int(reader.u32(at: reader.position + 4 * child))
            default:
                return leafLabel(&reader, x: x, y: y)
            }
        }
        return 0
    }

    /// The label of (x, y) in the leaf at the reader: the first entry whose polygons hold the point,
    /// else the leaf's default.
    private static func leafLabel(_ reader: inout LittleEndianReader, x: Double, y: Double) -> Int {
        let fallback = reader.varint()
        for _ in 0..<reader.varint() {
            let label = reader.varint()
            let minX = Double(reader.varint())
            let minY = Double(reader.varint())
            let maxX = Double(reader.varint())
            let maxY = Double(reader.varint())
            let length = reader.varint()
            let end = reader.position + length
            if x >= minX, x <= maxX, y >= minY, y <= maxY, contains(&reader, x: x, y: y) { return label }
            reader.position = end
        }
        return fallback
    }

    /// Whether the rings at the reader hold (x, y), by the even-odd rule (holes are rings too).
    private static func contains(_ reader: inout LittleEndianReader, x: Double, y: Double) -> Bool {
        var inside = false
        for _ in 0..<reader.varint() {
            let count = reader.varint()
            guard count > 0 else { continue }
            var px = reader.varint()
            var py = reader.varint()
            let (firstX, firstY) = (px, py)
            for index in 1...count {
                let (qx, qy): (Int, Int)
                if index == count {
                    (qx, qy) = (firstX, firstY)
                } else {
                    (qx, qy) = (px + reader.zigzag(), py + reader.zigzag())
                }
                let (ay, by) = (Double(py), Double(qy))
                if (ay > y) != (by > y) {
                    let crossing = Double(px) + (Double(qx - px)) * (y - ay) / (by - ay)
                    if x < crossing { inside.toggle() }
                }
                (px, py) = (qx, qy)
            }
        }
        return inside
    }
}
