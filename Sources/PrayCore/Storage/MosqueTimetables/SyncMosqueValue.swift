#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncCollection {
    /// A month of an imported mosque timetable: key `<mosque name>/YYYY-MM`, the month's days with the
    /// mosque's place (a mosque is kept while any of its months is).
    public static let mosque = SyncCollection(name: "mosque", schema: 2, valueType: SyncMosqueValue.self)
}

/// The value of a `mosque` row: one month of a mosque's imported timetable, with the place and zone
/// its clock times belong to.
public struct SyncMosqueValue: SyncRowValue {
    /// The mosque's latitude, degrees.
    public var latitude: Double
    /// The mosque's longitude, degrees.
    public var longitude: Double
    /// The mosque's elevation, metres.
    public var elevation: Double
    /// The IANA zone of its clock times.
    public var timeZone: String
    /// The month's days, in date order.
    public var days: [MosqueDay]

    /// Creates a value.
    public init(latitude: Double, longitude: Double, elevation: Double, timeZone: String, days: [MosqueDay]) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.timeZone = timeZone
        self.days = days
    }
}

extension SyncMosqueValue {
    /// How many days the month holds.
    public var summary: String { "\(days.count) day\(days.count == 1 ? "" : "s")" }

    /// The `mosque` collection.
    public static var collection: SyncCollection { .mosque }

    /// A key `<mosque name>/YYYY-MM`, and a valid place and zone with 1 to 31 days of that month in
    /// order, each valid.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(key: String, value: SyncMosqueValue?) throws(ValidationError) {
        let (_, year, month) = try SyncRules.parseMosqueKey(key)
        guard let mosque = value else { return }
        _ = try Coordinates(latitude: mosque.latitude, longitude: mosque.longitude, elevation: mosque.elevation)
        if TimeZoneName(mosque.timeZone) == nil { throw TimeZoneName.unknown(mosque.timeZone) }
        guard (1...31).contains(mosque.days.count) else {
            throw ValidationError(field: "days", message: "a mosque's month holds 1 to 31 days")
        }
        var previous: CivilDate?
        for day in mosque.days {
            guard day.date.year == year, day.date.month == month, previous.map({ $0 < day.date }) ?? true else {
                throw ValidationError(
                    field: "days", message: "\(day.date) is not a later day of the month \(year)-\(month)")
            }
            try day.validate()
            previous = day.date
        }
    }
}

extension SyncValue {
    /// A `mosque` value.
    public static func mosque(_ value: SyncMosqueValue) -> SyncValue { SyncValue(value) }
}

extension SyncRules {
    /// `East London Mosque/2027-03`: the key of a mosque's month.
    public static func mosqueKey(name: String, year: Int, month: Int) -> String {
        name + "/" + printfPadded(year, 4) + "-" + printfPadded(month, 2)
    }

    /// `value` as C's `%0<width>d` writes it (the sign counts in the width): what
    /// `String(format: "%04d-%02d")` wrote here before, without full Foundation.
    private static func printfPadded(_ value: Int, _ width: Int) -> String {
        guard value < 0 else { return value.zeroPadded(width) }
        let digits = String(value.magnitude)
        return "-" + String(repeating: "0", count: Swift.max(0, width - 1 - digits.count)) + digits
    }

    /// The mosque name, year and month of a `mosque` key.
    /// - Throws: ``ValidationError`` for anything but `<a mosque name>/YYYY-MM`.
    public static func parseMosqueKey(_ key: String) throws(ValidationError) -> (name: String, year: Int, month: Int) {
        guard let slash = key.lastIndex(of: "/") else {
            throw ValidationError(field: "key", message: "a mosque key is <name>/YYYY-MM")
        }
        let name = String(key[..<slash])
        try MosqueTimetable.validate(name: name)
        let parts = key[key.index(after: slash)...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let year = Int(parts[0]),
            let month = Int(parts[1]), (1...12).contains(month), (1...9999).contains(year)
        else {
            throw ValidationError(field: "key", message: "a mosque key is <name>/YYYY-MM")
        }
        return (name, year, month)
    }
}
