#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

// The inverse geodesic problem on the WGS84 ellipsoid, after C. F. F. Karney, "Algorithms for
// geodesics", J. Geodesy 87 (2013) 43–55, https://doi.org/10.1007/s00190-012-0578-z. Equation and
// table numbers below are the paper's. The code follows the structure of GeographicLib's
// Geodesic.Inverse (C. F. F. Karney, MIT licence, https://geographiclib.sourceforge.io): the same
// canonical form, series to order 6 in the third flattening n, starting guesses, Newton iteration with
// a bisection fallback, tolerances and special cases, so that it agrees with GeographicLib to round-off.
//
// Notation: β reduced latitude, ω longitude on the auxiliary sphere, λ longitude, α azimuth, σ arc
// length on the auxiliary sphere, s distance; a 12 suffix is a difference (s12 = s2 − s1); an s or c
// prefix is a sine or cosine (salp1 = sin α1); subscript 0 refers to the northward equator crossing.

/// Geodesics on the WGS84 ellipsoid: the inverse problem by Karney's method, and the spherical
/// great-circle bearing for comparison.
///
/// ```swift
/// let kaaba = (latitude: 21.4225241, longitude: 39.8261818)
/// let line = Geodesic.inverse(latitude1: 40.7128, longitude1: -74.0060,
///                             latitude2: kaaba.latitude, longitude2: kaaba.longitude)
/// print(line.initialAzimuth, line.distance)   // 58.396°, 10 323 912.65 m
/// ```
enum Geodesic {
    /// The shortest path between two points.
    struct Inverse: Equatable, Sendable {
        /// Azimuth at the first point towards the second, degrees clockwise from north in (−180, 180]
        /// (GeographicLib's `azi1`).
        var initialAzimuth: Double
        /// Azimuth at the second point, facing on along the geodesic away from the first, degrees
        /// clockwise from north in (−180, 180] (GeographicLib's `azi2`).
        var finalAzimuth: Double
        /// Length of the geodesic in metres (GeographicLib's `s12`).
        var distance: Double
    }

    /// The inverse solution with how hard it was to find, for tests that watch convergence.
    struct Solution: Equatable, Sendable {
        /// The solution itself.
        var inverse: Inverse
        /// Steps taken after the starting guess, Newton and bisection together (0 when the answer is
        /// direct: meridians, the equator and short lines).
        var iterations: Int
        /// How many of ``iterations`` were bisection steps.
        var bisections: Int
    }

    /// Returns the shortest path on the WGS84 ellipsoid from point 1 to point 2.
    ///
    /// Converges for every pair of valid coordinates, coincident and antipodal points included, in at
    /// most 83 steps (in practice at most 5 Newton steps on WGS84). Where the azimuth is not unique
    /// (coincident points, exact antipodes, a pole, the antipodal cut locus) it returns the azimuth
    /// GeographicLib does.
    /// - Parameters:
    ///   - latitude1: Latitude of point 1 in degrees, −90…90.
    ///   - longitude1: Longitude of point 1 in degrees; any finite value.
    ///   - latitude2: Latitude of point 2 in degrees, −90…90.
    ///   - longitude2: Longitude of point 2 in degrees; any finite value.
    /// - Returns: Both azimuths and the distance; NaN throughout for a latitude outside −90…90 or a
    ///   value that is not finite, as GeographicLib.
    static func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Inverse {
        solve(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2).inverse
    }

    /// Returns the great-circle initial bearing from point 1 to point 2 on a sphere, in degrees clockwise
    /// from north in [0, 360).
    ///
    /// θ = atan2(sin Δλ · cos φ2, cos φ1 · sin φ2 − sin φ1 · cos φ2 · cos Δλ), the bearing most qibla
    /// apps show; it differs from the ellipsoidal azimuth by up to a few tenths of a degree.
    /// - Parameters:
    ///   - latitude1: Latitude of point 1 in degrees.
    ///   - longitude1: Longitude of point 1 in degrees.
    ///   - latitude2: Latitude of point 2 in degrees.
    ///   - longitude2: Longitude of point 2 in degrees.
    /// - Returns: The bearing in degrees, [0, 360).
    static func sphericalBearing(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double)
        -> Double
    {
        let phi1 = latitude1 * radiansPerDegree
        let phi2 = latitude2 * radiansPerDegree
        let deltaLambda = (longitude2 - longitude1) * radiansPerDegree
        let theta = atan2(
            sin(deltaLambda) * cos(phi2),
            cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(deltaLambda)
        )
        var degrees = fmod(theta * degreesPerRadian, 360)
        if degrees < 0 { degrees += 360 }
        // A tiny negative angle plus 360 rounds to 360 itself.
        return degrees >= 360 ? 0 : degrees
    }

