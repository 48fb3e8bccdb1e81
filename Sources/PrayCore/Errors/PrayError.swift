/// A prayer time that could not be produced for a reason other than bad input.
///
/// Input mistakes are ``ValidationError``s; a sun that does not reach an altitude on a given day is
/// not an error at all but an ``PrayerTime/Unavailability`` in the ``PrayerSchedule``.
public struct PrayError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: String, Equatable, Hashable, Sendable {
        /// The request asks for a date outside the range the calculation supports.
        case unsupportedDate
        /// A service that serves published timetables could not provide the requested days.
        case unavailable
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// A sentence that says what failed and what the user can do about it.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - kind: What kind of failure this is.
    ///   - message: What failed and what the user can do about it.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
