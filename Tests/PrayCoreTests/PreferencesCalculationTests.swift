import Foundation
import PrayCore
import Testing

@Suite struct PreferencesCalculationTests {
    func preferences(_ values: [String: String]) throws -> Preferences {
        try Preferences(storedValues: values)
    }

    @Test func nothingSetIsMuslimWorldLeagueAndNoPlace() throws {
        let empty = Preferences()
        #expect(try empty.calculationParameters() == CalculationParameters(method: .muslimWorldLeague))
        #expect(try empty.coordinates() == nil)
        #expect(empty.timeZone == nil)
        #expect(try preferences(["latitude": "21.4"]).coordinates() == nil)
    }

    @Test func thePlaceAndZone() throws {
        let stored = try preferences([
            "latitude": "21.4225", "longitude": "39.8262", "elevation": "277", "tz": "Asia/Riyadh",
        ])
        #expect(try stored.coordinates() == (try Coordinates(latitude: 21.4225, longitude: 39.8262, elevation: 277)))
        #expect(stored.timeZone?.identifier == "Asia/Riyadh")
    }

    @Test func overridesApplyToTheMethod() throws {
        let stored = try preferences([
            "method": "isna", "madhab": "hanafi", "isha-angle": "17", "maghrib-interval": "3", "imsak-minutes": "15",
            "high-latitude-rule": "seventh-of-the-night", "rounding": "up", "adjust": "fajr=2",
            "night": "sunset-to-fajr",
        ])
        var expected = CalculationParameters(method: .northAmerica)
        expected.madhab = .hanafi
        expected.ishaAngle = 17
        expected.ishaInterval = nil
        expected.maghribInterval = 3
        expected.maghribAngle = nil
        expected.imsak = .minutesBeforeFajr(15)
        expected.highLatitudeRule = .seventhOfTheNight
        expected.rounding = .up
        expected.adjustments = try PrayerAdjustments(parsing: "fajr=2")
        expected.night = .sunsetToFajr
        #expect(try stored.calculationParameters() == expected)
    }

    @Test func anIshaIntervalReplacesTheMethodsAngleAndAnImsakAngleWins() throws {
        let stored = try preferences([
            "method": "mwl", "isha-interval": "90", "imsak-minutes": "10", "imsak-angle": "19",
        ])
        let parameters = try stored.calculationParameters()
        #expect(parameters.ishaInterval == 90)
        #expect(parameters.imsak == .angle(19))
    }

    @Test func shafaqNeedsTheMoonsightingCommittee() throws {
        // A saved shafaq with another method is ignored, by the same rule as the command line's.
        #expect(try preferences(["shafaq": "ahmer"]).calculationParameters().seasonalTwilight == nil)
        let committee = try preferences(["method": "moonsighting-committee", "shafaq": "ahmer"])
        #expect(try committee.calculationParameters().seasonalTwilight == .ahmer)
    }

    @Test func theCalculationKeysAreTheOnesThatShapeIt() throws {
        // Every calculation key changes the parameters of some value; no other key does.
        let samples: [Preferences.Key: String] = [
            .method: "karachi", .madhab: "hanafi", .fajrAngle: "16", .ishaAngle: "16", .ishaInterval: "80",
            .maghribAngle: "4", .maghribInterval: "5", .imsakMinutes: "20", .imsakAngle: "20",
            .highLatitudeRule: "twilight-angle", .polarResolution: "nearest-day", .shafaq: "abyad",
            .night: "maghrib-to-fajr", .rounding: "none", .adjust: "isha=3",
        ]
        #expect(Set(samples.keys) == Set(Preferences.calculationKeys))
        for key in Preferences.calculationKeys {
            var stored = Preferences()
            if key == .shafaq { try stored.set("moonsighting-committee", for: .method) }
            let before = try stored.calculationParameters()
            try stored.set(samples[key]!, for: key)
            #expect(try stored.calculationParameters() != before, "\(key)")
        }
        var other = Preferences()
        try other.set("12h", for: .clock)
        try other.set("Home", for: .placeName)
        #expect(try other.calculationParameters() == CalculationParameters(method: .muslimWorldLeague))
    }
}
