import Foundation
import PrayCore
import Testing

/// The magnetic field value: elements from components, compass bearings, the magnetic poles' zones.
@Suite struct MagneticFieldModelTests {
    let model = MagneticModel(name: "WMM2025", epoch: 2025, validity: 2025...2030)

    func field(north: Double, east: Double, down: Double = 40_000) throws -> MagneticField {
        MagneticField(
            model: model, coordinates: try Coordinates(latitude: 51.5, longitude: 0), heightMeters: 0,
            year: DecimalYear(2026), north: north, east: east, down: down)
    }

    @Test func derivesTheElementsFromTheComponents() throws {
        // The report's first test value: 80° N 0° E, 2025.0 (X, Y, Z → H, F, I, D), from components
        // rounded to 0.1 nT.
        let field = try field(north: 6521.6, east: 145.9, down: 54791.5)
        #expect(abs(field.horizontalIntensity - 6523.2) < 0.1)
        #expect(abs(field.totalIntensity - 55178.5) < 0.1)
        #expect(abs(field.inclination - 83.21) < 0.005)
        #expect(abs(field.declination - 1.28) < 0.005)
        #expect(try self.field(north: -100, east: -1).declination < -179)
    }

    @Test func theCompassBearingIsTheTrueOneLessTheDeclinationWithinACircle() throws {
        let east = try field(north: 1, east: 1)  // 45° east
        #expect(abs(east.magneticBearing(fromTrue: 90) - 45) < 1e-12)
        #expect(abs(east.magneticBearing(fromTrue: 10) - 325) < 1e-12)
        let west = try field(north: 1, east: -1)  // 45° west
        #expect(abs(west.magneticBearing(fromTrue: 350) - 35) < 1e-12)
        #expect(abs(west.magneticBearing(fromTrue: 315)) < 1e-12)
        for trueBearing in stride(from: 0.0, to: 360, by: 7.5) {
            let bearing = west.magneticBearing(fromTrue: trueBearing)
            #expect((0..<360).contains(bearing))
        }
    }

    @Test func weakHorizontalFieldsAreCautionAndBlackoutZones() throws {
        #expect(try field(north: 1_999, east: 0).declinationReliability == .blackout)
        #expect(try field(north: 2_000, east: 0).declinationReliability == .caution)
        #expect(try field(north: 3_000, east: 4_000).declinationReliability == .caution)  // H = 5000
        #expect(try field(north: 6_000, east: 0).declinationReliability == .reliable)
    }

    @Test func aModelKnowsItsYears() {
        #expect(model.isValid(at: DecimalYear(2025)))
        #expect(model.isValid(at: DecimalYear(2030)))
        #expect(!model.isValid(at: DecimalYear(2030.0001)))
        #expect(!model.isValid(at: DecimalYear(2024.999)))
        #expect(model.description == "WMM2025 (2025.0–2030.0)")
    }

    @Test func decimalYearsStartEachDay() throws {
        #expect(DecimalYear(try CivilDate(parsing: "2026-01-01")) == DecimalYear(2026))
        #expect(DecimalYear(try CivilDate(parsing: "2026-12-31")).value == 2026 + 364.0 / 365)
        #expect(DecimalYear(try CivilDate(parsing: "2028-03-01")).value == 2028 + 60.0 / 366)
        #expect(DecimalYear(2026.5) < DecimalYear(try CivilDate(parsing: "2026-07-03")))
        #expect(DecimalYear(2031.16).description == "2031.16")
    }
}
