import PrayCore

/// How a place matched a query, in words: the `Match` column of `places search`, the note beside a
/// city's name in headers (`Makkah, SA (spelling correction of 'Makah')`), and the places a name also
/// names.
enum MatchText {
    /// The name part of a query, as typed: `Makah` of `Makah, SA`.
    static func name(of query: String) -> String {
        let name = query.split { $0 == "," || $0 == "،" || $0 == "，" }.first.map(String.init) ?? query
        return name.trimmingWhitespace()
    }

    /// The note for a header when the city did not match by its own name, else `nil`:
    /// `spelling correction of 'Makah'`, `capital of Qatar, for 'Qatar'`.
    static func note(_ match: PlaceAPI.Match, query: String) -> String? {
        let typed = "'\(name(of: query))'"
        switch match.kind {
        case .exact: return nil
        case .alternateName: return "alternate name \(typed)"
        case .prefix: return "completing \(typed)"
        case .spellingCorrection: return "spelling correction of \(typed)"
        case .country, .region: return "\(role(match, chosen: true)), for \(typed)"
        }
    }

    /// The `Match` column of a search's table: `exact`, `alternate name`, `capital of Egypt`.
    static func column(_ match: PlaceAPI.Match, query: String) -> String {
        switch match.kind {
        case .exact: match.isCapital ? "exact (capital)" : "exact"
        case .alternateName: "alternate name"
        case .prefix: "prefix"
        case .spellingCorrection: "spelling correction"
        case .country, .region: role(match)
        }
    }

    /// A line before a search's table saying what the query turned out to be, or `nil` for a plain
    /// answer.
    static func introduction(_ result: PlaceAPI.SearchResult) -> String? {
        let typed = "'\(name(of: result.query))'"
        guard let first = result.matches.first else { return nil }
        switch first.kind {
        case .country, .region:
            let areas = result.matches.filter { $0.kind == .country || $0.kind == .region }
            let kinds = Set(areas.map(\.kind))
            let many = Set(areas.compactMap(\.area)).count > 1
            let (one, several) = first.kind == .country ? ("a country", "countries") : ("a region", "regions")
            let what = kinds.count > 1 ? "a country and a region" : many ? several : one
            guard result.isAmbiguous else {
                return "\(typed) names \(what); its \(first.isCapital ? "capital" : "largest city") stands for it "
                    + "(its cities lie close together):"
            }
            let area = first.kind == .region ? first.place.region ?? first.place.countryName : first.place.countryName
            return "\(typed) names \(what), not a city: \(many ? "their" : "its") largest cities follow; choose one, "
                + "such as '\(first.place.name), \(area)':"
        case .spellingCorrection: return "Nothing is called \(typed); the closest names:"
        case .exact, .alternateName, .prefix:
            return result.isAmbiguous
                ? "\(typed) could be any of these; add the region or country to choose:" : nil
        }
    }

    /// The other places a city's query names, for a header line: `Also named 'Hyderabad': Hyderabad,
    /// Sindh, Pakistan (--city 'Hyderabad, PK')`; `nil` when there are none.
    /// - Parameter option: How to choose one instead, before the quoted name: `--city`.
    static func others(_ choice: PlaceAPI.CityChoice, option: String = "--city") -> String? {
        guard !choice.others.isEmpty else { return nil }
        let names = choice.others.map { other in
            let qualifier =
                other.sharesName ? (other.place.regionCode ?? other.place.countryCode) : other.place.countryCode
            return "\(other.place.fullName) (\(option) '\(other.place.name), \(qualifier)')"
        }
        return "Also named '\(name(of: choice.query))': \(names.joined(separator: "; "))"
    }

    /// `capital of Egypt`, `city of Egypt`, `city of Georgia, United States`; for the one city chosen
    /// for a region, `largest city of Île-de-France, France`.
    private static func role(_ match: PlaceAPI.Match, chosen: Bool = false) -> String {
        let area = match.area ?? match.place.countryName
        if match.kind == .country, match.isCapital { return "capital of \(area)" }
        return "\(chosen ? "largest city" : "city") of \(area)"
    }
}
