import Foundation
import PrayMocks
import Testing

@testable import PrayServices

/// Checks ``Geodesic`` against GeographicLib 2.1 (`Scripts/reference/qibla_reference.py`): the qibla
/// from 359 places (cities, random points, the neighbourhood of the Kaaba's antipode, poles, the
/// equator, meridians) to the Kaaba.
struct GeodesicTests {
    /// One place of `qibla-geographiclib.json`.
    struct Place: Decodable {
        let label: String
        let latitude: Double
        let longitude: Double
        /// GeographicLib's `azi1` in [0, 360).
        let azimuth: Double
        /// GeographicLib's `azi2` in [0, 360).
        let finalAzimuth: Double
        /// GeographicLib's `s12`, metres.
        let distance: Double
        let sphericalAzimuth: Double
        /// The Kaaba itself and its exact antipode: every azimuth is as good as any other.
        let degenerate: Bool
        /// On the antipodal parallel inside the cut locus: two mirror-image geodesics of equal length.
        let twoGeodesics: Bool

        var isNearAntipode: Bool { label.hasPrefix("near-antipode") || label == "antipode" }
    }

    struct Fixture: Decodable {
        let cases: [Place]
    }

    static let kaaba = (latitude: 21.4225241, longitude: 39.8261818)
    /// Half the WGS84 meridian, metres: the length of every geodesic between exactly antipodal points
    /// (GeographicLib, `Inverse(0, 0, 0, 180)`).
    static let halfMeridian = 20_003_931.458_625_447

    /// The reference, decoded once per test run (several tests read it).
    static let fixture = Result {
        try JSONDecoder().decode(Fixture.self, from: Fixtures.data("qibla-geographiclib.json"))
    }

    static func places() throws -> [Place] {
        try fixture.get().cases
    }

    static func qibla(from place: Place) -> Geodesic.Solution {
        Geodesic.solve(
            latitude1: place.latitude, longitude1: place.longitude,
            latitude2: kaaba.latitude, longitude2: kaaba.longitude
        )
    }

    /// The difference of two angles in degrees, folded into [−180, 180].
    static func angleError(_ angle: Double, _ reference: Double) -> Double {
        (angle - reference).remainder(dividingBy: 360)
    }

    /// Worst absolute errors over a set of places, with the place that set each.
    struct Worst: CustomStringConvertible {
        var azimuth = (error: 0.0, label: "-")
        var finalAzimuth = (error: 0.0, label: "-")
        var distance = (error: 0.0, label: "-")
        var iterations = (count: 0, label: "-")
        var bisections = 0
        var count = 0

        mutating func add(_ place: Place, _ solution: Geodesic.Solution) {
            let result = solution.inverse
            let errors = (
                abs(angleError(result.initialAzimuth, place.azimuth)),
                abs(angleError(result.finalAzimuth, place.finalAzimuth)),
                abs(result.distance - place.distance)
            )
            if errors.0 > azimuth.error { azimuth = (errors.0, place.label) }
            if errors.1 > finalAzimuth.error { finalAzimuth = (errors.1, place.label) }
            if errors.2 > distance.error { distance = (errors.2, place.label) }
            if solution.iterations > iterations.count { iterations = (solution.iterations, place.label) }
            bisections = max(bisections, solution.bisections)
            count += 1
        }

        var description: String {
            "\(count) places: azimuth \(azimuth.error)° (\(azimuth.label)), final azimuth \(finalAzimuth.error)° "
                + "(\(finalAzimuth.label)), distance \(distance.error) m (\(distance.label)), "
                + "iterations \(iterations.count) (\(iterations.label)), bisections \(bisections)"
        }
    }

    @Test func fixtureCoversTheCases() throws {
        // Given
        let places = try Self.places()
        // Then
        #expect(places.count >= 300)
        #expect(places.filter { $0.label.hasPrefix("city:") }.count >= 40)
        #expect(places.filter { $0.label == "random" }.count == 150)
        #expect(places.filter { $0.label.hasPrefix("near-antipode") }.count == 80)
        #expect(places.filter(\.degenerate).map(\.label).sorted() == ["antipode", "kaaba"])
    }

