#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one shape of PrayKit's errors that are a kind and a sentence: a ``kind`` to switch on and a
/// ``message`` a person can act on. Each domain names its kinds and the error it throws:
/// ``PrayError``, ``HijriError``, ``ServerError``, ``NotificationError``.
///
/// ```swift
/// do {
///     _ = try hijri.day(of: date, calendar: .ummAlQura, offset: 5)
/// } catch let error as HijriError where error.kind == .invalidOffset {
///     print(error.localizedDescription)   // the Hijri offset must be between -2 and 2 days, got 5
/// }
/// ```
public struct PrayKitError<Kind: Hashable & Sendable>: Error, Hashable, Sendable, CustomStringConvertible,
    LocalizedError
{
    /// What kind of failure this is.
    public let kind: Kind
    /// A sentence that says what failed and what the person can do about it.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - kind: What kind of failure this is.
    ///   - message: What failed and what to do about it.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message, so that `print(error)` and interpolation show what a person needs.
    public var description: String { message }
    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }
}
