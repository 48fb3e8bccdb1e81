import PrayCore

/// The query parameters the AlAdhan API reads, found in one pass over a request's query.
///
/// A `/v1/timings` request names a handful of parameters, and the routes ask for about twenty (most of
/// them absent). Looking each name up in the query compared it with every parameter sent; here each
/// parameter the request sends is recognised once, and every later question is an array index.
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

        /// The parameter a name in a URL is, by its exact spelling: the one candidate of its length and
        /// first letter is compared, instead of hashing the name for a dictionary (a request sends a
        /// handful of names, and this runs for each).
        init?(spelling name: String) {
            let candidate: Name?
            switch (name.utf8.count, name.utf8.first ?? 0) {
            case (4, UInt8(ascii: "d")): candidate = .date
            case (6, UInt8(ascii: "a")): candidate = .annual
            case (4, UInt8(ascii: "y")): candidate = .year
            case (5, UInt8(ascii: "m")): candidate = .month
            case (4, UInt8(ascii: "z")): candidate = .zone
            case (14, UInt8(ascii: "t")): candidate = .timezonestring
            case (4, UInt8(ascii: "c")): candidate = .city
            case (7, UInt8(ascii: "c")): candidate = .country
            case (5, UInt8(ascii: "s")): candidate = .state
            case (8, UInt8(ascii: "l")): candidate = .latitude
            case (9, UInt8(ascii: "l")): candidate = .longitude
            case (6, UInt8(ascii: "m")): candidate = .method
            case (14, UInt8(ascii: "m")): candidate = .methodSettings
            case (6, UInt8(ascii: "s")): candidate = name.utf8.last == UInt8(ascii: "q") ? .shafaq : .school
            case (12, UInt8(ascii: "m")): candidate = .midnightMode
            case (24, UInt8(ascii: "l")): candidate = .latitudeAdjustmentMethod
            case (4, UInt8(ascii: "t")): candidate = .tune
            case (7, UInt8(ascii: "i")): candidate = .iso8601
            case (11, UInt8(ascii: "m")): candidate = .midnightDay
            case (14, UInt8(ascii: "c")): candidate = .calendarMethod
            case (10, UInt8(ascii: "a")): candidate = .adjustment
            case (7, UInt8(ascii: "a")): candidate = .address
            default: candidate = nil
            }
            guard let candidate, name == Self.spellings[candidate.rawValue] else { return nil }
            self = candidate
        }
    }

    /// The value of each parameter as sent, by ``Name/rawValue``; empty when absent.
    ///
    /// The values of the parameters sent, in the order of their names (``Name/rawValue``), and a bit
    /// for each: a parameter's value is at the count of the bits set below its own. Only what was sent
    /// is kept: a slot for each of the 23 names was an array made by the generic initializer and 23
    /// strings released with every request (and 23 optionals, before that, went through the generic
    /// `Optional` each: about 1,300 instructions, a fiftieth of a `/v1/timings` answer).
    private var values: [String] = []
    /// Bit ``Name/rawValue`` is set for each parameter the query has.
    private var sent: UInt32 = 0

    /// Reads the parameters the API knows from a request's query (names are case-sensitive, as in
    /// AlAdhan).
    init(_ query: ServerAPI.Fields) {
        values.reserveCapacity(query.count)
        for (name, value) in query {
            guard let known = Name(spelling: name) else { continue }
            // Appended and swapped down to its slot: `insert(_:at:)` goes through the generic
            // `replaceSubrange`, which cost more than the rest of the parameter.
            let slot = slot(known)
            values.append(value)
            var index = values.count - 1
            while index > slot {
                values.swapAt(index, index - 1)
                index -= 1
            }
            sent |= 1 << UInt32(known.rawValue)
        }
    }

    /// Where the value of `name` is, or goes, in ``values``.
    private func slot(_ name: Name) -> Int {
        (sent & (1 << UInt32(name.rawValue) - 1)).nonzeroBitCount
    }

    /// The value as sent, or `nil` when absent.
    subscript(name: Name) -> String? {
        sent & 1 << UInt32(name.rawValue) != 0 ? values[slot(name)] : nil
    }

    /// The value without spaces and tabs around it, or `nil` when it is absent or empty (AlAdhan
    /// treats both alike).
    func given(_ name: Name) -> String? {
        guard let value = self[name]?.trimmedOfSpaces, !value.isEmpty else { return nil }
        return value
    }
}
