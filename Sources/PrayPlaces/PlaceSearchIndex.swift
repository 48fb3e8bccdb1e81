import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Search over ``PlaceGazetteerData``: folding, matching and ranking (see ``PlaceAPI/SearchResult``
/// for the rules).
enum PlaceSearchIndex {
    /// Scores of the match tiers: every exact match ranks above every prefix match, and every prefix
    /// match above every typo; within a tier, log10 of the population decides.
    static let exactTier = 300.0
    static let prefixTier = 200.0
    static let typoTier = 100.0
    /// A match on a city's own name counts as a place ten times larger (log10 10 = 1).
    static let ownNameBonus = 1.0
    /// Each edit of a typo costs as much as a place a third the size.
    static let editCost = 0.5
    /// The most cities a prefix collects from each list (short prefixes match thousands).
    static let prefixLimit = 4000
    /// A place matched as given by a prefix or an alternate name that is smaller than this (people)
    /// leaves room for a spelling correction to a far larger place.
    static let popularFloor = 100_000
    /// How much larger that place must be (after the cost of its edits) to rank first.
    static let popularRatio = 100.0
    /// Two places this close are the same place for ambiguity, kilometres.
    static let samePlaceKilometers = 25.0

    /// Lower case without accents or marks, punctuation as spaces, single spaces; Arabic without
    /// tashkeel, with alef, ya, ta marbuta and kaf forms unified. The same as `fold()` of
    /// `Scripts/data/generate_places.py`: `"São Paulo"` → `"sao paulo"`, `"مَكَّة"` → `"مكه"`.
    static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in compatibilityDecomposed(text) {
            if scalar.properties.generalCategory == .nonspacingMark || dropped.contains(scalar) { continue }
            if spaces.contains(scalar) || scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                guard let mapped = special[lower] else {
                    if pendingSpace { out.append(" ") }
                    pendingSpace = false
                    out.append(lower)
                    continue
                }
                for replacement in mapped.unicodeScalars {
                    if pendingSpace { out.append(" ") }
                    pendingSpace = false
                    out.append(replacement)
                }
            }
        }
        return String(out)
    }

    private static let special: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "ı": "i",
        "ħ": "h", "ŀ": "l", "ſ": "s", "ŧ": "t", "ƒ": "f",
        "ى": "ي", "ی": "ي", "ئ": "ي", "ة": "ه", "ہ": "ه", "ھ": "ه", "ۃ": "ه", "ک": "ك", "ٱ": "ا", "ـ": "",
    ]
    private static let dropped = Set("'’‘`ʻʼʿʾ\"".unicodeScalars)
    private static let spaces = Set("-.,()/;:_–—".unicodeScalars)
}

// MARK: - Matching

extension PlaceSearchIndex {
    /// One city's best match.
    struct Candidate {
        let city: Int
        let kind: PlaceAPI.MatchKind
        let matchedName: String
        var edits = 0
        var score: Double
        /// The country or region the query named, for a ``PlaceAPI/MatchKind/country`` or
        /// ``PlaceAPI/MatchKind/region`` match.
        var area: PlaceGazetteerData.AreaReference? = nil
    }

    /// The candidates for a folded name, best per city; spelling corrections only with `corrections`.
    static func candidates(
        for key: String, in data: PlaceGazetteerData, corrections: Bool = true
    ) -> [Int: Candidate] {
        var best: [Int: Candidate] = [:]
        let cityKeys = data.cities.lazy.map(\.key)
        for city in equalRange(key, in: cityKeys) { add(city, .exact, key, to: &best, data) }
        for index in equalRange(key, in: data.alternateKeys) {
            for city in alternates(index, data) { add(city, .alternateName, key, to: &best, data) }
        }
        guard key.unicodeScalars.count >= 3 else { return best }
        var collected = 0
        for city in prefixRange(key, in: cityKeys) where collected < prefixLimit {
            add(city, .prefix, data.cities[city].key, to: &best, data)
            collected += 1
        }
        collected = 0
        for index in prefixRange(key, in: data.alternateKeys) where collected < prefixLimit {
            for city in alternates(index, data) { add(city, .prefix, data.alternateKeys[index], to: &best, data) }
            collected += 1
        }
        // Corrections when nothing matched as given, or only places smaller than `popularFloor` by a
        // prefix or an alternate name: those rank higher, unless the correction is a place a hundred
        // times larger (`Cario` is Cairo, not the prefix of an alternate name of Cariús, Brazil).
        let leading = best.values.max { $0.score < $1.score }
        if let leading, leading.kind == .exact || data.cities[leading.city].population >= popularFloor {
            return best
        }
        guard corrections, maximumEdits(key) > 0 else { return best }
        let corrected = self.corrections(of: key, in: data)
        guard let leading else { return corrected }
        let leadingTier = leading.kind == .prefix ? prefixTier : exactTier
        for var candidate in corrected.values
        where candidate.score - typoTier >= leading.score - leadingTier + log10(popularRatio) {
            candidate.score += leadingTier - typoTier
            best[candidate.city] = candidate
        }
        return best
    }

