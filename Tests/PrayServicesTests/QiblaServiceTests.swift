import Foundation
import PrayCore
import PrayServices
import Testing

/// The qibla service against GeographicLib (`qibla-geographiclib.json`, 359 places).
@Suite struct QiblaServiceTests {
    struct Reference: Decodable {
        struct Place: Decodable {
            let label: String
            let latitude: Double
            let longitude: Double
            let azimuth: Double
            let distance: Double
            let sphericalAzimuth: Double
            let degenerate: Bool
            let twoGeodesics: Bool
        }
        let cases: [Place]
    }

    let service = QiblaServiceGeodesic(log: .silent)

    func angleError(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(difference, 360 - difference)
    }

    @Test func matchesGeographicLib() throws {
        let places = try JSONDecoder().decode(Reference.self, from: Fixtures.data("qibla-geographiclib.json")).cases
        var worstDirection = 0.0
        var worstDistance = 0.0
        var worstSpherical = 0.0
        for place in places where !place.degenerate {
            let qibla = service.qibla(from: try Coordinates(latitude: place.latitude, longitude: place.longitude))
            #expect((0..<360).contains(qibla.direction), "\(place.label)")
            worstDirection = max(worstDirection, angleError(qibla.direction, place.azimuth))
            worstDistance = max(worstDistance, abs(qibla.distanceKilometers * 1000 - place.distance))
            worstSpherical = max(worstSpherical, angleError(qibla.sphericalDirection, place.sphericalAzimuth))
            #expect((qibla.degeneracy == .antipode) == place.twoGeodesics, "\(place.label)")
        }
        print(
            "Qibla vs GeographicLib: worst direction \(worstDirection)°, distance \(worstDistance) m, spherical \(worstSpherical)°"
        )
        #expect(worstDirection < 1e-6)
        #expect(worstDistance < 1)
        #expect(worstSpherical < 1e-9)
        #expect(places.count >= 300)
    }

    @Test func newYork() throws {
        let qibla = service.qibla(from: try Coordinates(latitude: 40.7128, longitude: -74.0060))
        #expect(abs(qibla.direction - 58.396) < 0.001)
        #expect(abs(qibla.sphericalDirection - 58.482) < 0.001)
        #expect(qibla.compass == .eastNortheast)
        #expect(abs(qibla.distanceKilometers - 10323.9) < 0.1)
        #expect(qibla.degeneracy == nil)
    }

    @Test func theKaabaAndItsAntipodeAreDefined() throws {
        let kaaba = service.qibla(
            from: try Coordinates(latitude: Qibla.kaaba.latitude, longitude: Qibla.kaaba.longitude))
        #expect(kaaba.degeneracy == .atKaaba)
        #expect(kaaba.direction == 0 && kaaba.distanceKilometers < 0.001)
        let antipode = service.qibla(
            from: try Coordinates(latitude: -Qibla.kaaba.latitude, longitude: Qibla.kaaba.longitude - 180))
        #expect(antipode.degeneracy == .antipode)
        #expect(antipode.direction.isFinite && antipode.sphericalDirection == antipode.direction)
        #expect(abs(antipode.distanceKilometers - 20003.931) < 0.001)
        // A kilometre off the antipode's parallel the direction is unique again.
        let near = service.qibla(
            from: try Coordinates(latitude: -Qibla.kaaba.latitude + 0.01, longitude: Qibla.kaaba.longitude - 180))
        #expect(near.degeneracy == nil)
    }

    @Test func neverNaNAnywhere() throws {
        for latitude in stride(from: -90.0, through: 90.0, by: 7.5) {
            for longitude in stride(from: -180.0, through: 180.0, by: 7.5) {
                let qibla = service.qibla(from: try Coordinates(latitude: latitude, longitude: longitude))
                #expect(
                    qibla.direction.isFinite && qibla.sphericalDirection.isFinite && qibla.distanceKilometers.isFinite)
            }
        }
    }

    @Test func compassPoints() {
        #expect(CompassPoint(bearing: 0) == .north)
        #expect(CompassPoint(bearing: 11.24) == .north)
        #expect(CompassPoint(bearing: 11.26) == .northNortheast)
        #expect(CompassPoint(bearing: 359) == .north)
        #expect(CompassPoint(bearing: 180) == .south)
        #expect(CompassPoint(bearing: -90) == .west)
        #expect(CompassPoint(bearing: .nan) == .north)
    }
}
