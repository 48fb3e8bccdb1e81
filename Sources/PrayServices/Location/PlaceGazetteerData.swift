import PrayCore

/// The gazetteer of `PlaceGazetteer+Data.swift`, parsed once: cities sorted by folded name, the
/// folded alternate names with their cities, regions, countries and a 1° grid of cities for
/// nearest-city lookups.
///
/// The layout is described in `Scripts/data/generate_places.py`, which writes it.
struct PlaceGazetteerData: Sendable {
    /// A city as stored.
    struct City: Sendable {
        let geonameID: Int
        let name: String
        /// The folded name: the search key of the city's own name.
        let key: String
        let country: Int
        /// The region's number, or -1.
        let region: Int
        let coordinates: Coordinates
        let population: Int
        let zone: Int
    }

    /// A country or region with its folded names.
    struct Area: Sendable {
        let code: String
        let name: String
        /// The ISO 3166-2 code after the dash (regions only).
        let isoCode: String
        /// The folded name, short code(s) and alternate names.
        let keys: Set<String>
    }

    /// The cities, sorted by ``City/key`` bytes, largest first within a key.
    let cities: [City]
    /// The folded alternate names, sorted by UTF-8 bytes.
    let alternateKeys: [String]
    /// The cities of each alternate name: `alternateCities[alternateStarts[i]..<alternateStarts[i + 1]]`.
    let alternateCities: [Int32]
    let alternateStarts: [Int32]
    let countries: [Area]
    let regions: [Area]
    let zones: [String]
    let countryByCode: [String: Int]
    let cityByGeonameID: [Int: Int]
    /// The cities of each 1° cell (row-major from −90°, −180°): `gridCities[gridStarts[c]..<gridStarts[c + 1]]`.
    let gridCities: [Int32]
    let gridStarts: [Int32]
    /// Every city key, then every alternate key, as UTF-8 in one buffer (for the typo scan, which
    /// reads them all): key `i` is `nameBytes[nameStarts[i]..<nameStarts[i + 1]]`.
    let nameBytes: [UInt8]
    let nameStarts: [Int32]
    /// For each key of ``nameBytes``, the set of its bytes modulo 64, to skip names that lack too
    /// many of a query's letters before computing a distance.
    let nameMasks: [UInt64]

