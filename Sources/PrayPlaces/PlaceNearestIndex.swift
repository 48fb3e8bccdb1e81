import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The gazetteer's cities by position only (`nearest.bin` of `CPrayPlacesData`, written by
/// `Scripts/data/generate_nearest.py`): what a nearest-city look-up needs — a header's "near Makkah,
/// SA", a country from coordinates. Read in place, nothing parsed ahead: opening it checks a header
/// and finds the gazetteer's small sections; a look-up then reads the grid cells around the point,
/// the positions of their cities, and for each city returned its line, its country's line, its
/// region's line and its zone's line of the gazetteer text.
struct PlaceNearestIndex: Sendable {
    /// The number of cities.
    let count: Int
    private let index: EmbeddedData
    private let text: EmbeddedData
    /// Where the cities' grid starts and its members start, in bytes.
    private let gridStart: Int
    private let membersStart: Int
    /// The lines of the gazetteer's `#countries`, `#regions` and `#zones`, in bytes.
    private let countryLines: Range<Int>
    private let regionLines: Range<Int>
    private let zoneLines: Range<Int>

    /// The grid's cells, 1° each, row-major from −90°, −180°.
    static let cellCount = 180 * 360
    /// Where the cities start, in bytes.
    private static let citiesStart = 16

    /// Opens the index, checked against the gazetteer text.
    /// - Throws: `PrayError` when the index does not belong to the text (regenerate it).
    init(index: EmbeddedData = .nearestIndex, text: EmbeddedData = .gazetteer) throws(PrayError) {
        let reader = LittleEndianReader(buffer: index.bytes)
        guard index.bytes.count >= Self.citiesStart, index.bytes[0..<4].elementsEqual("PKNI".utf8),
            index.bytes[4] == 2
        else { throw PlaceGazetteerData.corrupt("nearest-city index header") }
        count = Int(reader.u32(at: 12))
        gridStart = Self.citiesStart + 12 * count
        membersStart = gridStart + 4 * (Self.cellCount + 1)
        guard Int(reader.u32(at: 8)) == text.bytes.count, index.bytes.count == membersStart + 4 * count,
            Int(reader.u32(at: gridStart + 4 * Self.cellCount)) == count
        else { throw PlaceGazetteerData.corrupt("nearest-city index of another gazetteer") }
        self.index = index
        self.text = text
        var sections: [String: Range<Int>] = [:]
        var current: (name: String, start: Int)?
        var start = 0
        let bytes = text.bytes
        while start < bytes.count {
            // memchr: the sections before the cities are a few hundred kilobytes read at every start.
            let end = Self.lineEnd(in: bytes, from: start)
            if end > start, bytes[start] == UInt8(ascii: "#") {
                if let current { sections[current.name] = current.start..<start }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                if name == "#cities" { break }
                current = (name, end + 1)
            }
            start = end + 1
        }
        guard let countries = sections["#countries"], let regions = sections["#regions"],
            let zones = sections["#zones"]
        else { throw PlaceGazetteerData.corrupt("sections") }
        (countryLines, regionLines, zoneLines) = (countries, regions, zones)
    }

    /// The index of the line feed ending the line that starts at `start`, or the end of `bytes`.
    private static func lineEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count,
            let found = memchr(base + start, 10, bytes.count - start)
        else { return bytes.count }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// Up to `limit` cities nearest to `coordinates`, nearest first (damaged entries skipped).
    func nearest(to coordinates: Coordinates, limit: Int) -> [(city: Int, kilometers: Double)] {
        let reader = LittleEndianReader(buffer: index.bytes)
        return PlaceNearest.nearest(
            to: coordinates, limit: limit,
            members: { cell in
                let start = Int(reader.u32(at: gridStart + 4 * cell))
                let end = Int(reader.u32(at: gridStart + 4 * (cell + 1)))
                return start <= end && end <= count ? start..<end : 0..<0
            },
            member: { Int(reader.u32(at: membersStart + 4 * $0)) },
            position: { city in
                guard city < count else { return nil }
                let base = Self.citiesStart + 12 * city
                let latitude = Double(Int32(bitPattern: reader.u32(at: base))) / 10_000
                let longitude = Double(Int32(bitPattern: reader.u32(at: base + 4))) / 10_000
                return try? Coordinates(latitude: latitude, longitude: longitude)
            })
    }

