/// The requests and answers of ``PlaceService``.
public enum PlaceAPI {
    /// A search: a name, optionally followed by a region and a country, comma-separated.
    ///
    /// - `Medina`, `مكة`, `Köln`, `Londn` (typos of one or two letters are forgiven);
    /// - `London, Canada`, `London, CA` (a country by name or ISO code);
    /// - `Springfield, Illinois`, `Birmingham, AL`, `Springfield, IL, US` (a region by name or code;
    ///   a two-letter code may be a region or a country, and both are tried).
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

    /// How a place's name matched the query.
    public enum MatchKind: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// The place's own name, accents and case aside.
        case name
        /// One of its alternate names (`Cologne` for Köln, `Bombay` for Mumbai, `مكة` for Makkah).
        case alternateName = "alternate-name"
        /// The query begins the name or an alternate name (`Sao Pau`).
        case prefix
        /// The query is one or two letters away from a name (`Londn`).
        case typo

        /// The raw value.
        public var description: String { rawValue }
    }

    /// One place that matched, with how and how well.
    public struct Match: Hashable, Sendable {
        /// The place.
        public let place: Place
        /// How its name matched.
        public let kind: MatchKind
        /// The name that matched, folded (lower case, without accents), such as `bombay`.
        public let matchedName: String
        /// Letters changed for a ``MatchKind/typo`` match, else 0.
        public let edits: Int
        /// The ranking score: higher is better. It orders matches of one query; it means nothing
        /// across queries.
        public let score: Double

        /// Creates a match.
        public init(place: Place, kind: MatchKind, matchedName: String, edits: Int = 0, score: Double) {
            self.place = place
            self.kind = kind
            self.matchedName = matchedName
            self.edits = edits
            self.score = score
        }
    }

    /// The places that matched a query, best first.
    ///
    /// The ranking: a name or alternate name that matches exactly, then a name the query begins,
    /// then a name one or two letters away; within each, larger places first. A match on a place's
    /// own name counts as a place ten times as large as one on an alternate name, so `Medina` finds
    /// Madinah (1.3 million, alternate name) before Medina, Ohio (26,000, own name), while an odd
    /// alternate name on a small place never hides a large place of that name. When the best two
    /// are of one kind and within ``ambiguityRatio`` of each other (after that bonus),
    /// ``isAmbiguous`` is true and ``best`` is `nil`: show the candidates rather than guess.
    public struct SearchResult: Hashable, Sendable {
        /// The query as typed.
        public let query: String
        /// The matches, best first.
        public let matches: [Match]
        /// Whether the best matches are too close to choose between.
        public let isAmbiguous: Bool

        /// How close two weighted populations must be for the result to be ambiguous: within a
        /// factor of 3.
        public static let ambiguityRatio = 3.0

        /// Creates a result.
        public init(query: String, matches: [Match], isAmbiguous: Bool) {
            self.query = query
            self.matches = matches
            self.isAmbiguous = isAmbiguous
        }

        /// The chosen place: the first match, unless the result is ambiguous or empty.
        public var best: Place? { isAmbiguous ? nil : matches.first?.place }

        /// The places, best first.
        public var places: [Place] { matches.map(\.place) }
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