    /// Parses the text.
    /// - Throws: `PrayError` (`.unavailable`) when a line is not in the expected layout.
    init(text: String) throws(PrayError) {
        var parser = Parser()
        var text = text
        let failure: PrayError? = text.withUTF8 { bytes in
            do throws(PrayError) {
                try parser.parse(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        cities = parser.cities
        alternateKeys = parser.alternateKeys
        alternateCities = parser.alternateCities
        alternateStarts = parser.alternateStarts + [Int32(parser.alternateCities.count)]
        countries = parser.countries
        regions = parser.regions
        zones = parser.zones
        countryByCode = Dictionary(
            countries.enumerated().map { ($1.code, $0) }, uniquingKeysWith: { first, _ in first })
        cityByGeonameID = Dictionary(cities.enumerated().map { ($1.geonameID, $0) }, uniquingKeysWith: { a, _ in a })
        (gridCities, gridStarts) = Self.grid(cities)
        var bytes: [UInt8] = []
        var starts: [Int32] = []
        bytes.reserveCapacity(1 << 20)
        starts.reserveCapacity(cities.count + alternateKeys.count + 1)
        var masks: [UInt64] = []
        masks.reserveCapacity(starts.capacity)
        for key in cities.lazy.map(\.key) + alternateKeys {
            starts.append(Int32(bytes.count))
            var mask: UInt64 = 0
            for byte in key.utf8 {
                bytes.append(byte)
                mask |= Self.letterBit(byte)
            }
            masks.append(mask)
        }
        starts.append(Int32(bytes.count))
        (nameBytes, nameStarts, nameMasks) = (bytes, starts, masks)
        guard cities.allSatisfy({ $0.zone < zones.count && $0.country < countries.count }) else {
            throw Self.corrupt("city references")
        }
    }

    static func corrupt(_ detail: String) -> PrayError {
        PrayError(.unavailable, message: "the built-in gazetteer is damaged (\(detail)); reinstall PrayKit")
    }

    /// The bit of a byte in a letter mask.
    static func letterBit(_ byte: UInt8) -> UInt64 { 1 << UInt64(byte & 63) }

    /// The grid cell of a position.
    static func cell(latitude: Double, longitude: Double) -> Int {
        let row = min(179, max(0, Int((latitude + 90).rounded(.down))))
        let column = min(359, max(0, Int((longitude + 180).rounded(.down))))
        return row * 360 + column
    }

    private static func grid(_ cities: [City]) -> ([Int32], [Int32]) {
        var counts = [Int32](repeating: 0, count: 360 * 180 + 1)
        let cells = cities.map { cell(latitude: $0.coordinates.latitude, longitude: $0.coordinates.longitude) }
        for cell in cells { counts[cell + 1] += 1 }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var next = counts
        var members = [Int32](repeating: 0, count: cities.count)
        for (city, cell) in cells.enumerated() {
            members[Int(next[cell])] = Int32(city)
            next[cell] += 1
        }
        return (members, counts)
    }
}

/// Reads the tab-separated sections of the gazetteer text.
private struct Parser {
    var cities: [PlaceGazetteerData.City] = []
    var alternateKeys: [String] = []
    var alternateCities: [Int32] = []
    var alternateStarts: [Int32] = []
    var countries: [PlaceGazetteerData.Area] = []
    var regions: [PlaceGazetteerData.Area] = []
    var zones: [String] = []
    private var regionByCode: [String: Int] = [:]
    private var countryByCode: [String: Int] = [:]
    /// The fields of the current line, reused from line to line.
    private var fields: [UnsafeBufferPointer<UInt8>] = []

    private enum Section: String {
        case countries = "#countries", regions = "#regions", zones = "#zones", cities = "#cities", keys = "#keys"
    }

    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(PrayError) {
        var section: Section?
        var start = 0
        cities.reserveCapacity(34_100)
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 10 { end += 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            start = end + 1
            guard !line.isEmpty else { continue }
            if line[0] == UInt8(ascii: "#") {
                section = Section(rawValue: String(decoding: line, as: UTF8.self))
                continue
            }
            fields.removeAll(keepingCapacity: true)
            var fieldStart = 0
            for index in 0...line.count where index == line.count || line[index] == 9 {
                fields.append(UnsafeBufferPointer(rebasing: line[fieldStart..<index]))
                fieldStart = index + 1
            }
            guard let section else { throw PlaceGazetteerData.corrupt("a line outside the sections") }
            try add(to: section)
        }
    }

    private func text(_ index: Int) -> String { String(decoding: fields[index], as: UTF8.self) }

    private func keys(_ index: Int) -> Set<String> {
        Set(fields[index].split(separator: UInt8(ascii: "|")).map { String(decoding: $0, as: UTF8.self) })
    }

    private mutating func add(to section: Section) throws(PrayError) {
        switch section {
        case .countries where fields.count == 3:
            let code = text(0)
            countryByCode[code] = countries.count
            countries.append(.init(code: code, name: text(1), isoCode: code, keys: keys(2)))
        case .regions where fields.count == 4:
            let code = text(0)
            regionByCode[code] = regions.count
            regions.append(.init(code: code, name: text(1), isoCode: text(2), keys: keys(3)))
        case .zones:
            zones.append(text(0))
        case .cities where fields.count == 9:
            try addCity()
        case .keys where fields.count == 2:
            alternateStarts.append(Int32(alternateCities.count))
            alternateKeys.append(text(0))
            var value = 0
            var digits = 0
            for byte in fields[1] {
                if byte == UInt8(ascii: ",") {
                    guard digits > 0 else { throw PlaceGazetteerData.corrupt("key reference") }
                    alternateCities.append(Int32(value))
                    (value, digits) = (0, 0)
                } else if byte >= 48, byte <= 57, digits < 9 {
                    value = value * 10 + Int(byte - 48)
                    digits += 1
                } else {
                    throw PlaceGazetteerData.corrupt("key reference")
                }
            }
            guard digits > 0 else { throw PlaceGazetteerData.corrupt("key reference") }
            alternateCities.append(Int32(value))
        default:
            throw PlaceGazetteerData.corrupt("a line of \(section.rawValue)")
        }
    }

    private mutating func addCity() throws(PrayError) {
        let name = text(1)
        let folded = text(2)
        let countryCode = text(3)
        guard let geonameID = Self.integer(fields[0]), let population = Self.integer(fields[7]),
            let zone = Self.integer(fields[8]), let latitude = Self.decimal(fields[5]),
            let longitude = Self.decimal(fields[6]), let country = countryByCode[countryCode],
            let coordinates = try? Coordinates(latitude: latitude, longitude: longitude)
        else { throw PlaceGazetteerData.corrupt("city line \(cities.count + 1)") }
        let region = regionByCode["\(countryCode).\(text(4))"] ?? -1
        cities.append(
            .init(
                geonameID: geonameID, name: name, key: folded.isEmpty ? name.lowercased() : folded, country: country,
                region: region, coordinates: coordinates, population: population, zone: zone))
    }

    /// A non-negative decimal integer.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count < 19 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    /// A decimal such as `-12.3456` (no exponent).
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var negative = false
        var whole = 0
        var fraction = 0
        var scale = 1
        var seenPoint = false
        var digits = 0
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where index == 0: negative = true
            case UInt8(ascii: ".") where !seenPoint: seenPoint = true
            case 48...57:
                digits += 1
                guard digits < 16 else { return nil }
                if seenPoint {
                    fraction = fraction * 10 + Int(byte - 48)
                    scale *= 10
                } else {
                    whole = whole * 10 + Int(byte - 48)
                }
            default: return nil
            }
        }
        guard digits > 0 else { return nil }
        let value = Double(whole) + Double(fraction) / Double(scale)
        return negative ? -value : value
    }
}
