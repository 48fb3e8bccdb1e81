import Foundation
import Testing

@Suite struct QiblaCommandTests {
    @Test func jsonFollowsTheContract() async throws {
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
    }

    @Test func theKaabaSaysSo() async throws {
        let result = try await PraykitProcess.run(["qibla", "--lat", "21.4225241", "--lon", "39.8261818"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("at the Kaaba"))
    }

    @Test func badCoordinatesAreUsageErrors() async throws {
        for arguments in [["--lat", "95", "--lon", "0"], ["--lat", "0"], ["--lat", "0", "--lon", "181"]] {
            let result = try await PraykitProcess.run(["qibla"] + arguments)
            #expect(result.status == 64)
            #expect(result.stderr.contains("Usage: praykit qibla"))
        }
    }
}
