/// ΔT = TT − UT, the difference between the uniform time of the ephemeris and the Earth's rotation,
/// in seconds.
///
/// The polynomial expressions of F. Espenak and J. Meeus ("Five Millennium Canon of Solar Eclipses:
/// −1999 to +3000", NASA/TP-2006-214141, section 2.6; also NASA's "Polynomial Expressions for Delta
/// T"), the same model pvlib uses with NREL SPA. Within 1900–2025 they follow the observed values to
/// about a second; later years are a prediction. A one-minute error in ΔT moves the sun by about
/// 2.5″, a tenth of a second in a prayer time.
enum DeltaT {
    /// One piece of the model: from `start` (a decimal year), c0 + c1·t + c2·t² + … with
    /// t = (y − origin)/scale.
    private struct Piece {
        let start: Double
        let origin: Double
        let scale: Double
        let coefficients: [Double]
    }

    private static let pieces: [Piece] = [
        Piece(
            start: -500, origin: 0, scale: 100,
            coefficients: [10583.6, -1014.41, 33.78311, -5.952053, -0.1798452, 0.022174192, 0.0090316521]),
        Piece(
            start: 500, origin: 1000, scale: 100,
            coefficients: [1574.2, -556.01, 71.23472, 0.319781, -0.8503463, -0.005050998, 0.0083572073]),
        Piece(start: 1600, origin: 1600, scale: 1, coefficients: [120, -0.9808, -0.01532, 1.0 / 7129]),
        Piece(
            start: 1700, origin: 1700, scale: 1, coefficients: [8.83, 0.1603, -0.0059285, 0.00013336, -1.0 / 1_174_000]),
        Piece(
            start: 1800, origin: 1800, scale: 1,
            coefficients: [
                13.72, -0.332447, 0.0068612, 0.0041116, -0.00037436, 0.0000121272, -0.0000001699,
                0.000000000875,
            ]),
        Piece(
            start: 1860, origin: 1860, scale: 1,
            coefficients: [7.62, 0.5737, -0.251754, 0.01680668, -0.0004473624, 1.0 / 233_174]),
        Piece(start: 1900, origin: 1900, scale: 1, coefficients: [-2.79, 1.494119, -0.0598939, 0.0061966, -0.000197]),
        Piece(start: 1920, origin: 1920, scale: 1, coefficients: [21.20, 0.84493, -0.076100, 0.0020936]),
        Piece(start: 1941, origin: 1950, scale: 1, coefficients: [29.07, 0.407, -1.0 / 233, 1.0 / 2547]),
        Piece(start: 1961, origin: 1975, scale: 1, coefficients: [45.45, 1.067, -1.0 / 260, -1.0 / 718]),
        Piece(
            start: 1986, origin: 2000, scale: 1,
            coefficients: [63.86, 0.3345, -0.060374, 0.0017275, 0.000651814, 0.00002373599]),
        Piece(start: 2005, origin: 2000, scale: 1, coefficients: [62.92, 0.32217, 0.005589]),
    ]

    /// ΔT in seconds at the decimal year `y` (e.g. 2026.5 for early July 2026).
    static func seconds(decimalYear y: Double) -> Double {
        // Before −500 and after 2150: the parabola −20 + 32·u², u = (y − 1820)/100 (Morrison and
        // Stephenson 2004); 2050–2150 blends it into the 2005–2050 polynomial.
        let u = (y - 1820) / 100
        let parabola = -20 + 32 * u * u
        if y < -500 || y >= 2150 { return parabola }
        if y >= 2050 { return parabola - 0.5628 * (2150 - y) }
        guard let piece = pieces.last(where: { $0.start <= y }) else { return parabola }
        let t = (y - piece.origin) / piece.scale
        var value = 0.0
        for coefficient in piece.coefficients.reversed() { value = value * t + coefficient }
        return value
    }
}
