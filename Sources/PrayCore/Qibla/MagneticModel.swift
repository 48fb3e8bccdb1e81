/// A model of the Earth's main magnetic field: its name, the epoch of its coefficients and the years
/// its makers say it holds for.
///
/// ```swift
/// let model = service.model
/// print(model.name, model.validity)   // WMM2025 2025.0...2030.0
/// ```
public struct MagneticModel: Hashable, Sendable, CustomStringConvertible {
    /// The name people know it by: `WMM2025`.
    public let name: String
    /// The epoch of the coefficients, a decimal year: 2025.0.
    public let epoch: Double
    /// The decimal years the model is published for, ends included. Outside them the model refuses:
    /// its secular variation is a straight line that drifts from the real field, and a newer model
    /// replaces it.
    public let validity: ClosedRange<Double>
    /// The day the coefficients were released, as the coefficient file gives it (`11/13/2024`), or
    /// `nil`.
    public let releaseDate: String?

    /// Creates a model description.
    /// - Parameters:
    ///   - name: The model's name, such as `WMM2025`.
    ///   - epoch: The epoch of its coefficients, a decimal year.
    ///   - validity: The decimal years it is published for.
    ///   - releaseDate: The release date as its file gives it, if known.
    public init(name: String, epoch: Double, validity: ClosedRange<Double>, releaseDate: String? = nil) {
        self.name = name
        self.epoch = epoch
        self.validity = validity
        self.releaseDate = releaseDate
    }

    /// Whether `year` is within ``validity``.
    public func isValid(at year: DecimalYear) -> Bool {
        validity.contains(year.value)
    }

    /// `WMM2025 (2025.0–2030.0)`.
    public var description: String {
        "\(name) (\(Self.year(validity.lowerBound))–\(Self.year(validity.upperBound)))"
    }

    /// A decimal year with one decimal: `2030.0`.
    package static func year(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
