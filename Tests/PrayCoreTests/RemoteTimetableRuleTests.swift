import Foundation
import PrayCore
import Testing

/// The rules of a published timetable live with the type: where it applies, its server, its key.
@Suite struct RemoteTimetableRuleTests {
    @Test func londonsTimetableIsLondons() throws {
        let london = RemoteTimetable(.london, apiKey: "key")
        #expect(london.baseURL.absoluteString == "https://www.londonprayertimes.com")
        #expect(london.provider.needsAPIKey)
        try london.checkServes(try Coordinates(latitude: 51.55, longitude: -0.05))  // Hackney
        try london.checkServes(try Coordinates(latitude: 51.75, longitude: -0.34))  // St Albans, 30 km
        #expect {
            try london.checkServes(try Coordinates(latitude: 52.4862, longitude: -1.8904))  // Birmingham
        } throws: { error in
            (error as? ValidationError)?.message.contains("km from London") == true
        }
    }

    @Test func aladhanServesEveryPlace() throws {
        let aladhan = RemoteTimetable(.aladhan)
        #expect(aladhan.baseURL.absoluteString == "https://api.aladhan.com")
        #expect(!aladhan.provider.needsAPIKey && aladhan.provider.serviceArea == nil)
        try aladhan.checkServes(try Coordinates(latitude: -33.87, longitude: 151.21))
    }

    @Test func greatCircleDistances() throws {
        let makkah = try Coordinates(latitude: 21.4225, longitude: 39.8262)
        let madinah = try Coordinates(latitude: 24.4672, longitude: 39.6024)
        // About 339 km on the sphere (the geodesic gives 338.3 km)
        #expect(abs(makkah.kilometers(to: madinah) - 339.1) < 1)
        #expect(makkah.kilometers(to: makkah) == 0)
    }
}
