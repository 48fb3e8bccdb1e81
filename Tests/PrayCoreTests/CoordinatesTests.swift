import Foundation
import PrayCore
import Testing

@Suite struct CoordinatesTests {
    @Test(arguments: [(91.0, 0.0), (-90.5, 0.0), (0.0, 180.5), (0.0, -200.0), (.nan, 0.0), (0.0, .infinity)])
    func rejectsImpossiblePlaces(_ latitude: Double, _ longitude: Double) {
        #expect(throws: ValidationError.self) { try Coordinates(latitude: latitude, longitude: longitude) }
    }

    @Test func acceptsThePolesAndTheDateLine() throws {
        #expect(throws: Never.self) { try Coordinates(latitude: 90, longitude: 180) }
        #expect(throws: Never.self) { try Coordinates(latitude: -90, longitude: -180) }
    }

    @Test func explainsWhatIsWrong() {
        do {
            _ = try Coordinates(latitude: 91, longitude: 0)
            Issue.record("accepted latitude 91")
        } catch {
            #expect(error.field == "latitude")
            #expect(error.message == "latitude must be between -90 and 90 degrees, got 91")
        }
    }

    @Test func decodingChecksTheValues() {
        let bad = Data(#"{"latitude": 91, "longitude": 0}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Coordinates.self, from: bad) }
        let good = Data(#"{"latitude": 21.4225, "longitude": 39.8262}"#.utf8)
        #expect((try? JSONDecoder().decode(Coordinates.self, from: good))?.elevation == 0)
    }
}
