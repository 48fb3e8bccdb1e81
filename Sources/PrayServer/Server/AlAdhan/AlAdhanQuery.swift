/// The query parameters the AlAdhan API reads, found in one pass over a request's query.
///
/// A `/v1/timings` request names a handful of parameters, and the routes ask for about twenty (most of
/// them absent). Looking each name up in the query's dictionary hashed every name on every request;
/// here each parameter the request sends is hashed once, and every later question is an array index.
/// Parameters the API does not read are ignored, as before.
struct AlAdhanQuery {
    /// A parameter the API reads; the case is spelt as the parameter is.
    enum Name: Int, CaseIterable, CustomStringConvertible {
        case date, annual, year, month, zone, timezonestring, city, country, state, latitude, longitude
        case method, methodSettings, shafaq, school, midnightMode, latitudeAdjustmentMethod, tune, iso8601
        case midnightDay, calendarMethod, adjustment, address

        /// The parameter's name in a URL, for messages.
        var description: String { Self.spellings[rawValue] }

        /// The names, by raw value.
        static let spellings: [String] = [
            "date", "annual", "year", "month", "zone", "timezonestring", "city", "country", "state", "latitude",
            "longitude", "method", "methodSettings", "shafaq", "school", "midnightMode", "latitudeAdjustmentMethod",
            "tune", "iso8601", "midnightDay", "calendarMethod", "adjustment", "address",
        ]

        /// The parameter a name in a URL is, by its exact spelling.
        static let byName: [String: Name] = Dictionary(
            uniqueKeysWithValues: allCases.map { (spellings[$0.rawValue], $0) })
    }

    /// The value of each parameter as sent, by ``Name/rawValue``; `nil` when absent.
    private var values: [String?]

    /// Reads the parameters the API knows from a request's query (names are case-sensitive, as in
    /// AlAdhan).
    init(_ query: [String: String]) {
        values = Array(repeating: nil, count: Name.spellings.count)
        for (name, value) in query {
            if let known = Name.byName[name] { values[known.rawValue] = value }
        }
    }

    /// The value as sent, or `nil` when absent.
    subscript(name: Name) -> String? {
        values[name.rawValue]
    }

    /// The value without spaces and tabs around it, or `nil` when it is absent or empty (AlAdhan
    /// treats both alike).
    func given(_ name: Name) -> String? {
        guard let value = values[name.rawValue]?.trimmedOfSpaces, !value.isEmpty else { return nil }
        return value
    }
}