    /// Solves the inverse problem and reports the iterations it took;
    /// ``inverse(latitude1:longitude1:latitude2:longitude2:)`` is this without the bookkeeping.
    static func solve(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Solution {
        let p = Canonical(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
        var arc: Arc
        if p.lat1 == -90 || p.slam12 == 0, let meridian = meridional(p) {
            arc = meridian
        } else if p.sbet1 == 0, p.lon12s >= f * 180 {
            // Sec. 4: along the equator (β1 = β2 = 0) the equator is the geodesic as long as
            // λ12 ≤ (1 − f)π; beyond that the path over a pole is shorter.
            arc = Arc(salp1: 1, calp1: 0, salp2: 1, calp2: 0, distance: a * p.lam12)
        } else {
            arc = general(p)
        }
        // Undo the canonical transformation (Sec. 4): swap ends, then restore the signs.
        if p.swapp < 0 {
            swap(&arc.salp1, &arc.salp2)
            swap(&arc.calp1, &arc.calp2)
        }
        let inverse = Inverse(
            initialAzimuth: azimuth(arc.salp1 * p.swapp * p.lonsign, arc.calp1 * p.swapp * p.latsign),
            finalAzimuth: azimuth(arc.salp2 * p.swapp * p.lonsign, arc.calp2 * p.swapp * p.latsign),
            distance: 0 + arc.distance  // turns −0 into +0
        )
        return Solution(inverse: inverse, iterations: arc.iterations, bisections: arc.bisections)
    }
}

// MARK: - Ellipsoid and tolerances

extension Geodesic {
    /// WGS84 semi-major axis a, metres.
    fileprivate static let a = 6_378_137.0
    /// WGS84 flattening f.
    fileprivate static let f = 1 / 298.257_223_563
    /// 1 − f = b / a.
    fileprivate static let f1 = 1 - f
    /// Second eccentricity squared, e′² = e² / (1 − e²).
    fileprivate static let ep2 = f * (2 - f) / (f1 * f1)
    /// Third flattening n = f / (2 − f), the small parameter of every series.
    fileprivate static let n = f / (2 - f)
    /// Semi-minor axis b, metres.
    fileprivate static let b = a * f1

    fileprivate static let radiansPerDegree = Double.pi / 180
    fileprivate static let degreesPerRadian = 180 / Double.pi

    /// Underflow guard: tiny · ε > 0 and tiny + ε == ε (GeographicLib's `tiny_`).
    fileprivate static let tiny = Double.leastNormalMagnitude.squareRoot()
    /// Machine epsilon, the convergence threshold for the residual in λ12.
    fileprivate static let tol0 = Double.ulpOfOne
    /// Threshold below which the astroid's y counts as zero.
    fileprivate static let tol1 = 200 * tol0
    /// √ε: a meridional arc σ12 shorter than this is accepted even if its reduced length rounds negative.
    fileprivate static let tol2 = tol0.squareRoot()
    /// Width at which the bisection bracket has collapsed.
    fileprivate static let tolb = tol0
    /// How far x may fall short of −1 while the astroid's cusp limit is still used.
    fileprivate static let xthresh = 1000 * tol2
    /// Below this σ12 a short line is solved directly without Newton's method: the relative error of
    /// the Eqs. (48)–(51) solution, about f σ12² / 2 (GeographicLib's estimate), is then below ε / 100.
    fileprivate static let etol2 = 0.1 * tol2 / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
    /// Newton steps allowed before only bisection is used.
    fileprivate static let maxNewton = 20
    /// Hard cap on steps: enough for bisection to halve a bracket down to the last of 53 bits.
    fileprivate static let maxIterations = maxNewton + Double.significandBitCount + 1 + 10
    /// Order of every series in n or ε (GeographicLib's GEOGRAPHICLIB_GEODESIC_ORDER).
    fileprivate static let order = 6
}

// MARK: - Canonical form

extension Geodesic {
    /// The two points brought to Karney's canonical form (Sec. 4): β1 ≤ 0, β1 ≤ β2 ≤ −β1 and
    /// 0 ≤ λ12 ≤ π, with the three sign flips that undo it. Few cases are left to handle and the
    /// results keep the problem's symmetries exactly.
    fileprivate struct Canonical {
        var lat1: Double
        var sbet1: Double
        var cbet1: Double
        /// √(1 + e′² sin² β1), the factor in Eq. (38).
        var dn1: Double
        var sbet2: Double
        var cbet2: Double
        var dn2: Double
        /// λ12 in radians, and its sine and cosine from the exact degree difference.
        var lam12: Double
        var slam12: Double
        var clam12: Double
        /// 180° − λ12 in degrees, kept exact for the equatorial test.
        var lon12s: Double
        /// −1 where the points were swapped, the longitude mirrored or the latitudes negated.
        var swapp: Double
        var lonsign: Double
        var latsign: Double

        init(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) {
            // The longitude difference in [−180, 180] with its rounding error kept separately, so that
            // 180° − λ12 is exact for nearly antipodal points.
            var (lon12, lon12s) = angleDifference(longitude1, longitude2)
            lonsign = Double(signOf: lon12, magnitudeOf: 1)
            lon12 *= lonsign
            lon12s *= lonsign
            lam12 = lon12 * radiansPerDegree
            (slam12, clam12) = sinCosDegrees(lon12, plus: lon12s)
            self.lon12s = (180 - lon12) - lon12s
            var lat1 = roundAngle(abs(latitude1) > 90 ? .nan : latitude1)
            var lat2 = roundAngle(abs(latitude2) > 90 ? .nan : latitude2)
            // Put the point with the larger |latitude| first, and make it southern.
            swapp = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
            if swapp < 0 {
                lonsign = -lonsign
                swap(&lat1, &lat2)
            }
            latsign = Double(signOf: -lat1, magnitudeOf: 1)
            lat1 *= latsign
            lat2 *= latsign
            self.lat1 = lat1
            (sbet1, cbet1) = reducedLatitude(lat1)
            (sbet2, cbet2) = reducedLatitude(lat2)
            // Where |β2| = |β1| to round-off, make it exact: Lambda12's cos α2 (Eq. 45) then takes its
            // symmetric branch instead of the square root of a tiny, possibly negative, difference.
            if cbet1 < -sbet1 {
                if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
            } else if abs(sbet2) == -sbet1 {
                cbet2 = cbet1
            }
            dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
            dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()
        }
    }

    /// Sine and cosine of the reduced latitude, Eq. (6): tan β = (1 − f) tan φ. The cosine stays at
    /// least `tiny` so that a pole still has a direction of travel.
    fileprivate static func reducedLatitude(_ latitude: Double) -> (Double, Double) {
        let (sinPhi, cosPhi) = sinCosDegrees(latitude)
        let (sbet, cbet) = normalize(f1 * sinPhi, cosPhi)
        return (sbet, max(tiny, cbet))
    }
}

// MARK: - Solutions

extension Geodesic {
    /// A solved geodesic in canonical form.
    fileprivate struct Arc {
        var salp1: Double
        var calp1: Double
        var salp2: Double
        var calp2: Double
        /// Metres.
        var distance: Double
        var iterations = 0
        var bisections = 0
    }

    /// The geodesic along a meridian (Sec. 4: α1 = λ12 = 0 or π, α2 = 0), or nil where the meridian
    /// is not the shortest path (which happens only on prolate ellipsoids, never on WGS84).
    fileprivate static func meridional(_ p: Canonical) -> Arc? {
        let calp1 = p.clam12
        let salp1 = p.slam12
        // Eq. (11): tan σ = tan β / cos α, with cos α2 = 1.
        let sigma = SigmaPair(ssig1: p.sbet1, csig1: calp1 * p.cbet1, ssig2: p.sbet2, csig2: p.cbet2)
        let measured = lengths(epsilon: n, sigma: sigma, p, distance: true)
        guard sigma.sig12 < tol2 || measured.m12b >= 0 else { return nil }
        var distance = measured.s12b
        // Zero-length and nearly zero-length lines must not come out negative.
        if sigma.sig12 < 3 * tiny || (sigma.sig12 < tol0 && (distance < 0 || measured.m12b < 0)) {
            distance = 0
        }
        return Arc(salp1: salp1, calp1: calp1, salp2: 0, calp2: 1, distance: distance * b)
    }

    /// The general case: a starting guess for α1, then Newton's method on λ12(α1) (Sec. 4).
    fileprivate static func general(_ p: Canonical) -> Arc {
        let start = InverseStart(p)
        if let short = start.shortLine {
            // Short lines: the Eq. (48)–(51) great circle on a sphere of radius a·w̄ is exact to round-off.
            return Arc(
                salp1: start.salp1, calp1: start.calp1, salp2: short.salp2, calp2: short.calp2,
                distance: short.sig12 * b * short.dnm
            )
        }
        let solved = newton(p, salp1: start.salp1, calp1: start.calp1)
        let lambda = solved.lambda
        let measured = lengths(epsilon: lambda.epsilon, sigma: lambda.sigma, p, distance: true)
        return Arc(
            salp1: solved.salp1, calp1: solved.calp1, salp2: lambda.salp2, calp2: lambda.calp2,
            distance: measured.s12b * b, iterations: solved.iterations, bisections: solved.bisections
        )
    }
}

// MARK: - Starting guess

extension Geodesic {
    /// The starting α1 for Newton's method (Sec. 4), and the whole answer for short lines.
    fileprivate struct InverseStart {
        /// σ12, α2 and w̄/(1 − f) of a short line solved on the sphere, Eqs. (48)–(51).
        struct ShortLine {
            var sig12: Double
            var salp2: Double
            var calp2: Double
            var dnm: Double
        }

        var salp1: Double
        var calp1: Double
        var shortLine: ShortLine?

        init(_ p: Canonical) {
            let sbet12 = p.sbet2 * p.cbet1 - p.cbet2 * p.sbet1  // sin(β2 − β1)
            let cbet12 = p.cbet2 * p.cbet1 + p.sbet2 * p.sbet1
            let sbet12a = p.sbet2 * p.cbet1 + p.cbet2 * p.sbet1  // sin(β2 + β1)
            let isShort = cbet12 >= 0 && sbet12 < 0.5 && p.cbet2 * p.lam12 < 0.5
            var somg12 = p.slam12
            var comg12 = p.clam12
            var dnm = Double.nan
            if isShort {
                // Eq. (48): w̄ from the mean reduced latitude; dnm = w̄ / (1 − f), ω12 = λ12 / w̄.
                var sbetm2 = (p.sbet1 + p.sbet2) * (p.sbet1 + p.sbet2)
                sbetm2 /= sbetm2 + (p.cbet1 + p.cbet2) * (p.cbet1 + p.cbet2)
                dnm = (1 + ep2 * sbetm2).squareRoot()
                let omg12 = p.lam12 / (f1 * dnm)
                somg12 = sin(omg12)
                comg12 = cos(omg12)
            }
            // Eq. (49): the great-circle azimuth at point 1, written to avoid cancellation.
            salp1 = p.cbet2 * somg12
            calp1 =
                comg12 >= 0
                ? sbet12 + p.cbet2 * p.sbet1 * somg12 * somg12 / (1 + comg12)
                : sbet12a - p.cbet2 * p.sbet1 * somg12 * somg12 / (1 - comg12)
            let ssig12 = hypot(salp1, calp1)
            let csig12 = p.sbet1 * p.sbet2 + p.cbet1 * p.cbet2 * comg12  // Eq. (51)
            if isShort && ssig12 < etol2 {
                // Eq. (50): the azimuth at point 2.
                let calp2 =
                    sbet12 - p.cbet1 * p.sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
                let (salp2, ncalp2) = normalize(p.cbet1 * somg12, calp2)
                shortLine = ShortLine(sig12: atan2(ssig12, csig12), salp2: salp2, calp2: ncalp2, dnm: dnm)
            } else if csig12 < 0 && ssig12 < 6 * abs(n) * .pi * p.cbet1 * p.cbet1 {
                // Nearly antipodal (σ12 within 3fπ cos²β1 of π): the great circle is a poor guess, so
                // start from the astroid instead.
                (salp1, calp1) = Self.nearlyAntipodal(p, sbet12a: sbet12a)
            }
            // A guess outside (0, π) is replaced by due east, which lies inside the bracket.
            if !(salp1 <= 0) {
                (salp1, calp1) = normalize(salp1, calp1)
            } else {
                (salp1, calp1) = (1, 0)
            }
        }

        /// The starting α1 for nearly antipodal points from the astroid: in coordinates
        /// scaled by f π A3 cos β1 (longitude) and f π A3 cos² β1 (latitude), α1 solves Eq. (55)–(57).
        private static func nearlyAntipodal(_ p: Canonical, sbet12a: Double) -> (Double, Double) {
            let lam12x = atan2(-p.slam12, -p.clam12)  // λ12 − π
            let k2 = p.sbet1 * p.sbet1 * ep2
            let epsilon = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamscale = f * p.cbet1 * a3(epsilon) * .pi
            let betscale = lamscale * p.cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -tol1 && x > -1 - xthresh {
                // The y → 0 limit of Eqs. (56)–(57), for points on or next to the antipodal parallel:
                // sin α1 = −x, heading south.
                let salp1 = min(1, -x)
                return (salp1, -(1 - salp1 * salp1).squareRoot())
            }
            let k = astroid(x: x, y: y)
            // Eqs. (56)–(57) give α1 from k; this equivalent form goes through the (scaled) longitude
            // offset −x k / (1 + k) and the great-circle formula of Eq. (49), and stays accurate as y → 0.
            let omg12a = lamscale * (-x * k / (1 + k))
            let somg12 = sin(omg12a)
            let comg12 = -cos(omg12a)
            let salp1 = p.cbet2 * somg12
            let calp1 = sbet12a - p.cbet2 * p.sbet1 * somg12 * somg12 / (1 - comg12)
            return (salp1, calp1)
        }
    }

    /// The positive root k (Karney's μ) of the astroid quartic, Eq. (55):
    /// k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0, by the closed form with the branch choices that
    /// avoid cancellation.
    fileprivate static func astroid(x: Double, y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4  // s = r³ · t
        let r2 = r * r
        let r3 = r * r2
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // Pick the sign that avoids cancellation: t3 = (r · t)³.
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // Three real roots: take the right one with the trigonometric form.
            let angle = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()  // positive
        let uv = u < 0 ? q / (v - u) : u + v  // u + v, positive
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }
}

// MARK: - Newton's method

extension Geodesic {
    /// The converged α1 with the λ12 evaluation made there.
    fileprivate struct Converged {
        var salp1: Double
        var calp1: Double
        var lambda: Lambda12
        var iterations: Int
        var bisections: Int
    }

    /// An interval (α1a, α1b) known to contain the root of λ12(α1) − λ12 = 0. GeographicLib's analysis:
    /// in canonical form there is one root in (0, π), with positive slope there.
    fileprivate struct Bracket {
        var salp1a = tiny
        var calp1a = 1.0
        var salp1b = tiny
        var calp1b = -1.0

        /// Narrows the bracket with the sign of the residual at α1 (forced once Newton has given up,
        /// when round-off may make the cotangent comparison unreliable).
        mutating func update(residual: Double, salp1: Double, calp1: Double, force: Bool) {
            if residual > 0 && (force || calp1 / salp1 > calp1b / salp1b) {
                (salp1b, calp1b) = (salp1, calp1)
            } else if residual < 0 && (force || calp1 / salp1 < calp1a / salp1a) {
                (salp1a, calp1a) = (salp1, calp1)
            }
        }

        /// The direction halfway between the ends.
        var midpoint: (Double, Double) { normalize((salp1a + salp1b) / 2, (calp1a + calp1b) / 2) }

        /// Whether α1 has come within round-off of either end.
        func hasCollapsed(salp1: Double, calp1: Double) -> Bool {
            abs(salp1a - salp1) + (calp1a - calp1) < tolb || abs(salp1 - salp1b) + (calp1 - calp1b) < tolb
        }
    }

    /// Solves λ12(α1) = λ12 for α1 (Sec. 4). Newton's method converges quadratically from the starting
    /// guess; a step that leaves (0, π) or meets a non-positive slope restarts from the middle of the
    /// bracket, so the loop always ends, after at most `maxIterations` steps.
    fileprivate static func newton(_ p: Canonical, salp1 start: Double, calp1 startCos: Double) -> Converged {
        var salp1 = start
        var calp1 = startCos
        var bracket = Bracket()
        var iterations = 0
        var bisections = 0
        var tripNewton = false
        var tripBisection = false
        while true {
            let lambda = Lambda12(p, salp1: salp1, calp1: calp1, derivative: iterations < maxNewton)
            let residual = lambda.residual
            // Written as !(… >= …) so that a NaN residual also stops the loop.
            let tolerance = (tripNewton ? 8 : 1) * tol0
            if tripBisection || !(abs(residual) >= tolerance) || iterations == maxIterations {
                return Converged(
                    salp1: salp1, calp1: calp1, lambda: lambda, iterations: iterations, bisections: bisections
                )
            }
            bracket.update(residual: residual, salp1: salp1, calp1: calp1, force: iterations > maxNewton)
            iterations += 1
            if iterations < maxNewton, lambda.derivative > 0,
                let next = newtonStep(salp1: salp1, calp1: calp1, by: -residual / lambda.derivative)
            {
                (salp1, calp1) = next
                // Near the root the slope may vanish and convergence turn linear: then stop at 8 ε
                // rather than wait for ε.
                tripNewton = abs(residual) <= 16 * tol0
                continue
            }
            bisections += 1
            (salp1, calp1) = bracket.midpoint
            tripNewton = false
            tripBisection = bracket.hasCollapsed(salp1: salp1, calp1: calp1)
        }
    }

    /// α1 + Δα1, or nil where the step is too large or leaves (0, π).
    private static func newtonStep(salp1: Double, calp1: Double, by delta: Double) -> (Double, Double)? {
        guard abs(delta) < .pi else { return nil }
        let sdelta = sin(delta)
        let cdelta = cos(delta)
        let nsalp1 = salp1 * cdelta + calp1 * sdelta
        guard nsalp1 > 0 else { return nil }
        return normalize(nsalp1, calp1 * cdelta - salp1 * sdelta)
    }
}

// MARK: - The hybrid problem

extension Geodesic {
    /// σ at both ends on the auxiliary sphere, normalised, with σ12 = σ2 − σ1 in [0, π].
    fileprivate struct SigmaPair {
        var ssig1: Double
        var csig1: Double
        var ssig2: Double
        var csig2: Double
        var sig12: Double

        init(ssig1: Double, csig1: Double, ssig2: Double, csig2: Double) {
            (self.ssig1, self.csig1) = normalize(ssig1, csig1)
            (self.ssig2, self.csig2) = normalize(ssig2, csig2)
            // max(0, …) + 0: σ12 ≥ 0 and never −0.
            sig12 = atan2(
                max(0, self.csig1 * self.ssig2 - self.ssig1 * self.csig2) + 0,
                self.csig1 * self.csig2 + self.ssig1 * self.ssig2
            )
        }
    }

    /// The hybrid problem (Sec. 4): given β1, β2 and α1, the longitude λ12 the geodesic reaches at
    /// β2, as a residual against the target λ12, and its derivative with respect to α1.
    fileprivate struct Lambda12 {
        /// λ12(α1) − λ12, radians.
        var residual: Double
        /// dλ12/dα1, or NaN when not asked for.
        var derivative: Double
        var salp2: Double
        var calp2: Double
        var sigma: SigmaPair
        /// Eq. (16): ε = (√(1 + k²) − 1) / (√(1 + k²) + 1).
        var epsilon: Double

        init(_ p: Canonical, salp1: Double, calp1 calp1In: Double, derivative: Bool) {
            // Heading due north or south from the equator, nudge α1 so the geodesic leaves the equator.
            let calp1 = p.sbet1 == 0 && calp1In == 0 ? -tiny : calp1In
            let salp0 = salp1 * p.cbet1  // Eq. (5), Clairaut
            let calp0 = hypot(calp1, salp1 * p.sbet1)  // > 0
            salp2 = p.cbet2 != p.cbet1 ? salp0 / p.cbet2 : salp1
            calp2 = Self.cosAlpha2(p, calp1: calp1)
            // Eqs. (11)–(12): tan σ = tan β / cos α and tan ω = sin α0 tan σ.
            let somg1 = salp0 * p.sbet1
            let comg1 = calp1 * p.cbet1
            let somg2 = salp0 * p.sbet2
            let comg2 = calp2 * p.cbet2
            sigma = SigmaPair(ssig1: p.sbet1, csig1: comg1, ssig2: p.sbet2, csig2: comg2)
            let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
            let comg12 = comg1 * comg2 + somg1 * somg2
            // η = ω12 − λ12 (target) in one atan2, which keeps it accurate when both are near π.
            let eta = atan2(
                somg12 * p.clam12 - comg12 * p.slam12,
                comg12 * p.clam12 + somg12 * p.slam12
            )
            // Eqs. (9), (16): k² = e′² cos² α0.
            let k2 = calp0 * calp0 * ep2
            epsilon = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            // Eqs. (8), (24)–(25): λ = ω − f sin α0 I3(σ), I3 = A3 (σ + Σ C3l sin 2lσ).
            let c3 = Geodesic.c3(epsilon)
            let b312 =
                sinSeries(sigma.ssig2, sigma.csig2, c3) - sinSeries(sigma.ssig1, sigma.csig1, c3)
            residual = eta - f * a3(epsilon) * salp0 * (sigma.sig12 + b312)
            self.derivative = derivative ? Self.slope(p, sigma: sigma, epsilon: epsilon, calp2: calp2) : .nan
        }

        /// cos α2 from Eq. (45), cos α2 cos β2 = √(cos² α1 cos² β1 + cos² β2 − cos² β1), with the
        /// difference of squares written in the better-conditioned of two forms.
        private static func cosAlpha2(_ p: Canonical, calp1: Double) -> Double {
            guard p.cbet2 != p.cbet1 || abs(p.sbet2) != -p.sbet1 else { return abs(calp1) }
            let difference =
                p.cbet1 < -p.sbet1
                ? (p.cbet2 - p.cbet1) * (p.cbet1 + p.cbet2)
                : (p.sbet1 - p.sbet2) * (p.sbet1 + p.sbet2)
            return ((calp1 * p.cbet1) * (calp1 * p.cbet1) + difference).squareRoot() / p.cbet2
        }

        /// dλ12/dα1 = m12 / (a cos α2 cos β2) (Sec. 4), or, where α2 = π/2 and that is 0/0, its limit
        /// −2 √(1 − e² cos² β1) / sin β1 = −2 (1 − f) dn1 / sin β1.
        private static func slope(_ p: Canonical, sigma: SigmaPair, epsilon: Double, calp2: Double) -> Double {
            guard calp2 != 0 else { return -2 * f1 * p.dn1 / p.sbet1 }
            let m12b = lengths(epsilon: epsilon, sigma: sigma, p, distance: false).m12b
            return m12b * f1 / (calp2 * p.cbet2)
        }
    }
}

// MARK: - Distance and reduced length

extension Geodesic {
    /// s12 / b (Eqs. 7, 15) and m12 / b (Eq. 38), the reduced length that gives Newton's slope.
    fileprivate static func lengths(
        epsilon: Double, sigma: SigmaPair, _ p: Canonical, distance: Bool
    ) -> (s12b: Double, m12b: Double) {
        let a1m1 = a1Minus1(epsilon)
        let a2m1 = a2Minus1(epsilon)
        let m0x = a1m1 - a2m1  // A1 − A2 without losing the leading 1s
        let a1 = 1 + a1m1
        let a2 = 1 + a2m1
        let c1 = evenSeries(c1Table, epsilon)
        var c2 = evenSeries(c2Table, epsilon)
        var s12b = Double.nan
        let j12: Double
        if distance {
            // Eqs. (7), (15): s/b = I1(σ) = A1 (σ + B1(σ)); J(σ) = I1(σ) − I2(σ), I2 from Eqs. (42)–(43).
            let b1 = sinSeries(sigma.ssig2, sigma.csig2, c1) - sinSeries(sigma.ssig1, sigma.csig1, c1)
            let b2 = sinSeries(sigma.ssig2, sigma.csig2, c2) - sinSeries(sigma.ssig1, sigma.csig1, c2)
            s12b = a1 * (sigma.sig12 + b1)
            j12 = m0x * sigma.sig12 + (a1 * b1 - a2 * b2)
        } else {
            // Only J is wanted: fold the two series into one.
            for l in 1...order { c2[l] = a1 * c1[l] - a2 * c2[l] }
            let b12 = sinSeries(sigma.ssig2, sigma.csig2, c2) - sinSeries(sigma.ssig1, sigma.csig1, c2)
            j12 = m0x * sigma.sig12 + b12
        }
        // Eq. (38), divided by b.
        let m12b =
            p.dn2 * (sigma.csig1 * sigma.ssig2) - p.dn1 * (sigma.ssig1 * sigma.csig2)
            - sigma.csig1 * sigma.csig2 * j12
        return (s12b, m12b)
    }
}

// MARK: - Series

extension Geodesic {
    // Coefficient tables in GeographicLib's packed form: for each coefficient, the numerators of a
    // polynomial (highest power first) followed by a common denominator. Exact rationals from Karney's
    // expansions to order 6.

    /// A1 − 1 = (1 + ε²/4 + ε⁴/64 + ε⁶/256) / (1 − ε) − 1, Eq. (17).
    private static func a1Minus1(_ epsilon: Double) -> Double {
        let t = polynomial([1, 4, 64, 0], epsilon * epsilon) / 256
        return (t + epsilon) / (1 - epsilon)
    }

    /// A2 − 1 = (1 + ε²/4 + 9ε⁴/64 + 25ε⁶/256)(1 − ε) − 1, Eq. (42), rearranged as GeographicLib.
    private static func a2Minus1(_ epsilon: Double) -> Double {
        let t = polynomial([-11, -28, -192, 0], epsilon * epsilon) / 256
        return (t - epsilon) / (1 + epsilon)
    }

    /// C1l, Eq. (18): C11 = −ε/2 + 3ε³/16 − ε⁵/32, … , C16 = −7ε⁶/2048.
    private static let c1Table: [Double] = [
        -1, 6, -16, 32,
        -9, 64, -128, 2048,
        9, -16, 768,
        3, -5, 512,
        -7, 1280,
        -7, 2048,
    ]

    /// C2l, Eq. (43): C21 = ε/2 + ε³/16 + ε⁵/32, … , C26 = 77ε⁶/2048.
    private static let c2Table: [Double] = [
        1, 2, 16, 32,
        35, 64, 384, 2048,
        15, 80, 768,
        7, 35, 512,
        63, 1280,
        77, 2048,
    ]

    /// Coefficients c[1…6] (c[0] unused) of a series whose l-th term is ε^l times a polynomial in ε²,
    /// from a packed `table` (Eqs. 18, 43).
    private static func evenSeries(_ table: [Double], _ epsilon: Double) -> [Double] {
        let epsilon2 = epsilon * epsilon
        var c = [Double](repeating: 0, count: order + 1)
        var power = epsilon
        var offset = 0
        for l in 1...order {
            let degree = (order - l) / 2  // in ε²
            c[l] = power * polynomial(table[offset...(offset + degree)], epsilon2) / table[offset + degree + 1]
            offset += degree + 2
            power *= epsilon
        }
        return c
    }

    /// A3 as a polynomial in ε whose coefficients are polynomials in n, Eq. (24), evaluated once for
    /// WGS84: [ε⁵, ε⁴, …, ε⁰] coefficients.
    private static let a3x: [Double] = {
        let table: [Double] = [
            -3, 128,
            -2, -3, 64,
            -1, -3, -1, 16,
            3, -1, -2, 8,
            1, -1, 2,
            1, 1,
        ]
        var coefficients: [Double] = []
        var offset = 0
        for j in stride(from: order - 1, through: 0, by: -1) {
            let degree = min(order - j - 1, j)  // in n
            coefficients.append(polynomial(table[offset...(offset + degree)], n) / table[offset + degree + 1])
            offset += degree + 2
        }
        return coefficients
    }()

    /// C3l as polynomials in ε with coefficients polynomial in n, Eq. (25), evaluated once for WGS84:
    /// for l = 1…5, the coefficients of ε^(order−1) down to ε^l.
    private static let c3x: [Double] = {
        let table: [Double] = [
            3, 128, 2, 5, 128, -1, 3, 3, 64, -1, 0, 1, 8, -1, 1, 4,  // C31
            5, 256, 1, 3, 128, -3, -2, 3, 64, 1, -3, 2, 32,  // C32
            7, 512, -10, 9, 384, 5, -9, 5, 192,  // C33
            7, 512, -14, 7, 512,  // C34
            21, 2560,  // C35
        ]
        var coefficients: [Double] = []
        var offset = 0
        for l in 1..<order {
            for j in stride(from: order - 1, through: l, by: -1) {
                let degree = min(order - j - 1, j)  // in n
                coefficients.append(polynomial(table[offset...(offset + degree)], n) / table[offset + degree + 1])
                offset += degree + 2
            }
        }
        return coefficients
    }()

    /// A3(ε), Eq. (24).
    fileprivate static func a3(_ epsilon: Double) -> Double {
        polynomial(a3x[...], epsilon)
    }

    /// C3l(ε) for l = 1…5 (c[0] unused), Eq. (25).
    fileprivate static func c3(_ epsilon: Double) -> [Double] {
        var c = [Double](repeating: 0, count: order)
        var power = 1.0
        var offset = 0
        for l in 1..<order {
            let degree = order - l - 1  // in ε
            power *= epsilon
            c[l] = power * polynomial(c3x[offset...(offset + degree)], epsilon)
            offset += degree + 1
        }
        return c
    }

    /// Σ c[l] sin 2lσ for l = 1…c.count − 1 by Clenshaw summation, from sin σ and cos σ, so that no
    /// multiple angle is formed.
    fileprivate static func sinSeries(_ sinx: Double, _ cosx: Double, _ c: [Double]) -> Double {
        var k = c.count
        var pairs = k - 1
        let ar = 2 * (cosx - sinx) * (cosx + sinx)  // 2 cos 2σ
        var y0 = 0.0
        var y1 = 0.0
        if pairs & 1 != 0 {
            k -= 1
            y0 = c[k]
        }
        pairs /= 2
        while pairs > 0 {
            pairs -= 1
            k -= 1
            y1 = ar * y0 - y1 + c[k]
            k -= 1
            y0 = ar * y1 - y0 + c[k]
        }
        return 2 * sinx * cosx * y0  // sin 2σ · y0
    }

    /// Horner's rule with the coefficients highest power first.
    private static func polynomial(_ coefficients: ArraySlice<Double>, _ x: Double) -> Double {
        var y = 0.0
        for coefficient in coefficients { y = y * x + coefficient }
        return y
    }
}

// MARK: - Angles in degrees

extension Geodesic {
    /// sin and cos of an angle in degrees, reduced exactly to [−45°, 45°] first so that multiples of
    /// 90° give exact zeros and ±1.
    fileprivate static func sinCosDegrees(_ x: Double) -> (Double, Double) {
        let reduced = x.isFinite ? fmod(x, 360) : .nan
        let quadrant = reduced.isNaN ? 0 : Int((reduced / 90).rounded(.toNearestOrEven))
        return rotate(reduced - 90 * Double(quadrant), quadrant: quadrant, sign: x)
    }

    /// sin and cos of x + t degrees, x in [−180°, 180°] and t a small correction to it.
    fileprivate static func sinCosDegrees(_ x: Double, plus t: Double) -> (Double, Double) {
        let quadrant = x.isFinite ? Int((x / 90).rounded(.toNearestOrEven)) : 0
        return rotate(roundAngle(x - 90 * Double(quadrant) + t), quadrant: quadrant, sign: x)
    }

    /// sin and cos of `r` degrees plus `quadrant` right angles; a zero sine takes the sign of `sign`.
    private static func rotate(_ r: Double, quadrant: Int, sign: Double) -> (Double, Double) {
        let radians = r * radiansPerDegree
        var (s, c) = (sin(radians), cos(radians))
        switch quadrant & 3 {
        case 1: (s, c) = (c, -s)
        case 2: (s, c) = (-s, -c)
        case 3: (s, c) = (-c, s)
        default: break
        }
        c += 0  // −0 becomes +0
        if s == 0 { s = Double(signOf: sign, magnitudeOf: s) }
        return (s, c)
    }

    /// atan2 in degrees, exact at multiples of 90°, in (−180, 180]: GeographicLib returns −180 for a
    /// sine of −0 (due south), which is mapped to 180 here.
    fileprivate static func azimuth(_ y: Double, _ x: Double) -> Double {
        var (y, x) = (y, x)
        var quadrant = 0
        if abs(y) > abs(x) {
            (y, x) = (x, y)
            quadrant = 2
        }
        if x < 0 {
            quadrant += 1
            x = -x
        }
        var angle = atan2(y, x) * degreesPerRadian
        switch quadrant {
        case 1: angle = Double(signOf: y, magnitudeOf: 180) - angle
        case 2: angle = 90 - angle
        case 3: angle = -90 + angle
        default: break
        }
        return angle == -180 ? 180 : angle
    }

    /// Rounds an angle in degrees so that tiny values (below 1/2⁵⁷ °) become zero: they would only
    /// make nearly singular cases out of exactly solvable ones.
    fileprivate static func roundAngle(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        if y < z { y = z - (z - y) }
        return Double(signOf: x, magnitudeOf: y)
    }

    /// y − x reduced to [−180, 180] as an exact sum d + t, d the rounded difference and t its error.
    fileprivate static func angleDifference(_ x: Double, _ y: Double) -> (Double, Double) {
        var (d, t) = twoSum((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
        (d, t) = twoSum(d.remainder(dividingBy: 360), t)
        if d == 0 || abs(d) == 180 {
            d = Double(signOf: t == 0 ? y - x : -t, magnitudeOf: d)
        }
        return (d, t)
    }

    /// Knuth's error-free sum: u + v = s + t exactly, s the rounded sum.
    private static func twoSum(_ u: Double, _ v: Double) -> (Double, Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, s == 0 ? s : 0 - (up + vpp))
    }

    /// (x, y) scaled to unit length.
    fileprivate static func normalize(_ x: Double, _ y: Double) -> (Double, Double) {
        let r = hypot(x, y)
        return (x / r, y / r)
    }
}
