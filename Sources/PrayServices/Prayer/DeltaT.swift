/// ΔT = TT − UT, the difference between the uniform time of the ephemeris and the Earth's rotation,
/// in seconds.
///
/// The polynomial expressions of F. Espenak and J. Meeus ("Five Millennium Canon of Solar Eclipses:
/// −1999 to +3000", NASA/TP-2006-214141, section 2.6; also NASA's "Polynomial Expressions for Delta
/// T"), the same model pvlib uses with NREL SPA. Within 1900–2025 they follow the observed values to
/// about a second; later years are a prediction. A one-minute error in ΔT moves the sun by about
/// 2.5″, a tenth of a second in a prayer time.
enum DeltaT {
    /// ΔT in seconds at the decimal year `y` (e.g. 2026.5 for early July 2026).
    static func seconds(decimalYear y: Double) -> Double {
        switch y {
        case ..<(-500):
            return longTerm(y)
        case ..<500:
            let u = y / 100
            return polynomial(u, [10583.6, -1014.41, 33.78311, -5.952053, -0.1798452, 0.022174192, 0.0090316521])
        case ..<1600:
            let u = (y - 1000) / 100
            return polynomial(u, [1574.2, -556.01, 71.23472, 0.319781, -0.8503463, -0.005050998, 0.0083572073])
        case ..<1700:
            let t = y - 1600
            return polynomial(t, [120, -0.9808, -0.01532, 1.0 / 7129])
        case ..<1800:
            let t = y - 1700
            return polynomial(t, [8.83, 0.1603, -0.0059285, 0.00013336, -1.0 / 1_174_000])
        case ..<1860:
            let t = y - 1800
            return polynomial(
                t, [13.72, -0.332447, 0.0068612, 0.0041116, -0.00037436, 0.0000121272, -0.0000001699, 0.000000000875]
            )
        case ..<1900:
            let t = y - 1860
            return polynomial(t, [7.62, 0.5737, -0.251754, 0.01680668, -0.0004473624, 1.0 / 233_174])
        case ..<1920:
            let t = y - 1900
            return polynomial(t, [-2.79, 1.494119, -0.0598939, 0.0061966, -0.000197])
        case ..<1941:
            let t = y - 1920
            return polynomial(t, [21.20, 0.84493, -0.076100, 0.0020936])
        case ..<1961:
            let t = y - 1950
            return polynomial(t, [29.07, 0.407, -1.0 / 233, 1.0 / 2547])
        case ..<1986:
            let t = y - 1975
            return polynomial(t, [45.45, 1.067, -1.0 / 260, -1.0 / 718])
        case ..<2005:
            let t = y - 2000
            return polynomial(t, [63.86, 0.3345, -0.060374, 0.0017275, 0.000651814, 0.00002373599])
        case ..<2050:
            let t = y - 2000
            return polynomial(t, [62.92, 0.32217, 0.005589])
        case ..<2150:
            return longTerm(y) - 0.5628 * (2150 - y)
        default:
            return longTerm(y)
        }
    }

    /// The long-term parabola −20 + 32·u², u = (y − 1820)/100 (Morrison and Stephenson 2004).
    private static func longTerm(_ y: Double) -> Double {
        let u = (y - 1820) / 100
        return -20 + 32 * u * u
    }

    /// Evaluates c0 + c1·x + c2·x² + … by Horner's rule.
    private static func polynomial(_ x: Double, _ coefficients: [Double]) -> Double {
        coefficients.reversed().reduce(0) { $0 * x + $1 }
    }
}