    /// The names one or two letters away from a folded name (``maximumEdits(_:)``), best per city.
    private static func corrections(of key: String, in data: PlaceGazetteerData) -> [Int: Candidate] {
        var best: [Int: Candidate] = [:]
        var scratch = Levenshtein(query: key, limit: maximumEdits(key))
        let queryMask = key.utf8.reduce(0) { $0 | PlaceGazetteerData.letterBit($1) }
        data.nameBytes.withUnsafeBufferPointer { bytes in
            for index in 0..<data.nameStarts.count - 1 {
                // Each edit adds or removes at most one kind of byte (two for an Arabic letter).
                let mask = data.nameMasks[index]
                guard (queryMask & ~mask).nonzeroBitCount <= scratch.byteLimit,
                    (mask & ~queryMask).nonzeroBitCount <= scratch.byteLimit
                else { continue }
                let name = UnsafeBufferPointer(
                    rebasing: bytes[Int(data.nameStarts[index])..<Int(data.nameStarts[index + 1])])
                guard let edits = scratch.distance(to: name), edits > 0 else { continue }
                if index < data.cities.count {
                    add(index, .spellingCorrection, data.cities[index].key, edits: edits, to: &best, data)
                } else {
                    let alternate = index - data.cities.count
                    for city in alternates(alternate, data) {
                        add(city, .spellingCorrection, data.alternateKeys[alternate], edits: edits, to: &best, data)
                    }
                }
            }
        }
        return best
    }

    /// Scores a match and keeps it when it is the city's best.
    private static func add(
        _ city: Int, _ kind: PlaceAPI.MatchKind, _ matched: String, edits: Int = 0, to best: inout [Int: Candidate],
        _ data: PlaceGazetteerData
    ) {
        let population = Double(max(data.cities[city].population, 1))
        let tier =
            switch kind {
            case .exact, .alternateName, .country, .region: exactTier
            case .prefix: prefixTier
            case .spellingCorrection: typoTier - editCost * Double(edits)
            }
        let own = data.cities[city].key == matched ? ownNameBonus : 0
        let candidate = Candidate(
            city: city, kind: kind, matchedName: matched, edits: edits, score: tier + log10(population) + own)
        if let current = best[city], current.score >= candidate.score { return }
        best[city] = candidate
    }

    /// Typos forgiven: none below 4 letters, one up to 7, two from 8.
    static func maximumEdits(_ key: String) -> Int {
        switch key.unicodeScalars.count {
        case ..<4: 0
        case 4...7: 1
        default: 2
        }
    }

    private static func alternates(_ index: Int, _ data: PlaceGazetteerData) -> [Int] {
        let range = Int(data.alternateStarts[index])..<Int(data.alternateStarts[index + 1])
        return data.alternateCities[range].map { Int($0) }
    }

    /// The indices of `keys` (sorted by UTF-8 bytes) equal to `key`.
    static func equalRange<Keys: RandomAccessCollection>(_ key: String, in keys: Keys) -> Range<Int>
    where Keys.Element == String, Keys.Index == Int {
        let lower = lowerBound(key, in: keys)
        var upper = lower
        while upper < keys.endIndex, keys[upper] == key { upper += 1 }
        return lower..<upper
    }

