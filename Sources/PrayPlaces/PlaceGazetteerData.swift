import PrayCore

/// The gazetteer (`gazetteer.txt` of `CPrayPlacesData`, read in place), parsed once for search:
/// cities sorted by folded name, the folded alternate names with their cities, regions and
/// countries.
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
        /// The region's number, or -1 when the gazetteer has none for the city.
        let region: Int
        let coordinates: Coordinates
        let population: Int
        let zone: Int
    }

    /// A country or region.
    struct Area: Sendable {
        let code: String
        let name: String
        /// The ISO 3166-2 code after the dash (regions only).
        let isoCode: String
        /// The GeoNames identifier of the capital (countries only), or 0 when the gazetteer lacks it.
        var capital = 0
        /// The region's country (its index in ``countries``), or -1 for a country.
        var country = -1
    }

    /// What a key of ``areaKeys`` names.
    struct AreaReference: Sendable, Equatable {
        /// A country (``countries``) or a region (``regions``).
        let isCountry: Bool
        /// Its index.
        let index: Int
        /// Whether the key is one of its names (`egypt`, `مصر`), not a code or initials (`eg`, `are`).
        let isName: Bool
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
    /// The folded names and codes of countries and regions, sorted by UTF-8 bytes, and what each
    /// names: `areaReferences[areaStarts[i]..<areaStarts[i + 1]]`.
    let areaKeys: [String]
    let areaReferences: [AreaReference]
    let areaStarts: [Int32]
    let zones: [String]
    let countryByCode: [String: Int]
    let cityByGeonameID: [Int: Int]
    /// Every city key, then every alternate key, as UTF-8 in one buffer (for the typo scan, which
    /// reads them all): key `i` is `nameBytes[nameStarts[i]..<nameStarts[i + 1]]`.
    let nameBytes: [UInt8]
    let nameStarts: [Int32]
    /// For each key of ``nameBytes``, the set of its bytes modulo 64, to skip names that lack too
    /// many of a query's letters before computing a distance.
    let nameMasks: [UInt64]

    /// Parses the text for search; with `areasOnly`, only the countries and zones (what a country
    /// lookup needs, in a fraction of the time): no regions, cities, alternate names or search buffers.
    /// - Throws: `PrayError` (`.unavailable`) when a line is not in the expected layout.
    init(text: UnsafeBufferPointer<UInt8>, areasOnly: Bool = false) throws(PrayError) {
        var parser = GazetteerParser()
        parser.areasOnly = areasOnly
        try parser.parse(text)
        cities = parser.cities
        alternateKeys = parser.alternateKeys
        alternateCities = parser.alternateCities
        alternateStarts = parser.alternateStarts + [Int32(parser.alternateCities.count)]
        countries = parser.countries
        regions = parser.regions
        areaKeys = parser.areaKeys
        areaReferences = parser.areaReferences
        areaStarts = parser.areaStarts + [Int32(parser.areaReferences.count)]
        zones = parser.zones
        countryByCode = Dictionary(
            countries.enumerated().map { ($1.code, $0) }, uniquingKeysWith: { first, _ in first })
        cityByGeonameID = Dictionary(cities.enumerated().map { ($1.geonameID, $0) }, uniquingKeysWith: { a, _ in a })
        let (zoneCount, countryCount) = (parser.zones.count, parser.countries.count)
        guard parser.cities.allSatisfy({ $0.zone < zoneCount && $0.country < countryCount }) else {
            throw Self.corrupt("city references")
        }
        guard !areasOnly else {
            (nameBytes, nameStarts, nameMasks) = ([], [], [])
            return
        }
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
    }

    /// The built-in gazetteer's text (UTF-8, in place).
    static var text: UnsafeBufferPointer<UInt8> { EmbeddedData.gazetteer.bytes }

    static func corrupt(_ detail: String) -> PrayError {
        PrayError(.unavailable, message: "the built-in gazetteer is damaged (\(detail)); reinstall PrayKit")
    }

    /// The bit of a byte in a letter mask.
    static func letterBit(_ byte: UInt8) -> UInt64 { 1 << UInt64(byte & 63) }

    /// What a folded key names: countries and regions by name, and (unless `namesOnly`) by code.
    func areas(named key: String, namesOnly: Bool = false) -> ArraySlice<AreaReference> {
        let found = PlaceSearchIndex.equalRange(key, in: areaKeys)
        guard let index = found.first else { return [] }
        let references = areaReferences[Int(areaStarts[index])..<Int(areaStarts[index + 1])]
        return namesOnly ? references.filter(\.isName)[...] : references
    }

    /// The place of a city, with its country, region and zone.
    func place(of city: City) -> Place {
        let country = countries[city.country]
        let region = city.region >= 0 ? regions[city.region] : nil
        return Place(
            geonameID: city.geonameID, name: city.name, countryCode: country.code, countryName: country.name,
            region: region?.name, regionCode: region.flatMap { $0.isoCode.isEmpty ? nil : $0.isoCode },
            coordinates: city.coordinates, population: city.population, timeZoneIdentifier: zones[city.zone])
    }
}

