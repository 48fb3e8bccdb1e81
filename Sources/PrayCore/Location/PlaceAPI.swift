/// The requests and answers of ``PlaceService``.
public enum PlaceAPI {
    /// A search: a name, optionally followed by a region and a country, comma-separated (`,` or the
    /// Arabic `،`).
    ///
    /// - `Medina`, `مكة`, `Köln`, `Londn` (spelling mistakes of one or two letters are corrected,
    ///   a swap of two letters counting as one);
    /// - `London, Canada`, `London, CA`, `Tehran, Iran`, `القاهرة، مصر` (a country by any of its
    ///   names — ISO, common English, Arabic — or its ISO code; `La Paz, Bolivia, Plurinational State
    ///   of` too);
    /// - `Springfield, Illinois`, `Birmingham, AL`, `Springfield, IL, US` (a region by name or code;
    ///   a two-letter code may be a region or a country, and both are tried);
    /// - `Egypt`, `Qatar`, `Georgia`, `Texas`: a country or a region where a city is expected finds
    ///   its capital and largest cities (see ``MatchKind/country``), never a look-alike town elsewhere.
    public struct Query: Hashable, Sendable {
        /// The text as typed.
        public let text: String
        /// The most places to return.
        public let limit: Int

        /// Creates a query.
        /// - Parameters:
        ///   - text: A name, optionally followed by `, region` and/or `, country`.
        ///   - limit: The most places to return; 10 by default.
        public init(_ text: String, limit: Int = 10) {
            self.text = text
            self.limit = limit
        }
    }

    /// How a place matched the query.
    public enum MatchKind: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// The place's own name, accents and case aside.
        case exact
        /// One of its alternate names (`Cologne` for Köln, `Bombay` for Mumbai, `مكة` for Makkah).
        case alternateName = "alternate-name"
        /// The query begins the name or an alternate name (`Sao Pau`).
        case prefix
        /// The query is one or two letters away from a name (`Londn`, `Riyahd`).
        case spellingCorrection = "spelling-correction"
        /// The query names a country (`Egypt`, `مصر`, `Qatar`): the place is its capital or one of its
        /// largest cities.
        case country
        /// The query names a region (`Texas`, `Punjab`, and `Georgia` the US state): the place is one
        /// of its largest cities.
        case region

        /// The former name of ``exact``.
        @available(*, deprecated, renamed: "exact")
        public static let name = MatchKind.exact
        /// The former name of ``spellingCorrection``.
        @available(*, deprecated, renamed: "spellingCorrection")
        public static let typo = MatchKind.spellingCorrection

        /// The raw value.
        public var description: String { rawValue }

