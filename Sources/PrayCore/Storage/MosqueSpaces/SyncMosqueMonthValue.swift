#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncCollection {
    /// A month of a mosque space's timetable: key `YYYY-MM`, the value of a `mosque` row (the month's
    /// days with the mosque's place and zone). The space is the mosque, so the key holds no name.
    public static let mosqueMonth = SyncCollection(
        name: "mosque-month", schema: 3, valueType: SyncMosqueMonthValue.self, spaceKinds: [.mosque])
}

/// The value of a `mosque-month` row: one month of the mosque's timetable, as a `mosque` row holds it.
public struct SyncMosqueMonthValue: SyncRowValue {
    /// The month, as an imported mosque's month.
    public var month: SyncMosqueValue

    /// Creates a value.
    public init(_ month: SyncMosqueValue) {
        self.month = month
    }

    /// Decodes the `mosque` row's JSON object.
    /// - Throws: `DecodingError` for a malformed value.
    public init(from decoder: any Decoder) throws {
        month = try SyncMosqueValue(from: decoder)
    }

    /// Encodes the `mosque` row's JSON object.
    public func encode(to encoder: any Encoder) throws {
        try month.encode(to: encoder)
    }
}

extension SyncMosqueMonthValue {
    /// How many days the month holds.
    public var summary: String { month.summary }

    /// The `mosque-month` collection.
    public static var collection: SyncCollection { .mosqueMonth }

    /// A key `YYYY-MM`, and a month as a `mosque` row's (``SyncMosqueValue/validate(key:value:)``).
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(key: String, value: SyncMosqueMonthValue?) throws(ValidationError) {
        guard key.utf8.count == 7 else {
            throw ValidationError(field: "key", message: "a mosque-month key is YYYY-MM")
        }
        // The same rules as a month of an imported mosque, under a stand-in name.
        try SyncMosqueValue.validate(key: "m/" + key, value: value?.month)
    }
}

extension SyncValue {
    /// A `mosque-month` value.
    public static func mosqueMonth(_ value: SyncMosqueMonthValue) -> SyncValue { SyncValue(value) }
}
