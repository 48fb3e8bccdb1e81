#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An input that PrayKit cannot work with: a latitude of 91°, a date such as 2026-02-30, an unknown
/// time zone or method name.
///
/// The message is written for the person who typed the input, so a command-line tool can print it
/// as it is:
///
/// ```swift
/// do {
///     _ = try Coordinates(latitude: 91, longitude: 0)
/// } catch {
///     print(error.message)  // "latitude must be between -90 and 90 degrees, got 91"
/// }
/// ```
public struct ValidationError: Error, Equatable, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The name of the value that was rejected, such as `"latitude"` or `"date"`.
    public let field: String
    /// A sentence that says what was wrong and what is accepted.
    public let message: String

    /// Creates an error for the value named `field`.
    /// - Parameters:
    ///   - field: The name of the rejected value.
    ///   - message: What was wrong and what is accepted.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// The message, so that `print(error)` and string interpolation show what a user needs.
    public var description: String { message }
    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }
}

extension ValidationError {
    /// Returns an error for a number outside a closed range.
    static func outOfRange(
        _ field: String, _ value: Double, _ range: ClosedRange<Double>, unit: String = ""
    ) -> ValidationError {
        let suffix = unit.isEmpty ? "" : " \(unit)"
        let shown = value.isFinite ? value.formattedCompactly : "\(value)"
        return ValidationError(
            field: field,
            message: "\(field) must be between \(range.lowerBound.formattedCompactly) and "
                + "\(range.upperBound.formattedCompactly)\(suffix), got \(shown)"
        )
    }
}
