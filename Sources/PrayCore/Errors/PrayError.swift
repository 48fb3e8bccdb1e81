/// A prayer time that could not be produced for a reason other than bad input.
///
/// Input mistakes are ``ValidationError``s; a sun that does not reach an altitude on a given day is
/// not an error at all but an ``PrayerTime/Unavailability`` in the ``PrayerSchedule``.
public typealias PrayError = PrayKitError<PrayErrorKind>

/// What kind of failure a ``PrayError`` is.
public enum PrayErrorKind: String, Hashable, Sendable {
    /// The request asks for a date outside the range the calculation supports.
    case unsupportedDate
    /// A service that serves published timetables could not provide the requested days.
    case unavailable
}