    /// The place of the city numbered `city`, read from its line of the gazetteer and the lines of its
    /// country, region and zone: the same place as a full parse gives.
    /// - Throws: `PrayError` when one of those lines is damaged.
    func place(_ city: Int) throws(PrayError) -> Place {
        let offset = Int(LittleEndianReader(buffer: index.bytes).u32(at: Self.citiesStart + 12 * city + 8))
        guard city >= 0, city < count, let line = line(at: offset) else {
            throw PlaceGazetteerData.corrupt("a city line")
        }
        let fields = Self.fields(line)
        typealias Parse = GazetteerParser
        guard fields.count == 9, let geonameID = Parse.integer(fields[0]), let population = Parse.integer(fields[7]),
            let zone = Parse.integer(fields[8]), let latitude = Parse.decimal(fields[5]),
            let longitude = Parse.decimal(fields[6]), fields[3].count == 2,
            let coordinates = try? Coordinates(latitude: latitude, longitude: longitude),
            let country = self.line(code: Array(fields[3]), in: countryLines).map(Self.fields),
            country.count == 3, let zoneName = self.line(number: zone, in: zoneLines)
        else { throw PlaceGazetteerData.corrupt("city line \(city + 1)") }
        let countryCode = String(decoding: fields[3], as: UTF8.self)
        let admin1 = Array(fields[4])
        let region = self.line(code: Array(fields[3]) + [UInt8(ascii: ".")] + admin1, in: regionLines).map(Self.fields)
        guard region == nil || region?.count == 3 else { throw PlaceGazetteerData.corrupt("a region line") }
        let regionCode = region.map { String(decoding: $0[2], as: UTF8.self) }
        return Place(
            geonameID: geonameID, name: String(decoding: fields[1], as: UTF8.self), countryCode: countryCode,
            countryName: String(decoding: country[1], as: UTF8.self),
            region: region.map { String(decoding: $0[1], as: UTF8.self) },
            regionCode: regionCode.flatMap { $0.isEmpty ? nil : $0 }, coordinates: coordinates,
            population: population, timeZoneIdentifier: String(decoding: zoneName, as: UTF8.self))
    }

    // MARK: - Lines of the text

    /// The line that starts at `offset`, without its newline.
    private func line(at offset: Int) -> UnsafeBufferPointer<UInt8>? {
        let bytes = text.bytes
        guard offset >= 0, offset < bytes.count else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[offset..<Self.lineEnd(in: bytes, from: offset)])
    }

    /// The line of `lines` whose first field is `code`, by binary search: `#countries` and `#regions`
    /// are sorted by code, byte by byte (`generate_places.py`; the nearest-city test checks every
    /// answer against a full parse).
    private func line(code: [UInt8], in lines: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
        let bytes = text.bytes
        var (low, high) = (lines.lowerBound, min(lines.upperBound, bytes.count))
        while low < high {
            var start = low + (high - low) / 2
            while start > low, bytes[start - 1] != 10 { start -= 1 }
            guard let line = line(at: start) else { return nil }
            let field = line.prefix { $0 != 9 }
            if field.elementsEqual(code) { return line }
            if field.lexicographicallyPrecedes(code) {
                low = start + line.count + 1
            } else {
                high = start
            }
        }
        return nil
    }

    /// The line numbered `number` (from 0) in `lines`.
    private func line(number: Int, in lines: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
        var start = lines.lowerBound
        var remaining = number
        while start < lines.upperBound, let line = line(at: start) {
            if remaining == 0 { return line }
            remaining -= 1
            start += line.count + 1
        }
        return nil
    }

    /// A line's tab-separated fields.
    private static func fields(_ line: UnsafeBufferPointer<UInt8>) -> [UnsafeBufferPointer<UInt8>] {
        line.split(separator: 9, omittingEmptySubsequences: false).map { UnsafeBufferPointer(rebasing: $0) }
    }
}
