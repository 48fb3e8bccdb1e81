import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A range of civil days as people type it: `2015-06-01..2015-08-31`, or one day `2015-06-01`
/// (`qada estimate --except`).
struct DayRange: ArgumentValue, Equatable {
    /// The days, first through last.
    let days: ClosedRange<CivilDate>

    init(argument: String) throws(ArgumentValueError) {
        let parts = argument.components(separatedBy: "..")
        guard (1...2).contains(parts.count) else { throw Self.malformed }
        var dates: [CivilDate] = []
        for part in parts {
            do {
                dates.append(try CivilDate(parsing: part.trimmingWhitespace()))
            } catch {
                throw ArgumentValueError(
                    reason: "must look like FROM..TO (YYYY-MM-DD..YYYY-MM-DD): \(error.message)", namesTheValue: true)
            }
        }
        guard let first = dates.first, let last = dates.last, first <= last else {
            throw ArgumentValueError(reason: "starts after it ends (FROM..TO, FROM on or before TO)")
        }
        days = first...last
    }

    private static let malformed = ArgumentValueError(reason: "must look like FROM..TO (YYYY-MM-DD..YYYY-MM-DD)")

    var argumentDescription: String {
        days.lowerBound == days.upperBound ? "\(days.lowerBound)" : "\(days.lowerBound)..\(days.upperBound)"
    }
}
