import PrayCore

/// The gazetteer's cities by position only (`nearest.bin` of `CPrayPlacesData`, written by
/// `Scripts/data/generate_nearest.py`): what a nearest-city look-up needs — a header's "near Makkah,
/// SA", a country from coordinates. Read in place: opening it checks a header and parses the
/// gazetteer's small sections (countries, regions, zones); a look-up then reads the grid cells
/// around the point, the positions of their cities and the gazetteer lines of the cities it returns.
struct PlaceNearestIndex: Sendable {
    /// The number of cities.
    let count: Int
    /// The countries, regions and zones of the gazetteer (its small sections).
    let areas: PlaceGazetteerData
    private let index: EmbeddedData
    private let text: EmbeddedData
    /// Where the cities' grid starts and its members start, in bytes.
    private let gridStart: Int
    private let membersStart: Int

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
        areas = try PlaceGazetteerData(text: text.bytes, searchable: false, areasOnly: true)
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

    /// The place of a city read by ``city(_:)``: its region is the one line of the gazetteer's
    /// `#regions` that starts with its code (`SA.14<tab>`), the rest from ``areas``.
    /// - Throws: `PrayError` when that line is damaged.
    func place(of city: PlaceGazetteerData.City) throws(PrayError) -> Place {
        let key = Array("\(areas.countries[city.country].code).\(city.admin1)\t".utf8)
        let bytes = text.bytes
        var start = areas.regionLines.lowerBound
        let limit = min(areas.regionLines.upperBound, bytes.count)
        while start < limit {
            var end = start
            while end < limit, bytes[end] != 10 { end += 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if line.starts(with: key) { return areas.place(of: city, region: try areas.region(line: line)) }
            start = end + 1
        }
        return areas.place(of: city)
    }

    /// The city at `index`, read from its line of the gazetteer text.
    /// - Throws: `PrayError` when the line is not a city line.
    func city(_ city: Int) throws(PrayError) -> PlaceGazetteerData.City {
        let reader = LittleEndianReader(buffer: index.bytes)
        let bytes = text.bytes
        let offset = Int(reader.u32(at: Self.citiesStart + 12 * city + 8))
        guard city >= 0, city < count, offset < bytes.count else { throw PlaceGazetteerData.corrupt("a city line") }
        var end = offset
        while end < bytes.count, bytes[end] != 10 { end += 1 }
        return try areas.city(line: UnsafeBufferPointer(rebasing: bytes[offset..<end]))
    }
}