/// Reads the tab-separated sections of the gazetteer text.
struct GazetteerParser {
    var cities: [PlaceGazetteerData.City] = []
    var alternateKeys: [String] = []
    var alternateCities: [Int32] = []
    var alternateStarts: [Int32] = []
    var countries: [PlaceGazetteerData.Area] = []
    var regions: [PlaceGazetteerData.Area] = []
    var areaKeys: [String] = []
    var areaReferences: [PlaceGazetteerData.AreaReference] = []
    var areaStarts: [Int32] = []
    var zones: [String] = []
    /// Whether only the countries and zones are read: the regions skipped, parsing ended at the cities.
    var areasOnly = false
    private var regionByCode: [String: Int] = [:]
    private var countryByCode: [String: Int] = [:]
    /// The country of each two-letter code, indexed by ``letters(_:_:)``: no hashing per city.
    var countryByLetters = [Int16](repeating: -1, count: 65_536)

    /// An index of two code bytes.
    static func letters(_ first: UInt8, _ second: UInt8) -> Int { Int(first) << 8 | Int(second) }
    /// The fields of the current line, reused from line to line.
    private var fields: [UnsafeBufferPointer<UInt8>] = []

    private enum Section: String {
        case countries = "#countries", regions = "#regions", zones = "#zones", cities = "#cities", keys = "#keys"
        case areas = "#areas"
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
                if section == .cities, areasOnly { return }
                continue
            }
            if section == .regions, areasOnly { continue }
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

    private mutating func add(to section: Section) throws(PrayError) {
        switch section {
        case .countries where fields.count == 3:
            let code = text(0)
            countryByCode[code] = countries.count
            if fields[0].count == 2 {
                countryByLetters[Self.letters(fields[0][0], fields[0][1])] = Int16(countries.count)
            }
            guard fields[2].isEmpty || Self.integer(fields[2]) != nil else {
                throw PlaceGazetteerData.corrupt("a capital")
            }
            let capital = Self.integer(fields[2]) ?? 0
            countries.append(.init(code: code, name: text(1), isoCode: code, capital: capital))
        case .regions where fields.count == 3:
            let code = text(0)
            regionByCode[code] = regions.count
            let country = countryByCode[String(code.prefix { $0 != "." })] ?? -1
            regions.append(.init(code: code, name: text(1), isoCode: text(2), country: country))
        case .areas where fields.count == 2:
            try addAreaKey()
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

    /// Parses one `#areas` line: a key, then `c12` (country 12 by name), `C12` (by code), `r7`, `R7`.
    private mutating func addAreaKey() throws(PrayError) {
        areaStarts.append(Int32(areaReferences.count))
        areaKeys.append(text(0))
        for reference in fields[1].split(separator: UInt8(ascii: ",")) {
            guard let kind = reference.first,
                let index = Self.integer(UnsafeBufferPointer(rebasing: reference.dropFirst()))
            else { throw PlaceGazetteerData.corrupt("an area reference") }
            let isCountry = kind == UInt8(ascii: "c") || kind == UInt8(ascii: "C")
            guard isCountry ? index < countries.count : index < regions.count,
                isCountry || kind == UInt8(ascii: "r") || kind == UInt8(ascii: "R")
            else { throw PlaceGazetteerData.corrupt("an area reference") }
            areaReferences.append(.init(isCountry: isCountry, index: index, isName: kind >= UInt8(ascii: "a")))
        }
    }

    private mutating func addCity() throws(PrayError) {
        let name = text(1)
        let folded = text(2)
        let countryCode = fields[3]
        guard let geonameID = Self.integer(fields[0]), let population = Self.integer(fields[7]),
            let zone = Self.integer(fields[8]), let latitude = Self.decimal(fields[5]),
            let longitude = Self.decimal(fields[6]), countryCode.count == 2,
            case let country = Int(countryByLetters[Self.letters(countryCode[0], countryCode[1])]), country >= 0,
            let coordinates = try? Coordinates(latitude: latitude, longitude: longitude)
        else { throw PlaceGazetteerData.corrupt("city line \(cities.count + 1)") }
        let admin1 = text(4)
        let region = regionByCode["\(countries[country].code).\(admin1)"] ?? -1
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
        // One division, correctly rounded, gives the double nearest the decimal (33.8933), where a
        // sum of the whole and the fraction rounds twice (33.893299999999996).
        let value = Double(whole * scale + fraction) / Double(scale)
        return negative ? -value : value
    }
}
