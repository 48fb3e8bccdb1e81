#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

// The main field of a World Magnetic Model at a geodetic point, following §1.2 of "The US/UK World
// Magnetic Model for 2025–2030: Technical Report" (Chulliat et al.): the potential (eq. 2) with Schmidt
// semi-normalised associated Legendre functions (eqs. 3–5), geodetic → geocentric spherical
// coordinates (step 1, eqs. 7–8), time-adjusted coefficients (step 2, eq. 9), the field in the
// geocentric frame (step 3, eq. 10) and its rotation to the geodetic frame (step 4, eq. 11). The
// elements H, F, I and D (step 5) are derived in ``MagneticField``.

extension WMMCoefficients {
    /// The geomagnetic reference radius a, metres (6371.2 km).
    static let referenceRadius = 6_371_200.0
    /// The semi-major axis A of the WGS84 ellipsoid, metres.
    static let semiMajorAxis = 6_378_137.0
    /// The flattening f of the WGS84 ellipsoid.
    static let flattening = 1 / 298.257_223_563
    /// The square of the first eccentricity, e² = f(2 − f).
    static let eccentricitySquared = flattening * (2 - flattening)

    /// The field's components in the geodetic frame, nanotesla.
    struct Vector: Hashable {
        /// X, north.
        var north: Double
        /// Y, east.
        var east: Double
        /// Z, down.
        var down: Double
    }

    /// The field at geodetic `latitude` and `longitude` (degrees), `height` metres above the WGS84
    /// ellipsoid, at decimal year `year`. Finite everywhere, the geographic poles included.
    func field(latitude: Double, longitude: Double, height: Double, year: Double) -> Vector {
        // Step 1, eqs. 7–8: Rc = A/√(1 − e² sin²φ), p = (Rc + h) cos φ, z = (Rc(1 − e²) + h) sin φ,
        // r = √(p² + z²), φ′ = arcsin(z/r). Only sin φ′ = z/r and cos φ′ = p/r are needed, so no
        // inverse sine is taken.
        let phi = latitude * .pi / 180
        let sinPhi = sin(phi)
        let cosPhi = cos(phi)
        let rc = Self.semiMajorAxis / (1 - Self.eccentricitySquared * sinPhi * sinPhi).squareRoot()
        let p = (rc + height) * cosPhi
        let z = (rc * (1 - Self.eccentricitySquared) + height) * sinPhi
        let r = (p * p + z * z).squareRoot()
        let sinPhiC = z / r
        let cosPhiC = p / r
        let lambda = longitude * .pi / 180
        let sums = geocentricField(sinPhiC: sinPhiC, cosPhiC: cosPhiC, lambda: lambda, r: r, dt: year - epoch)
        // Step 4, eq. 11: rotate by ψ = φ′ − φ about the east axis:
        // X = X′ cos ψ − Z′ sin ψ, Y = Y′, Z = X′ sin ψ + Z′ cos ψ.
        let cosPsi = cosPhiC * cosPhi + sinPhiC * sinPhi
        let sinPsi = sinPhiC * cosPhi - cosPhiC * sinPhi
        return Vector(
            north: sums.north * cosPsi - sums.down * sinPsi, east: sums.east,
            down: sums.north * sinPsi + sums.down * cosPsi)
    }

