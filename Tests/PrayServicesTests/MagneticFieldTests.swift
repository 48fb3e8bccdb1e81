import Foundation
import PrayCore
import Testing

@testable import PrayServices

/// The World Magnetic Model against NOAA's published WMM2025 test values (`Resources/wmm/`, see
/// `SOURCE.md` there), and its edges: the years it is valid for, heights, the geographic poles and
/// the magnetic poles' caution and blackout zones.
@Suite struct MagneticFieldTests {
    let service = MagneticFieldServiceWMM(log: .silent)

    /// One row of a test-value file: the point and the expected elements.
    struct Row {
        let year: Double
        let heightKilometers: Double
        let latitude: Double
        let longitude: Double
        let north: Double
        let east: Double
        let down: Double
        let horizontal: Double
        let total: Double
        let inclination: Double
        let declination: Double
    }

    /// The rows of a file, each a line of numbers; `columns` names the column of each element.
    static func rows(_ file: String, columns: [String: Int]) throws -> [Row] {
        let text = try #require(String(data: try Fixtures.data("wmm/" + file), encoding: .utf8))
        return try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let values = line.split(separator: " ").map { Double($0) ?? .nan }
            func value(_ name: String) throws -> Double {
                let column = try #require(columns[name])
                return values[column]
            }
            return Row(
                year: try value("year"), heightKilometers: try value("height"), latitude: try value("latitude"),
                longitude: try value("longitude"), north: try value("X"), east: try value("Y"), down: try value("Z"),
                horizontal: try value("H"), total: try value("F"), inclination: try value("I"),
                declination: try value("D"))
        }
    }

    /// Checks every row; returns the worst component (nT) and angle (degrees) errors.
    func check(_ rows: [Row], nanotesla: Double, degrees: Double) throws -> (nanotesla: Double, degrees: Double) {
        var worst = (nanotesla: 0.0, degrees: 0.0)
        for row in rows {
            let field = try service.field(
                // The report writes 240° E for 120° W.
                at: try Coordinates(
                    latitude: row.latitude, longitude: row.longitude > 180 ? row.longitude - 360 : row.longitude),
                heightMeters: row.heightKilometers * 1000, year: DecimalYear(row.year))
            let label = "\(row.year) \(row.heightKilometers) km \(row.latitude), \(row.longitude)"
            let components = [
                (field.north, row.north), (field.east, row.east), (field.down, row.down),
                (field.horizontalIntensity, row.horizontal), (field.totalIntensity, row.total),
            ]
            for (computed, expected) in components {
                #expect(abs(computed - expected) <= nanotesla, "\(label): \(computed) nT, expected \(expected)")
                worst.nanotesla = max(worst.nanotesla, abs(computed - expected))
            }
            for (computed, expected) in [(field.declination, row.declination), (field.inclination, row.inclination)] {
                #expect(abs(computed - expected) <= degrees, "\(label): \(computed)°, expected \(expected)")
                worst.degrees = max(worst.degrees, abs(computed - expected))
            }
        }
        return worst
    }

    @Test func matchesTheTechnicalReportTable() throws {
        // Date, height (km), latitude, longitude, X, Y, Z, H, F, I, D, then grid variation and rates.
        let rows = try Self.rows(
            "WMM2025_TEST_VALUE_TABLE_FOR_REPORT.txt",
            columns: [
                "year": 0, "height": 1, "latitude": 2, "longitude": 3, "X": 4, "Y": 5, "Z": 6, "H": 7, "F": 8,
                "I": 9, "D": 10,
            ])
        #expect(rows.count == 12)
        // Printed to 0.1 nT and 0.01°: within half of that, as rounding leaves it.
        let worst = try check(rows, nanotesla: 0.05 + 1e-6, degrees: 0.005 + 1e-6)
        print("WMM2025 report table, 12 rows: worst \(worst.nanotesla) nT, \(worst.degrees)°")
    }

    @Test func matchesNOAAsHundredTestValues() throws {
        // Year, height (km), latitude, longitude, D, I, H, X, Y, Z, F, then the rates.
        let rows = try Self.rows(
            "WMM2025_FINAL_TEST_VALUES_HIGHPREC.txt",
            columns: [
                "year": 0, "height": 1, "latitude": 2, "longitude": 3, "D": 4, "I": 5, "H": 6, "X": 7, "Y": 8,
                "Z": 9, "F": 10,
            ])
        #expect(rows.count == 100)
        // D and I printed to 0.01° (within half of it); the components to 1e-6 nT, held to 0.1 nT here
        // (the precision NOAA's own table prints them to) though they agree far more closely.
        let worst = try check(rows, nanotesla: 0.1, degrees: 0.005 + 1e-6)
        print("WMM2025 test values, 100 rows: worst \(worst.nanotesla) nT, \(worst.degrees)°")
    }

    @Test func theModelIsWMM2025() {
        let model = service.model
        #expect(model.name == "WMM2025")
        #expect(model.epoch == 2025.0)
        #expect(model.validity == 2025.0...2030.0)
        #expect(model.releaseDate == "11/13/2024")
        // The text built in is WMM.COF byte for byte (the file ends with a newline the literal drops).
        #expect(
            SHA256.hexHash(WMMCoefficients.wmm2025File + "\n")
                == "06791cd95faba7bdf4a709808f2715a53fe689b29c23b9886bc2196fa9b3eb13")
        let coefficients = WMMCoefficients.wmm2025
        #expect(coefficients.degree == 12)
        #expect(coefficients.g.count == 91)
        // The first and last lines of WMM.COF.
        #expect(coefficients.g[WMMCoefficients.index(1, 0)] == -29351.8)
        #expect(coefficients.gRate[WMMCoefficients.index(1, 0)] == 12.0)
        #expect(coefficients.h[WMMCoefficients.index(1, 1)] == 4545.4)
        #expect(coefficients.hRate[WMMCoefficients.index(12, 12)] == -0.1)
    }

    @Test func decimalYearsCountDaysAsTheWMMSoftwareDoes() throws {
        #expect(DecimalYear(try CivilDate(parsing: "2025-01-01")).value == 2025.0)
        #expect(DecimalYear(try CivilDate(parsing: "2027-07-02")).value == 2027 + 182.0 / 365)
        #expect(DecimalYear(try CivilDate(parsing: "2028-12-31")).value == 2028 + 365.0 / 366)
        #expect(DecimalYear(try CivilDate(parsing: "2026-12-01")).description == "2026.92")
    }

    @Test func refusesYearsOutsideTheModel() throws {
        let london = try Coordinates(latitude: 51.5074, longitude: -0.1278)
        // The year is shown rounded away from the model's years: never 2025.00 for a day before them.
        for (day, word, shown) in [
            ("2024-12-31", "before", "2024.99"), ("2030-01-02", "after", "2030.01"), ("2031-06-01", "after", "2031.41"),
        ] {
            let date = try CivilDate(parsing: day)
            let error = try #require(throws: MagneticFieldError.self) {
                try service.field(at: london, heightMeters: 0, on: date)
            }
            #expect(error.kind == .outsideValidity)
            #expect(error.message.contains("WMM2025 is valid from 2025.0 to 2030.0"), "\(error.message)")
            #expect(error.message.contains("; \(shown) is \(word) it"), "\(error.message)")
            if word == "after" { #expect(error.message.contains("a newer World Magnetic Model is needed")) }
        }
        #expect(throws: MagneticFieldError.self) {
            try service.field(at: london, heightMeters: 0, year: DecimalYear(.nan))
        }
        // Both ends belong to the model.
        _ = try service.field(at: london, heightMeters: 0, on: try CivilDate(parsing: "2025-01-01"))
        _ = try service.field(at: london, heightMeters: 0, on: try CivilDate(parsing: "2030-01-01"))
    }

    @Test func refusesHeightsTheModelDoesNotCover() throws {
        let london = try Coordinates(latitude: 51.5074, longitude: -0.1278)
        for height in [-1_001.0, 850_001, .infinity] {
            let error = try #require(throws: MagneticFieldError.self) {
                try service.field(at: london, heightMeters: height, year: DecimalYear(2026))
            }
            #expect(error.kind == .heightOutOfRange)
        }
    }

    @Test func isFiniteAndContinuousAtTheGeographicPoles() throws {
        // Y′ divides by cos φ′; at the poles the quotient's limit is taken (see the recursion's notes).
        for (pole, near) in [(90.0, 90 - 1e-7), (-90.0, -90 + 1e-7)] {
            for longitude in [-180.0, -61.5, 0, 45, 139.3] {
                let atPole = try service.field(
                    at: try Coordinates(latitude: pole, longitude: longitude), heightMeters: 0, year: DecimalYear(2027))
                let beside = try service.field(
                    at: try Coordinates(latitude: near, longitude: longitude), heightMeters: 0, year: DecimalYear(2027))
                for (a, b) in [(atPole.north, beside.north), (atPole.east, beside.east), (atPole.down, beside.down)] {
                    #expect(a.isFinite)
                    #expect(abs(a - b) < 0.01, "\(pole), \(longitude): \(a) nT at the pole, \(b) nT beside it")
                }
            }
        }
    }

    @Test func flagsTheZonesAroundTheMagneticPoles() throws {
        // From NOAA's test values: H = 1504 nT at 89° N 121° W (2025.0), 906 nT at 87° N 154° W
        // (2029.0), 2164 nT at 80° N 96° W (2025.0, 48 km) — near the north magnetic pole.
        let cases: [(Double, Double, Double, Double, MagneticField.DeclinationReliability)] = [
            (2025.0, 28, 89, -121, .blackout),
            (2029.0, 50, 87, -154, .blackout),
            (2025.0, 48, 80, -96, .caution),
            (2026.0, 0, 51.5074, -0.1278, .reliable),
            (2026.0, 0, -6.2088, 106.8456, .reliable),
        ]
        for (year, kilometers, latitude, longitude, expected) in cases {
            let field = try service.field(
                at: try Coordinates(latitude: latitude, longitude: longitude), heightMeters: kilometers * 1000,
                year: DecimalYear(year))
            #expect(
                field.declinationReliability == expected, "\(latitude), \(longitude): H = \(field.horizontalIntensity)")
        }
        // Walking towards the north magnetic pole along 140° E, the zones come in order.
        var zones: [MagneticField.DeclinationReliability] = []
        for latitude in stride(from: 70.0, through: 86, by: 0.25) {
            let zone = try service.field(
                at: try Coordinates(latitude: latitude, longitude: 139), heightMeters: 0, year: DecimalYear(2026.9)
            ).declinationReliability
            if zones.last != zone { zones.append(zone) }
        }
        #expect(zones == [.reliable, .caution, .blackout])
    }

    @Test func compassBearingsOfTheQiblaAreTheTrueOnesLessTheDeclination() throws {
        let qibla = QiblaServiceGeodesic(log: .silent)
        let date = try CivilDate(parsing: "2026-12-01")
        // Each declination in the range magnetic charts show there (east positive).
        let places: [(String, Double, Double, ClosedRange<Double>)] = [
            ("Makkah", 21.3891, 39.8579, 2.5...5),
            ("London", 51.5074, -0.1278, 0...3),
            ("New York", 40.7128, -74.006, -14...(-11)),
            ("Jakarta", -6.2088, 106.8456, 0...2),
        ]
        for (name, latitude, longitude, expected) in places {
            let coordinates = try Coordinates(latitude: latitude, longitude: longitude)
            let field = try service.field(at: coordinates, heightMeters: 0, on: date)
            let trueBearing = qibla.qibla(from: coordinates).direction
            #expect(expected.contains(field.declination), "\(name): declination \(field.declination)")
            var magnetic = trueBearing - field.declination
            if magnetic < 0 { magnetic += 360 }
            if magnetic >= 360 { magnetic -= 360 }
            #expect(abs(field.magneticBearing(fromTrue: trueBearing) - magnetic) < 1e-12, "\(name)")
            #expect(field.declinationReliability == .reliable)
        }
    }
}
