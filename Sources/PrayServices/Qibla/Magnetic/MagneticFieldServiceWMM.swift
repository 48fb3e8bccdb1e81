import PrayCore

/// The Earth's main magnetic field from the World Magnetic Model (WMM2025, NOAA NCEI and BGS), built
/// in: degree and order 12, epoch 2025.0, valid from 2025.0 to 2030.0.
///
/// ```swift
/// let magnetic = MagneticFieldServiceWMM(log: .silent)
/// let field = try magnetic.field(at: try Coordinates(latitude: 51.5074, longitude: -0.1278), heightMeters: 0,
///                                on: try CivilDate(parsing: "2026-12-01"))
/// print(field.declination)   // about 1° (east)
/// ```
///
/// The computation follows §1.2 of the model's technical report (see `WMMCoefficients+Field.swift`)
/// and matches every row of NOAA's published test values to their printed precision. Dates outside
/// the model's years are refused: its linear secular variation drifts from the real field, and a
/// newer model replaces it every five years.
public struct MagneticFieldServiceWMM: MagneticFieldService {
    private let coefficients: WMMCoefficients
    private let log: LogManager

    /// The heights the WMM covers, metres above the WGS84 ellipsoid: from 1 km below to 850 km above.
    public static let heightRange: ClosedRange<Double> = -1_000...850_000

    /// Creates the service over WMM2025.
    /// - Parameter log: The logger.
    public init(log: LogManager) {
        self.init(coefficients: .wmm2025, log: log)
    }

    /// Creates the service over a model read from its coefficient file.
    init(coefficients: WMMCoefficients, log: LogManager) {
        self.coefficients = coefficients
        self.log = log
    }
}

extension MagneticFieldServiceWMM {
    /// The built-in model: WMM2025, valid from its epoch for five years.
    public var model: MagneticModel {
        MagneticModel(
            name: coefficients.name, epoch: coefficients.epoch,
            validity: coefficients.epoch...(coefficients.epoch + WMMCoefficients.yearsValid),
            releaseDate: coefficients.releaseDate)
    }

    /// Returns the field at a place, height and time.
    /// - Throws: ``MagneticFieldError``: ``MagneticFieldErrorKind/outsideValidity`` outside the model's
    ///   years, ``MagneticFieldErrorKind/heightOutOfRange`` outside ``heightRange``.
    public func field(at coordinates: Coordinates, heightMeters: Double, year: DecimalYear) throws -> MagneticField {
        let model = model
        guard year.value.isFinite else {
            throw MagneticFieldError(.outsideValidity, message: "the year is not a number: \(year.value)")
        }
        guard model.isValid(at: year) else {
            log.debug("Magnetic field refused", metadata: ["magnetic.year": "\(year.value)"])
            throw MagneticFieldError(.outsideValidity, message: Self.outsideValidity(model, year))
        }
        guard heightMeters.isFinite, Self.heightRange.contains(heightMeters) else {
            throw MagneticFieldError(
                .heightOutOfRange,
                message: "\(model.name) covers heights from −1 km to 850 km above the WGS84 ellipsoid, "
                    + "not \(heightMeters) m")
        }
        let vector = coefficients.field(
            latitude: coordinates.latitude, longitude: coordinates.longitude, height: heightMeters, year: year.value)
        return MagneticField(
            model: model, coordinates: coordinates, heightMeters: heightMeters, year: year, north: vector.north,
            east: vector.east, down: vector.down)
    }
}

// MARK: - Helpers

extension MagneticFieldServiceWMM {
    /// Why a year is refused, naming the model's years and what would answer instead.
    static func outsideValidity(_ model: MagneticModel, _ year: DecimalYear) -> String {
        let after = year.value > model.validity.upperBound
        // Two decimals, rounded away from the model's years where rounding would reach them:
        // 2024-12-31 is 2024.99 (not 2025.00, which reads as inside them), 2030-01-02 is 2030.01.
        let nearest = (year.value * 100).rounded() / 100
        let reaches = after ? nearest <= model.validity.upperBound : nearest >= model.validity.lowerBound
        let shown = (reaches ? (year.value * 100).rounded(after ? .up : .down) / 100 : nearest).fixed(2)
        return "\(model.name) is valid from \(MagneticModel.year(model.validity.lowerBound)) to "
            + "\(MagneticModel.year(model.validity.upperBound)); \(shown) is "
            + (after
                ? "after it, and a newer World Magnetic Model is needed (a PrayKit release that ships one)"
                : "before it, and an earlier World Magnetic Model would be needed (PrayKit ships only \(model.name))")
    }
}