    @Test func qiblaMatchesGeographicLib() throws {
        // Given
        let places = try Self.places().filter { !$0.degenerate }
        var overall = Worst()
        var nearAntipode = Worst()
        // When
        for place in places {
            let solution = Self.qibla(from: place)
            let result = solution.inverse
            overall.add(place, solution)
            if place.isNearAntipode { nearAntipode.add(place, solution) }
            // Then
            #expect(
                abs(Self.angleError(result.initialAzimuth, place.azimuth)) <= 1e-6,
                "\(place.label): azimuth \(result.initialAzimuth) vs \(place.azimuth)"
            )
            #expect(
                abs(Self.angleError(result.finalAzimuth, place.finalAzimuth)) <= 1e-6,
                "\(place.label): final azimuth \(result.finalAzimuth) vs \(place.finalAzimuth)"
            )
            #expect(
                abs(result.distance - place.distance) <= 1e-6,
                "\(place.label): distance \(result.distance) vs \(place.distance)"
            )
            #expect((-180...180).contains(result.initialAzimuth) && result.initialAzimuth != -180)
        }
        print("Geodesic vs GeographicLib, worst errors over \(overall)")
        print("Geodesic vs GeographicLib, worst errors near the antipode over \(nearAntipode)")
    }

    @Test func twoGeodesicCasesPickGeographicLibsGeodesic() throws {
        // Given: places where a mirror-image geodesic is just as short
        let places = try Self.places().filter(\.twoGeodesics)
        #expect(!places.isEmpty)
        for place in places {
            // When
            let result = Self.qibla(from: place).inverse
            // Then: the same one of the pair as GeographicLib (its mirror would be 180° − azimuth)
            #expect(abs(Self.angleError(result.initialAzimuth, place.azimuth)) <= 1e-6, "\(place.label)")
        }
    }

    @Test func degenerateCasesAreFiniteWithTheRightDistance() throws {
        // Given
        let places = try Self.places().filter(\.degenerate)
        for place in places {
            // When
            let result = Self.qibla(from: place).inverse
            // Then
            #expect(result.initialAzimuth.isFinite && result.finalAzimuth.isFinite, "\(place.label)")
            #expect(abs(result.distance - place.distance) <= 1, "\(place.label)")
            print(
                "Geodesic degenerate \(place.label): azimuth \(result.initialAzimuth)° "
                    + "(GeographicLib \(place.azimuth)°), distance \(result.distance) m (\(place.distance) m)"
            )
        }
    }

    @Test func sphericalBearingMatchesTheGreatCircleFormula() throws {
        // Given
        let places = try Self.places()
        var worst = 0.0
        for place in places {
            // When
            let bearing = Geodesic.sphericalBearing(
                latitude1: place.latitude, longitude1: place.longitude,
                latitude2: Self.kaaba.latitude, longitude2: Self.kaaba.longitude
            )
            // Then
            let error = abs(Self.angleError(bearing, place.sphericalAzimuth))
            worst = max(worst, error)
            #expect(error <= 1e-9, "\(place.label): \(bearing) vs \(place.sphericalAzimuth)")
            #expect(bearing >= 0 && bearing < 360)
        }
        print("Geodesic spherical bearing, worst error \(worst)° over \(places.count) places")
    }

    @Test func qiblaFromNewYork() {
        // Given
        let newYork = (latitude: 40.7128, longitude: -74.0060)
        // When
        let result = Geodesic.inverse(
            latitude1: newYork.latitude, longitude1: newYork.longitude,
            latitude2: Self.kaaba.latitude, longitude2: Self.kaaba.longitude
        )
        let spherical = Geodesic.sphericalBearing(
            latitude1: newYork.latitude, longitude1: newYork.longitude,
            latitude2: Self.kaaba.latitude, longitude2: Self.kaaba.longitude
        )
        // Then: the ellipsoid turns the qibla 0.09° away from the sphere's 58.48°
        #expect(abs(result.initialAzimuth - 58.396) < 0.001)
        #expect(abs(spherical - 58.482) < 0.001)
        #expect(abs(result.distance - 10_323_912.65) < 0.01)
    }

    @Test func coincidentPointsHaveZeroDistance() {
        for (latitude, longitude) in [(0.0, 0.0), (90, 10), (-90, -170), (21.4225241, 39.8261818), (-33.3, 180)] {
            // When
            let result = Geodesic.inverse(
                latitude1: latitude, longitude1: longitude, latitude2: latitude, longitude2: longitude
            )
            // Then
            #expect(result.distance == 0, "\(latitude), \(longitude)")
            #expect(result.initialAzimuth.isFinite && result.finalAzimuth.isFinite)
        }
    }

    @Test func extremeInputsNeverGiveNaN() {
        // Given: poles, the equator, ±180° and wrapped longitudes, values a rounding error away from them
        let latitudes = [-90, -89.999_999_999, -45, -1e-300, 0, 1e-12, 21.4225241, 45, 89.999_999_999, 90]
        let longitudes = [-720, -180, -179.999_999_999, -90, 0, 1e-10, 90, 179.999_999_999, 180, 540]
        var count = 0
        var worstIterations = 0
        for lat1 in latitudes {
            for lon1 in longitudes {
                for lat2 in latitudes {
                    for lon2 in longitudes {
                        // When
                        let solution = Geodesic.solve(
                            latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2
                        )
                        // Then
                        Self.expectSane(solution, "\(lat1), \(lon1) → \(lat2), \(lon2)")
                        worstIterations = max(worstIterations, solution.iterations)
                        count += 1
                    }
                }
            }
        }
        print("Geodesic extreme grid: \(count) pairs, at most \(worstIterations) iterations")
    }

    @Test func antipodesOfRandomPointsAreHalfAMeridianApart() {
        // Given
        var random = SeededGenerator(seed: 20_240_521)
        var worstDistance = 0.0
        var worstIterations = (count: 0, bisections: 0)
        for _ in 0..<2000 {
            let latitude = asin(random.uniform(-1, 1)) * 180 / .pi
            let longitude = random.uniform(-180, 180)
            let antipode = (latitude: -latitude, longitude: longitude + 180)
            for offset in [0, 1e-12, 1e-9, 1e-6, 1e-3] {
                // When: the antipode and points just off it, in latitude and in longitude
                let pairs = [
                    (antipode.latitude, antipode.longitude),
                    (max(-90, min(90, antipode.latitude + offset)), antipode.longitude),
                    (antipode.latitude, antipode.longitude - offset),
                ]
                for (lat2, lon2) in pairs {
                    let solution = Geodesic.solve(
                        latitude1: latitude, longitude1: longitude, latitude2: lat2, longitude2: lon2
                    )
                    // Then
                    Self.expectSane(solution, "\(latitude), \(longitude) → \(lat2), \(lon2)")
                    if solution.iterations > worstIterations.count {
                        worstIterations = (solution.iterations, solution.bisections)
                    }
                    if offset == 0 {
                        let error = abs(solution.inverse.distance - Self.halfMeridian)
                        worstDistance = max(worstDistance, error)
                        #expect(error < 1e-6, "\(latitude), \(longitude): \(solution.inverse.distance)")
                    }
                }
            }
        }
        print(
            "Geodesic antipodes: worst distance error \(worstDistance) m; at most \(worstIterations.count) "
                + "iterations (\(worstIterations.bisections) bisections)"
        )
    }

    @Test func swappingTheEndsReversesTheGeodesic() throws {
        // Given
        let places = try Self.places().filter { !$0.degenerate && !$0.twoGeodesics }
        for place in places {
            // When
            let forward = Self.qibla(from: place).inverse
            let backward = Geodesic.inverse(
                latitude1: Self.kaaba.latitude, longitude1: Self.kaaba.longitude,
                latitude2: place.latitude, longitude2: place.longitude
            )
            // Then: same length; the azimuths swap ends and turn round
            #expect(abs(forward.distance - backward.distance) <= 1e-6, "\(place.label)")
            #expect(abs(Self.angleError(backward.initialAzimuth, forward.finalAzimuth + 180)) <= 1e-6, "\(place.label)")
        }
    }

    /// Finite azimuths in (−180, 180], a distance between 0 and half a meridian, bounded iterations.
    static func expectSane(_ solution: Geodesic.Solution, _ label: String) {
        let result = solution.inverse
        #expect(result.initialAzimuth.isFinite && result.finalAzimuth.isFinite, "\(label): \(result)")
        #expect(result.initialAzimuth > -180 && result.initialAzimuth <= 180, "\(label): \(result)")
        #expect(result.distance >= 0 && result.distance <= halfMeridian + 1e-6, "\(label): \(result)")
        #expect(solution.iterations <= 83, "\(label)")
    }
}

extension SeededGenerator {
    /// A double uniform in [low, high), from the top 53 bits of the next number.
    fileprivate mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }
}
