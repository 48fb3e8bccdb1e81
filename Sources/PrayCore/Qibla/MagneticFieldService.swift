/// Gives the Earth's main magnetic field from a field model: what turns a true bearing into the one
/// a compass shows.
///
/// ```swift
/// let qibla = dependency.qiblaService().qibla(from: place)
/// let field = try dependency.magneticFieldService().field(at: place, heightMeters: 0, on: today)
/// print(field.magneticBearing(fromTrue: qibla.direction))
/// ```
public protocol MagneticFieldService: Sendable {
    /// The model the service evaluates.
    var model: MagneticModel { get }

    /// Returns the field at a place, height and time.
    /// - Parameters:
    ///   - coordinates: The place: geodetic latitude and longitude on WGS84 (its elevation is not
    ///     used; `heightMeters` is).
    ///   - heightMeters: Height above the WGS84 ellipsoid in metres.
    ///   - year: The time, a decimal year.
    /// - Throws: ``MagneticFieldError`` (``MagneticFieldErrorKind/outsideValidity``) for a year outside
    ///   the model's validity, or (``MagneticFieldErrorKind/heightOutOfRange``) for a height the model
    ///   does not cover.
    func field(at coordinates: Coordinates, heightMeters: Double, year: DecimalYear) throws -> MagneticField
}

extension MagneticFieldService {
    /// Returns the field at a place and height at the start of a civil day.
    /// - Throws: What ``field(at:heightMeters:year:)`` throws.
    public func field(at coordinates: Coordinates, heightMeters: Double, on date: CivilDate) throws -> MagneticField {
        try field(at: coordinates, heightMeters: heightMeters, year: DecimalYear(date))
    }
}

/// A magnetic field a model cannot give.
public typealias MagneticFieldError = PrayKitError<MagneticFieldErrorKind>

/// What kind of failure a ``MagneticFieldError`` is.
public enum MagneticFieldErrorKind: String, Hashable, Sendable {
    /// The time is outside the years the model is published for; a newer model is needed.
    case outsideValidity
    /// The height is outside the heights the model covers.
    case heightOutOfRange
}
