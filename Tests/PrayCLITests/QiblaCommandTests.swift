import Foundation
import PrayCore
import PrayMocks
import Testing

@Suite struct QiblaCommandTests {
    @Test(.tags(.process, .binary)) func jsonFollowsTheContract() async throws {
        let result = try await PraykitProcess.run([
            "qibla", "--lat", "40.7128", "--lon", "-74.0060", "--format", "json",
        ])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["latitude"] as? Double == 40.7128)
        #expect(object["longitude"] as? Double == -74.006)
        #expect(abs((object["direction"] as? Double ?? 0) - 58.396) < 0.001)
        #expect(abs((object["sphericalDirection"] as? Double ?? 0) - 58.482) < 0.001)
        #expect(abs((object["distanceKilometers"] as? Double ?? 0) - 10323.9) < 0.1)
        #expect(object["compass"] as? String == "ENE")
        // The compass bearing of today (the wall clock), or after 2030 why there is none.
        #expect(object["magneticModel"] as? String == "WMM2025")
        if let declination = object["declination"] as? Double {
            #expect(abs((object["magneticDirection"] as? Double ?? 0) - (58.396 - declination)) < 0.001)
        } else {
            #expect((object["magneticNote"] as? String)?.contains("valid from 2025.0 to 2030.0") == true)
        }
    }

    @Test(.tags(.process, .binary)) func theKaabaSaysSo() async throws {
        let result = try await PraykitProcess.run(["qibla", "--lat", "21.4225241", "--lon", "39.8261818"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("at the Kaaba"))
    }

    @Test(.tags(.process, .binary)) func badCoordinatesAreUsageErrors() async throws {
        for arguments in [["--lat", "95", "--lon", "0"], ["--lat", "0"], ["--lat", "0", "--lon", "181"]] {
            let result = try await PraykitProcess.run(["qibla"] + arguments)
            #expect(result.status == 64)
            #expect(result.stderr.contains("Usage: praykit qibla"))
        }
    }

    // MARK: - By compass

    @Test(.tags(.process, .binary)) func jsonGivesTheCompassBearingAndTheDeclinationUsed() async throws {
        let result = try await PraykitProcess.run([
            "qibla", "--lat", "40.7128", "--lon", "-74.0060", "--date", "2026-12-01", "--format", "json",
        ])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let direction = try #require(object["direction"] as? Double)
        let declination = try #require(object["declination"] as? Double)
        // New York: the declination is about 12.5° west.
        #expect((-13.5...(-11.5)).contains(declination))
        #expect(abs(try #require(object["magneticDirection"] as? Double) - (direction - declination)) < 1e-9)
        #expect(object["magneticModel"] as? String == "WMM2025")
        #expect(object["magneticDate"] as? String == "2026-12-01")
        #expect(object["magneticZone"] as? String == "reliable")
        #expect(object["magneticNote"] == nil)
        let field = try #require(object["magneticField"] as? [String: Any])
        #expect(field["declination"] as? Double == declination)
        #expect(abs((field["decimalYear"] as? Double ?? 0) - (2026 + 334.0 / 365)) < 1e-12)
        for key in ["inclination", "horizontalIntensity", "north", "east", "down", "totalIntensity", "heightMeters"] {
            #expect(field[key] is Double, "\(key)")
        }
    }

    @Test func theTableNamesTrueAndCompassBearingsAndTheDeclination() async throws {
        let result = await CLI.run(["qibla", "--lat", "40.7128", "--lon", "-74.0060", "--date", "2026-12-01"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[1] == "True bearing: 58.40° (ENE) clockwise from true north, along the geodesic")
        let json = try CLI.json(
            await CLI.run([
                "qibla", "--lat", "40.7128", "--lon", "-74.0060", "--date", "2026-12-01", "--format", "json",
            ])
            .stdout)
        let magnetic = try #require(json["magneticDirection"] as? Double)
        let declination = try #require(json["declination"] as? Double)
        #expect(lines[2] == "Magnetic bearing (compass): " + String(format: "%.1f° (ENE)", magnetic))
        #expect(lines[3] == "Declination: " + String(format: "%.1f° W (WMM2025, 2026-12-01)", -declination))
        #expect(lines[4] == "Great circle on a sphere: 58.48° (true)")
        #expect(!result.stdout.contains("Note:"))
    }

    @Test func theDayIsTodayInThePlacesZoneUnlessGiven() async throws {
        // CLI.now is 2026-11-29 12:00 UTC; in Auckland it is already the 30th.
        let london = try CLI.json(await CLI.run(["qibla", "--city", "London", "--format", "json"]).stdout)
        #expect(london["magneticDate"] as? String == "2026-11-29")
        let auckland = try CLI.json(await CLI.run(["qibla", "--city", "Auckland", "--format", "json"]).stdout)
        #expect(auckland["magneticDate"] as? String == "2026-11-30")
        let tomorrow = try CLI.json(
            await CLI.run(["qibla", "--city", "London", "--date", "tomorrow", "--format", "json"]).stdout)
        #expect(tomorrow["magneticDate"] as? String == "2026-11-30")
    }

    @Test func outsideTheModelsYearsOnlyTheTrueBearingIsGiven() async throws {
        let table = await CLI.run(["qibla", "--lat", "51.5074", "--lon", "-0.1278", "--date", "2031-03-01"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("True bearing: 118.87° (ESE)"))
        #expect(
            table.stdout.contains(
                "Magnetic bearing (compass): not available: WMM2025 is valid from 2025.0 to 2030.0; 2031.16 is after "
                    + "it, and a newer World Magnetic Model is needed"))
        #expect(table.stdout.contains("Declination: not available (WMM2025, 2031-03-01)"))
        #expect(!table.stdout.contains("Note:"))
        let json = try CLI.json(
            await CLI.run(["qibla", "--lat", "51.5074", "--lon", "-0.1278", "--date", "2024-06-01", "--format", "json"])
                .stdout)
        #expect(abs((json["direction"] as? Double ?? 0) - 118.868) < 0.001)
        #expect(json["magneticDirection"] is NSNull)
        #expect(json["declination"] is NSNull)
        #expect(json["magneticField"] is NSNull)
        #expect(json["magneticZone"] is NSNull)
        #expect(json["magneticModel"] as? String == "WMM2025")
        let note = try #require(json["magneticNote"] as? String)
        #expect(note.contains("valid from 2025.0 to 2030.0; 2024.42 is before it"), "\(note)")
    }

    @Test func nearTheNorthMagneticPoleTheOutputWarns() async throws {
        // 89° N 121° W: H = 1504 nT at 2025.0 in NOAA's test values, the model's blackout zone.
        let blackout = await CLI.run(["qibla", "--lat", "89", "--lon", "-121", "--date", "2025-01-01"])
        #expect(blackout.stdout.contains("Magnetic bearing (compass): not given, a compass is unreliable here"))
        #expect(blackout.stdout.contains("unreliable here (WMM2025, 2025-01-01)"))
        #expect(blackout.stdout.contains("blackout zone near the north magnetic pole"))
        let json = try CLI.json(
            await CLI.run(["qibla", "--lat", "89", "--lon", "-121", "--date", "2025-01-01", "--format", "json"]).stdout)
        #expect(json["magneticZone"] as? String == "blackout")
        #expect(json["magneticDirection"] is Double)
        #expect((json["magneticNote"] as? String)?.contains("blackout zone") == true)
        // 80° N 96° W: H = 2164 nT at 48 km, a caution zone; at the ground it is still under 6000 nT.
        let caution = await CLI.run(["qibla", "--lat", "80", "--lon", "-96", "--date", "2025-01-01"])
        #expect(caution.stdout.contains("may be unreliable here"))
        #expect(caution.stdout.contains("caution zone near the north magnetic pole"))
    }

    @Test func theCompassBearingComesFromTheContainersService() async throws {
        // A mock model: the place, height and day reach it, and its declination is the one subtracted.
        var dependency = CLI.dependency()
        let magnetic = MagneticFieldServiceMock()
        magnetic.onField { coordinates, _, year in .mock(declination: 60, at: coordinates, year: year) }
        dependency.magneticField = magnetic
        let result = await CLI.run(
            ["qibla", "--lat", "51.5074", "--lon", "-0.1278", "--elevation", "250", "--date", "2027-03-01"],
            dependency: dependency)
        #expect(result.stdout.contains("Magnetic bearing (compass): 58.9° (ENE)"))
        #expect(result.stdout.contains("Declination: 60.0° E (WMM2025, 2027-03-01)"))
        let call = try #require(magnetic.fieldCalls.first)
        #expect(magnetic.fieldCalls.count == 1)
        #expect(call.coordinates.latitude == 51.5074)
        #expect(call.heightMeters == 250)
        #expect(call.year == DecimalYear(try CivilDate(parsing: "2027-03-01")))
        // A bearing that crosses north wraps into 0…360.
        magnetic.onField { coordinates, _, year in .mock(declination: -300, at: coordinates, year: year) }
        let json = try CLI.json(
            await CLI.run(
                ["qibla", "--lat", "51.5074", "--lon", "-0.1278", "--format", "json"], dependency: dependency
            )
            .stdout)
        let direction = try #require(json["direction"] as? Double)
        #expect(abs(try #require(json["magneticDirection"] as? Double) - (direction + 300 - 360)) < 1e-9)
        // A caution zone from the mock's weak field.
        magnetic.onField { coordinates, _, year in
            .mock(declination: 10, horizontalIntensity: 4_000, at: coordinates, year: year)
        }
        let caution = try CLI.json(
            await CLI.run(
                ["qibla", "--lat", "51.5074", "--lon", "-0.1278", "--format", "json"], dependency: dependency
            )
            .stdout)
        #expect(caution["magneticZone"] as? String == "caution")
        #expect((caution["magneticNote"] as? String)?.contains("(4000 nT, under 6000 nT)") == true)
    }

    @Test func qiblaNearTheKaabaAndItsAntipode() async {
        let near = await CLI.run(["qibla", "--lat", "21.4230", "--lon", "39.8262"])
        #expect(near.stdout.contains("Distance: 55.") || near.stdout.contains(" m\n"), "\(near.stdout)")
        #expect(near.stdout.contains("only meaningful beyond a few metres"))
        let antipode = await CLI.run(["qibla", "--lat", "-20", "--lon", "-141"])
        #expect(antipode.stdout.contains("directions of the shortest paths diverge"), "\(antipode.stdout)")
        let newYork = await CLI.run(["qibla", "--lat", "40.7128", "--lon", "-74.0060"])
        #expect(!newYork.stdout.contains("Note:"))
    }
}
