import PrayCore

/// A ``MagneticFieldService`` whose answer the test sets with ``onField(_:)``, recording every place,
/// height and year asked about. Its ``model`` is the one given at creation (WMM2025's name and years
/// by default).
///
/// A call without an answer records a test issue (failing the test) and throws ``MockError``.
///
/// ```swift
/// let magnetic = MagneticFieldServiceMock()
/// magnetic.onField { coordinates, height, year in .mock(declination: 3.2, at: coordinates, year: year) }
/// ```
public final class MagneticFieldServiceMock: MagneticFieldService {
    /// The arguments of ``field(at:heightMeters:year:)``.
    public typealias FieldArguments = (coordinates: Coordinates, heightMeters: Double, year: DecimalYear)

    private let fieldFunction = MockFunction<FieldArguments, MagneticField, any Error>(
        "MagneticFieldServiceMock.field(at:heightMeters:year:)")

    /// The model the mock names.
    public let model: MagneticModel

    /// Creates a mock with no answer set.
    /// - Parameter model: The model it names: ``MagneticModel/mockWMM2025`` unless given.
    public init(model: MagneticModel = .mockWMM2025) {
        self.model = model
    }

    /// Sets the answer of ``field(at:heightMeters:year:)``.
    public func onField(
        _ answer: @escaping @Sendable (Coordinates, Double, DecimalYear) throws -> MagneticField
    ) {
        fieldFunction.on { try answer($0.coordinates, $0.heightMeters, $0.year) }
    }

    /// The arguments of each call of ``field(at:heightMeters:year:)``, oldest first.
    public var fieldCalls: [FieldArguments] { fieldFunction.calls }

    /// Records the call and returns the answer.
    /// - Throws: What the answer throws, or ``MockError`` when none is set.
    public func field(at coordinates: Coordinates, heightMeters: Double, year: DecimalYear) throws -> MagneticField {
        try fieldFunction((coordinates, heightMeters, year))
    }
}
