import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A whole search: the query's parts, its qualifiers, the candidates, their order, and whether one
/// stands out (the rules of ``PlaceAPI/SearchResult``).
extension PlaceSearchIndex {
    /// The most places named beside the best (``PlaceAPI/SearchResult/others``).
    static let othersLimit = 3

    /// The folded parts of a query, split at commas (`,`, the Arabic `،`, the full-width `，`).
    static func parts(of text: String) -> [String] {
        text.split { $0 == "," || $0 == "،" || $0 == "，" }.map { fold(String($0)) }.filter { !$0.isEmpty }
    }

    /// Searches the gazetteer for a query whose limit is valid.
    /// - Throws: ``ValidationError`` for a query without a name.
    static func search(_ query: PlaceAPI.Query, in data: PlaceGazetteerData) throws -> PlaceAPI.SearchResult {
        let parts = parts(of: query.text)
        guard let name = parts.first else {
            throw ValidationError(field: "query", message: "the place to search for is empty")
        }
        let qualifiers = Self.qualifiers(parts.dropFirst(), data)
        // A country or region the qualifiers rule out is not what the name means: `عمان, JO` is Amman.
        let areas = data.areas(named: name, namesOnly: true).filter { area in
            qualifiers.allSatisfy { Self.area(area, isWithin: $0, data) }
        }[...]
        var found = candidates(for: name, in: data, corrections: areas.isEmpty)
        if !areas.isEmpty {
            found =
                areaCandidates(found, areas: areas, name: name, limit: query.limit, in: data)
                ?? found
        }
        var sorted = filter(found, by: qualifiers, data)
        if sorted.isEmpty, parts.count > 1 {
            // A name with a comma of its own ("Washington, D.C."), folded whole.
            sorted = Array(candidates(for: parts.joined(separator: " "), in: data).values)
        }
        sorted.sort { ($0.score, data.cities[$1.city].population) > ($1.score, data.cities[$0.city].population) }
        let ambiguous = isAmbiguousArea(sorted, in: data) ?? isAmbiguous(sorted, data)
        let others = ambiguous ? [] : Self.others(sorted, data)
        return PlaceAPI.SearchResult(
            query: query.text, matches: sorted.prefix(query.limit).map { match($0, data) }, isAmbiguous: ambiguous,
            others: others.map { match($0, data) })
    }

    /// The match of a candidate, with its place.
    static func match(_ candidate: Candidate, _ data: PlaceGazetteerData) -> PlaceAPI.Match {
        let city = data.cities[candidate.city]
        return PlaceAPI.Match(
            place: data.place(of: city), kind: candidate.kind, matchedName: candidate.matchedName,
            edits: candidate.edits, score: candidate.score, area: candidate.area.map { areaName($0, data) },
            isCapital: data.countries[city.country].capital == city.geonameID,
            sharesName: equalRange(city.key, in: data.cities.lazy.map(\.key)).contains {
                $0 != candidate.city && data.cities[$0].country == city.country
            })
    }
}

// MARK: - Helpers

extension PlaceSearchIndex {
    /// The countries and regions each qualifier names ("Canada", "CA", "Illinois", "AL"). A country's
    /// name with a comma of its own ("Bolivia, Plurinational State of") takes the parts it needs; a
    /// leading "the" may be left out ("The Gambia"); a qualifier that names nothing accepts nothing.
    private static func qualifiers(_ parts: ArraySlice<String>, _ data: PlaceGazetteerData)
        -> [ArraySlice<PlaceGazetteerData.AreaReference>]
    {
        var accepted: [ArraySlice<PlaceGazetteerData.AreaReference>] = []
        var start = parts.startIndex
        while start < parts.endIndex {
            var end = parts.endIndex
            var found: ArraySlice<PlaceGazetteerData.AreaReference> = []
            while end > start {
                found = areas(forQualifier: parts[start..<end].joined(separator: " "), data)
                if !found.isEmpty { break }
                end -= 1
            }
            accepted.append(found)
            start = max(end, start + 1)
        }
        return accepted
    }

    /// `key` without its spaces, as Foundation's `replacingOccurrences(of: " ", with: "")` removed them:
    /// not a space that a non-spacing or enclosing mark follows (one composed character with it), but
    /// one before a spacing mark.
    static func withoutSpaces(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        var kept = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if scalar == " " {
                let next = index + 1 < scalars.count ? scalars[index + 1].properties.generalCategory : nil
                guard next == .nonspacingMark || next == .enclosingMark else { continue }
            }
            kept.append(scalar)
        }
        return String(kept)
    }

    private static func areas(forQualifier key: String, _ data: PlaceGazetteerData)
        -> ArraySlice<PlaceGazetteerData.AreaReference>
    {
        var forms = [key]
        if key.hasPrefix("the ") { forms.append(String(key.dropFirst(4))) }
        if key.contains(" ") { forms.append(withoutSpaces(key)) }
        for form in forms {
            let found = data.areas(named: form)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// The candidates in every qualifier's country or region.
    private static func filter(
        _ candidates: [Int: Candidate], by qualifiers: [ArraySlice<PlaceGazetteerData.AreaReference>],
        _ data: PlaceGazetteerData
    ) -> [Candidate] {
        guard !qualifiers.isEmpty else { return Array(candidates.values) }
        return candidates.values.filter { candidate in
            let city = data.cities[candidate.city]
            return qualifiers.allSatisfy { $0.contains { city.isIn($0) } }
        }
    }

    /// Whether the best two (sorted) candidates are distinct places that matched the same way (both
    /// by their own name, say) with weighted populations within a factor of
    /// ``PlaceAPI/SearchResult/ambiguityRatio``. An alternate name close behind an own name (the
    /// Mughal name Islamabad of Chattogram behind Islamabad) is not a tie.
    private static func isAmbiguous(_ sorted: [Candidate], _ data: PlaceGazetteerData) -> Bool {
        guard sorted.count > 1 else { return false }
        return isClose(sorted[1], to: sorted[0], within: PlaceAPI.SearchResult.ambiguityRatio, data)
    }

    /// Whether `other` matched the way `first` did, lies elsewhere, and is smaller by less than `ratio`.
    private static func isClose(
        _ other: Candidate, to first: Candidate, within ratio: Double, _ data: PlaceGazetteerData
    )
        -> Bool
    {
        func own(_ candidate: Candidate) -> Bool { data.cities[candidate.city].key == candidate.matchedName }
        guard first.kind == other.kind, own(first) == own(other), first.score - other.score < log10(ratio) else {
            return false
        }
        let distance = data.cities[first.city].coordinates.kilometers(to: data.cities[other.city].coordinates)
        return distance > samePlaceKilometers
    }

    /// The places worth naming beside the first: those that match the same way and are smaller by
    /// less than ``PlaceAPI/SearchResult/notableRatio``; for a country's name, the places elsewhere
    /// whose own name it is.
    private static func others(_ sorted: [Candidate], _ data: PlaceGazetteerData) -> [Candidate] {
        guard let first = sorted.first else { return [] }
        let others = sorted.dropFirst().filter { candidate in
            if first.area != nil {
                return candidate.area == nil && candidate.kind == .exact
                    && data.cities[candidate.city].country != data.cities[first.city].country
            }
            return isClose(candidate, to: first, within: PlaceAPI.SearchResult.notableRatio, data)
        }
        return Array(others.prefix(othersLimit))
    }
}
