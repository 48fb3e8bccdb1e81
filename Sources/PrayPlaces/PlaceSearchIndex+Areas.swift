import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A country's or region's name where a city is expected (`Egypt`, `مصر`, `Texas`, `Georgia`): the
/// rules of ``PlaceAPI/SearchResult`` for such a query.
extension PlaceSearchIndex {
    /// The tier of the cities a country's or region's name suggests: above every match of the name
    /// as a city elsewhere.
    static let areaTier = 400.0
    /// What a name matched inside a country the query names gains (Kuwait City for `Kuwait`, Mexico
    /// City for `Mexico`): it ranks above every suggestion.
    static let inAreaBonus = 200.0
    /// What the capital of a named country gains over its largest cities: it ranks first of them.
    static let capitalBonus = 10.0
    /// An alternate name of a city this large (people) that is also a country's name is no accident:
    /// `عمان` is Oman and Amman, `Benin` the country and Benin City. Smaller places keep such names by
    /// accident of the data (GeoNames gives `Egypt` to Goodyear, Arizona), and they are left out.
    static let largeCityFloor = 1_000_000

    /// The candidates of a name that names countries or regions (`areas`, found by name, not code),
    /// or `nil` when the name's own matches stand (it names only regions, and a place has the name:
    /// `Washington`, `Ontario`).
    ///
    /// For a country's name: the name's matches inside the country, its capital and `limit` largest
    /// cities, and the places elsewhere whose own name it is (Lebanon, Tennessee) or, for a city of a
    /// million, an alternate name (Amman for `عمان`), by size — never a prefix, a spelling correction or
    /// an alternate name of a smaller place elsewhere (GeoNames gives `Egypt` to Goodyear, Arizona). For a region's name, when no place has the name as given (also when it
    /// names a country too: `Georgia`): the region's `limit` largest cities.
    static func areaCandidates(
        _ found: [Int: Candidate], areas: ArraySlice<PlaceGazetteerData.AreaReference>, name: String, limit: Int,
        in data: PlaceGazetteerData
    ) -> [Int: Candidate]? {
        let namesCountry = areas.contains(where: \.isCountry)
        var best: [Int: Candidate] = [:]
        for (index, candidate) in found where candidate.kind.isExactName {
            let city = data.cities[index]
            if areas.contains(where: { city.isIn($0) }) {
                var lifted = candidate
                lifted.score += inAreaBonus
                best[index] = lifted
            } else if candidate.kind == .exact || !namesCountry || city.population >= largeCityFloor {
                // A place elsewhere whose name this is, ranked among the suggestions by its size.
                var placed = candidate
                placed.score = areaTier + log10(Double(max(city.population, 1)))
                best[index] = placed
            }
        }
        if !namesCountry, !best.isEmpty { return nil }
        // A region's cities when nothing has the name as given: `Georgia` is the country and the state.
        let nameMatched = !best.isEmpty
        for area in areas where area.isCountry || !nameMatched {
            for city in largest(limit, in: area, data) {
                let isCapital = area.isCountry && data.countries[area.index].capital == data.cities[city].geonameID
                let size = log10(Double(max(data.cities[city].population, 1)))
                let score = areaTier + size + (isCapital ? capitalBonus : 0)
                if let current = best[city], current.score >= score { continue }
                best[city] = Candidate(
                    city: city, kind: area.isCountry ? .country : .region, matchedName: name, score: score, area: area)
            }
        }
        return best
    }

    /// Whether the sorted candidates of a named country or region leave a choice, or `nil` when the
    /// first is not a suggestion (the usual rule then applies). No choice is left when they suggest a
    /// single country or region whose cities all lie within
    /// ``PlaceAPI/SearchResult/compactCountryKilometers`` of the first (its capital, or its largest
    /// city).
    static func isAmbiguousArea(_ sorted: [Candidate], in data: PlaceGazetteerData) -> Bool? {
        guard let first = sorted.first, let area = first.area else { return nil }
        guard sorted.allSatisfy({ $0.area == nil || $0.area == area }) else { return true }
        let center = data.cities[first.city].coordinates
        let limit = PlaceAPI.SearchResult.compactCountryKilometers
        return data.cities.contains { $0.isIn(area) && $0.coordinates.kilometers(to: center) > limit }
    }

    /// The display name of a named country or region: `Egypt`, `Georgia, United States`.
    static func areaName(_ area: PlaceGazetteerData.AreaReference, _ data: PlaceGazetteerData) -> String {
        if area.isCountry { return data.countries[area.index].name }
        let region = data.regions[area.index]
        guard region.country >= 0 else { return region.name }
        return "\(region.name), \(data.countries[region.country].name)"
    }

    /// Whether a country or region lies within one of a qualifier's: `Georgia` the US state within
    /// `US`, not Georgia the country.
    static func area(
        _ area: PlaceGazetteerData.AreaReference, isWithin qualifier: ArraySlice<PlaceGazetteerData.AreaReference>,
        _ data: PlaceGazetteerData
    ) -> Bool {
        qualifier.contains { other in
            switch (area.isCountry, other.isCountry) {
            case (true, true), (false, false): area.index == other.index
            case (false, true): data.regions[area.index].country == other.index
            case (true, false): false
            }
        }
    }

    /// The `limit` largest cities of a country or region, largest first, and a country's capital
    /// when the gazetteer has it.
    private static func largest(_ limit: Int, in area: PlaceGazetteerData.AreaReference, _ data: PlaceGazetteerData)
        -> [Int]
    {
        var top: [Int] = []
        top.reserveCapacity(limit + 1)
        for (index, city) in data.cities.enumerated() where city.isIn(area) {
            if top.count == limit, city.population <= data.cities[top[limit - 1]].population { continue }
            let position = top.firstIndex { data.cities[$0].population < city.population } ?? top.count
            top.insert(index, at: position)
            if top.count > limit { top.removeLast() }
        }
        if area.isCountry, let capital = data.cityByGeonameID[data.countries[area.index].capital],
            !top.contains(capital)
        {
            top.append(capital)
        }
        return top
    }
}

extension PlaceGazetteerData.City {
    /// Whether the city lies in a country or region.
    func isIn(_ area: PlaceGazetteerData.AreaReference) -> Bool {
        area.isCountry ? area.index == country : area.index == region
    }
}