    /// The indices of `keys` that begin with `key` and are longer.
    static func prefixRange<Keys: RandomAccessCollection>(_ key: String, in keys: Keys) -> Range<Int>
    where Keys.Element == String, Keys.Index == Int {
        var lower = lowerBound(key, in: keys)
        while lower < keys.endIndex, keys[lower] == key { lower += 1 }
        var upper = lower
        while upper < keys.endIndex, keys[upper].utf8.starts(with: key.utf8) { upper += 1 }
        return lower..<upper
    }

    private static func lowerBound<Keys: RandomAccessCollection>(_ key: String, in keys: Keys) -> Int
    where Keys.Element == String, Keys.Index == Int {
        var (low, high) = (keys.startIndex, keys.endIndex)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].utf8.lexicographicallyPrecedes(key.utf8) { low = middle + 1 } else { high = middle }
        }
        return low
    }

}

/// The edit distance from one query to many names, with reused rows, over UTF-8 bytes: Levenshtein's
/// insertions, deletions and substitutions, and a swap of two neighbouring letters as one edit (the
/// optimal string alignment distance, Damerau's transposition: `Riyahd` is one edit from Riyadh). Exact
/// for Latin names (folded names are ASCII); an Arabic letter is two bytes, so Arabic queries get
/// twice the limit in bytes.
struct Levenshtein {
    private let query: [UInt8]
    private let limit: Int
    /// The most edits in bytes: the limit, twice it for a query in Arabic letters.
    let byteLimit: Int
    private var beforePrevious: [Int]
    private var previous: [Int]
    private var current: [Int]

    init(query: String, limit: Int) {
        self.query = Array(query.utf8)
        self.limit = limit
        byteLimit = query.utf8.count == query.unicodeScalars.count ? limit : 2 * limit
        previous = Array(0...self.query.count)
        current = previous
        beforePrevious = previous
    }

    /// The distance in letters to `other` when it is at most the limit, else `nil`. Rows stop as
    /// soon as every cell exceeds the limit (Ukkonen's cut-off, which a swap cannot undo: a cell
    /// reached by a swap costs at least the cell diagonally before it).
    mutating func distance(to other: UnsafeBufferPointer<UInt8>) -> Int? {
        guard abs(other.count - query.count) <= byteLimit, let bytes = bytes(other) else { return nil }
        return byteLimit == limit ? bytes : (bytes + 1) / 2
    }

    private mutating func bytes(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        let limit = byteLimit
        return query.withUnsafeBufferPointer { query in
            beforePrevious.withUnsafeMutableBufferPointer { first in
                previous.withUnsafeMutableBufferPointer { second in
                    current.withUnsafeMutableBufferPointer { third in
                        Self.bytes(text, query: query, rows: (first, second, third), limit: limit)
                    }
                }
            }
        }
    }

    /// The distance in bytes over three rows of scratch (rotated, not copied), without bounds checks:
    /// this loop is most of the time of a search with a spelling mistake. Only the cells within
    /// `limit` of the diagonal are computed (Ukkonen's band); the cells just outside it hold `limit + 1`,
    /// as every cell there exceeds the limit.
    private static func bytes(
        _ text: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>,
        rows: (UnsafeMutableBufferPointer<Int>, UnsafeMutableBufferPointer<Int>, UnsafeMutableBufferPointer<Int>),
        limit: Int
    ) -> Int? {
        let count = query.count
        let beyond = limit + 1
        var (beforePrevious, previous, current) = rows
        for column in 0...count { previous[column] = min(column, beyond) }
        var last: UInt8 = 0
        for (index, byte) in text.enumerated() {
            let row = index + 1
            let (low, high) = (max(1, row - limit), min(count, row + limit))
            guard low <= high else { return nil }
            current[low - 1] = low == 1 ? min(row, beyond) : beyond
            if high < count { current[high + 1] = beyond }
            var smallest = beyond
            for column in low...high {
                let substitution = previous[column - 1] + (query[column - 1] == byte ? 0 : 1)
                var cell = min(substitution, previous[column] + 1, current[column - 1] + 1)
                if query[column - 1] == last, row > 1, column > 1, query[column - 2] == byte, last != byte {
                    cell = min(cell, beforePrevious[column - 2] + 1)
                }
                current[column] = cell
                smallest = min(smallest, cell)
            }
            if smallest > limit { return nil }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
            last = byte
        }
        return previous[count] <= limit ? previous[count] : nil
    }
}
