#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncCollection {
    /// An announced first day of a Hijri month: key the Hijri month, `YYYY-MM`. A person's own, or the
    /// one a mosque announces (in its space).
    public static let hijriStart = SyncCollection(
        name: "hijri-start", schema: 2, valueType: SyncHijriStartValue.self, spaceKinds: [.personal, .mosque])
}

/// The value of a `hijri-start` row: the month's announced first day.
public struct SyncHijriStartValue: SyncRowValue {
    /// The first day, `YYYY-MM-DD`.
    public var start: CivilDate

    /// Creates a value.
    public init(start: CivilDate) {
        self.start = start
    }
}

extension SyncHijriStartValue {
    /// The first day.
    public var summary: String { "starts \(start)" }

    /// The `hijri-start` collection.
    public static var collection: SyncCollection { .hijriStart }

    /// A Hijri month `YYYY-MM` and a first day that month can have.
    /// - Throws: ``ValidationError`` saying what is wrong.
    public static func validate(key: String, value: SyncHijriStartValue?) throws(ValidationError) {
        let month = try HijriMonthStarts.Month(parsing: key)
        if let value { try HijriMonthStarts.checkPlausible(value.start, for: month) }
    }
}

extension SyncValue {
    /// A `hijri-start` value.
    public static func hijriStart(_ value: SyncHijriStartValue) -> SyncValue { SyncValue(value) }
}