    /// Step 3, eq. 10: the field in the geocentric frame,
    ///
    ///     X′ = −Σₙ (a/r)ⁿ⁺² Σₘ (gₙᵐ(t) cos mλ + hₙᵐ(t) sin mλ) dP̆ₙᵐ(sin φ′)/dφ′
    ///     Y′ =  Σₙ (a/r)ⁿ⁺² Σₘ m (gₙᵐ(t) sin mλ − hₙᵐ(t) cos mλ) P̆ₙᵐ(sin φ′) / cos φ′
    ///     Z′ = −Σₙ (n + 1)(a/r)ⁿ⁺² Σₘ (gₙᵐ(t) cos mλ + hₙᵐ(t) sin mλ) P̆ₙᵐ(sin φ′)
    ///
    /// with gₙᵐ(t) = gₙᵐ(t₀) + (t − t₀) ġₙᵐ(t₀), and hₙᵐ(t) likewise (step 2, eq. 9).
    ///
    /// The Schmidt semi-normalised functions (eqs. 3–5) come by recursion, one order m at a time,
    /// in μ = sin φ′ and s = cos φ′ (θ = 90° − φ′ is the colatitude, dμ/dθ = −s, ds/dθ = μ):
    ///
    ///     P̆₀⁰ = 1,  P̆₁¹ = s,  P̆ₘᵐ = √((2m − 1)/(2m)) s P̆ₘ₋₁ᵐ⁻¹            (m ≥ 2)
    ///     P̆ₙᵐ = [(2n − 1) μ P̆ₙ₋₁ᵐ − √((n − 1)² − m²) P̆ₙ₋₂ᵐ] / √(n² − m²)   (n > m)
    ///
    /// and their θ-derivatives by differentiating the same recursions (dP̆/dφ′ = −dP̆/dθ).
    ///
    /// Y′ divides by cos φ′, which is 0 at the geographic poles. Every P̆ₙᵐ with m ≥ 1 carries the
    /// factor s = cos φ′ (eq. 4: (1 − μ²)^(m/2)), so the quotient Qₙᵐ = P̆ₙᵐ / s is carried instead:
    /// it obeys the same recursion in n from Q₁¹ = 1, Qₘᵐ = √((2m − 1)/(2m)) s Qₘ₋₁ᵐ⁻¹, and is finite
    /// at the poles, where it tends to the limit the report's Y′ takes there (only m = 1 remains).
    private func geocentricField(
        sinPhiC mu: Double, cosPhiC s: Double, lambda: Double, r: Double, dt: Double
    ) -> Vector {
        let ratio = Self.referenceRadius / r
        let cosLambda = cos(lambda)
        let sinLambda = sin(lambda)
        var cosM = 1.0  // cos mλ
        var sinM = 0.0  // sin mλ
        var sectoralP = 1.0  // P̆ₘᵐ
        var sectoralD = 0.0  // dP̆ₘᵐ/dθ
        var sectoralQ = 0.0  // P̆ₘᵐ / s (m ≥ 1)
        var columnPower = ratio * ratio  // (a/r)^(m+2)
        var north = 0.0
        var east = 0.0
        var down = 0.0
        for m in 0...degree {
            if m == 1 {
                sectoralP = s
                sectoralD = mu
                sectoralQ = 1
            } else if m >= 2 {
                let factor = sectoral[m]
                sectoralD = factor * (mu * sectoralP + s * sectoralD)
                sectoralP = factor * s * sectoralP
                sectoralQ = factor * s * sectoralQ
            }
            var (p, pPrevious) = (sectoralP, 0.0)
            var (d, dPrevious) = (sectoralD, 0.0)
            var (q, qPrevious) = (sectoralQ, 0.0)
            var power = columnPower
            for n in m...degree {
                let k = Self.index(n, m)
                if n > m {
                    let first = recursionFirst[k]
                    let second = recursionSecond[k]
                    // From degree n − 1 (p, d, q) and n − 2 (the previous ones) to n.
                    let pNext = first * mu * p - second * pPrevious
                    let dNext = first * (mu * d - s * p) - second * dPrevious
                    let qNext = first * mu * q - second * qPrevious
                    (pPrevious, dPrevious, qPrevious) = (p, d, q)
                    (p, d, q) = (pNext, dNext, qNext)
                    power *= ratio
                }
                guard n > 0 else { continue }
                let gt = g[k] + dt * gRate[k]
                let ht = h[k] + dt * hRate[k]
                let cosTerm = gt * cosM + ht * sinM
                north += power * cosTerm * d
                down -= Double(n + 1) * power * cosTerm * p
                if m > 0 { east += power * Double(m) * (gt * sinM - ht * cosM) * q }
            }
            (cosM, sinM) = (cosM * cosLambda - sinM * sinLambda, sinM * cosLambda + cosM * sinLambda)
            columnPower *= ratio
        }
        return Vector(north: north, east: east, down: down)
    }
}