        /// Whether the place matched by a name as given (``exact`` or ``alternateName``).
        public var isExactName: Bool { self == .exact || self == .alternateName }
    }

    /// One place that matched, with how and how well.
    public struct Match: Hashable, Sendable {
        /// The place.
        public let place: Place
        /// How it matched.
        public let kind: MatchKind
        /// The name that matched, folded (lower case, without accents), such as `bombay`; for a
        /// ``MatchKind/country`` or ``MatchKind/region`` match, the folded name of the country or region.
        public let matchedName: String
        /// Letters changed for a ``MatchKind/spellingCorrection`` match, else 0.
        public let edits: Int
        /// The ranking score: higher is better. It orders matches of one query; it means nothing
        /// across queries.
        public let score: Double
        /// For a ``MatchKind/country`` or ``MatchKind/region`` match, the country or region the query
        /// named: `Egypt`, `Georgia, United States`.
        public let area: String?
        /// Whether the place is its country's capital (GeoNames).
        public let isCapital: Bool
        /// Whether another city of the gazetteer has this name in the same country, so that the region
        /// tells them apart (`Springfield, Illinois, US`).
        public let sharesName: Bool

        /// Creates a match.
        public init(
            place: Place, kind: MatchKind, matchedName: String, edits: Int = 0, score: Double, area: String? = nil,
            isCapital: Bool = false, sharesName: Bool = false
        ) {
            self.place = place
            self.kind = kind
            self.matchedName = matchedName
            self.edits = edits
            self.score = score
            self.area = area
            self.isCapital = isCapital
            self.sharesName = sharesName
        }

        /// The place's name for a header: `Makkah, SA`, or with the region when another city of the
        /// country has the name: `Springfield, Illinois, US`.
        public var shortName: String {
            guard sharesName, let region = place.region, region != place.name else { return place.shortName }
            return "\(place.name), \(region), \(place.countryCode)"
        }
    }

    /// The places that matched a query, best first.
    ///
    /// The ranking: a name or alternate name that matches exactly, then a name the query begins,
    /// then a name one or two letters away; within each, larger places first. A match on a place's
    /// own name counts as a place ten times as large as one on an alternate name, so `Medina` finds
    /// Madinah (1.3 million, alternate name) before Medina, Ohio (26,000, own name), while an odd
    /// alternate name on a small place never hides a large place of that name. A spelling correction
    /// to a place a hundred times larger than a small place matched as given comes first: `Cario`
    /// is Cairo. When the best two are of one kind and within ``ambiguityRatio`` of each other (after
    /// that bonus), ``isAmbiguous`` is true and ``best`` is `nil`: show the candidates rather than
    /// guess.
    ///
    /// A country's name (`Egypt`, `مصر`) finds the cities of that country: its capital, then its
    /// largest cities, all ``MatchKind/country``, and beside them only the places of that name
    /// elsewhere (Lebanon, Tennessee), never a look-alike. A small country, whose cities all lie
    /// within ``compactCountryKilometers`` of its capital (Qatar, Bahrain, Lebanon, Singapore), gives
    /// its capital; any other is ambiguous: its times differ from city to city. A region's name
    /// (`Texas`) is ambiguous between its largest cities, unless a city has that name. A name that is
    /// both (`Georgia`: the country and the US state) is ambiguous between Tbilisi and the state's
    /// cities.
    public struct SearchResult: Hashable, Sendable {
        /// The query as typed.
        public let query: String
        /// The matches, best first.
        public let matches: [Match]
        /// Whether the best matches are too close to choose between.
        public let isAmbiguous: Bool
        /// Other places that match the way ``best`` does and are worth naming beside it: smaller, but
        /// by less than ``notableRatio`` (`Hyderabad` finds Hyderabad, India, and names Hyderabad,
        /// Pakistan), and the places a country's name also names (Lebanon, Tennessee, for `Lebanon`).
        /// Empty when the result is ambiguous.
        public let others: [Match]

        /// How close two weighted populations must be for the result to be ambiguous: within a
        /// factor of 3.
        public static let ambiguityRatio = 3.0
        /// How close a smaller place must be to the best to be named beside it: within a factor of 10.
        public static let notableRatio = 10.0
        /// How far from its capital a country's cities may lie for its name to stand for its capital,
        /// kilometres: times across it then differ by a few minutes at most.
        public static let compactCountryKilometers = 100.0

        /// Creates a result.
        public init(query: String, matches: [Match], isAmbiguous: Bool, others: [Match] = []) {
            self.query = query
            self.matches = matches
            self.isAmbiguous = isAmbiguous
            self.others = others
        }

        /// The chosen place: the first match, unless the result is ambiguous or empty.
        public var best: Place? { isAmbiguous ? nil : matches.first?.place }

        /// How the query matched: the kind of the first match, or `nil` when nothing matched.
        public var kind: MatchKind? { matches.first?.kind }

        /// The places, best first.
        public var places: [Place] { matches.map(\.place) }
    }

    /// The one city a query names (``LocationManager/cityChoice(named:)``): the match, and the other
    /// places worth naming beside it.
    public struct CityChoice: Hashable, Sendable {
        /// The query as typed.
        public let query: String
        /// The chosen city and how it matched.
        public let match: Match
        /// Other places the query also names, smaller ones (``SearchResult/others``).
        public let others: [Match]

        /// Creates a choice.
        public init(query: String, match: Match, others: [Match] = []) {
            self.query = query
            self.match = match
            self.others = others
        }

        /// The city.
        public var place: Place { match.place }
    }

    /// A place and how far it is from a point.
    public struct Nearby: Hashable, Sendable {
        /// The place.
        public let place: Place
        /// The great-circle distance on a sphere of radius 6371.0088 km, kilometres.
        public let distanceKilometers: Double

        /// Creates a nearby place.
        public init(place: Place, distanceKilometers: Double) {
            self.place = place
            self.distanceKilometers = distanceKilometers
        }
    }

    /// A country of the gazetteer.
    public struct Country: Hashable, Sendable, Codable {
        /// The ISO 3166-1 alpha-2 code, upper-case.
        public let code: String
        /// The English name.
        public let name: String

        /// Creates a country.
        public init(code: String, name: String) {
            self.code = code
            self.name = name
        }
    }
}
