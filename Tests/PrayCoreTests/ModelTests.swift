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

@Suite struct CalculationMethodTests {
    @Test(arguments: [
        ("mwl", CalculationMethod.muslimWorldLeague), ("ISNA", .northAmerica), ("makkah", .ummAlQura),
        ("umm_al_qura", .ummAlQura), ("Moonsighting Committee", .moonsightingCommittee), ("jafari", .jafari),
    ])
    func findsMethodsByNameOrAlias(_ name: String, _ method: CalculationMethod) throws {
        #expect(try CalculationMethod.named(name) == method)
    }

    @Test func rejectsUnknownNames() {
        #expect(throws: ValidationError.self) { try CalculationMethod.named("nope") }
    }

    @Test func aliasesAreUnique() {
        let names = CalculationMethod.allCases.flatMap { [$0.rawValue] + $0.aliases }
        #expect(Set(names).count == names.count)
    }

    @Test func presetsCarryTheirPublishedParameters() {
        let mwl = CalculationMethod.muslimWorldLeague.parameters
        #expect(mwl.fajrAngle == 18 && mwl.ishaAngle == 17 && mwl.methodAdjustments[.dhuhr] == 1)
        let makkah = CalculationMethod.ummAlQura.parameters
        #expect(makkah.fajrAngle == 18.5 && makkah.ishaInterval == 90 && makkah.ramadanIshaInterval == 120)
        let tehran = CalculationMethod.tehran.parameters
        #expect(tehran.maghribAngle == 4.5 && tehran.night == .sunsetToFajr)
        let singapore = CalculationMethod.singapore.parameters
        #expect(singapore.rounding == .up)
        let custom = CalculationMethod.custom.parameters
        #expect(custom.fajrAngle == nil && custom.ishaAngle == nil && custom.highLatitudeRule == .none)
        for method in CalculationMethod.allCases {
            #expect((try? method.parameters.validate()) != nil, "\(method)")
            #expect(!method.displayName.isEmpty)
        }
    }

    @Test func madhabSetsTheShadowFactor() {
        var parameters = CalculationParameters(method: .karachi)
        #expect(parameters.madhab == .shafi)
        parameters.madhab = .hanafi
        #expect(parameters.asrShadowFactor == 2)
        parameters.asrShadowFactor = 1.5
        #expect(parameters.madhab == nil)
    }
}

@Suite struct PrayerAdjustmentsTests {
    @Test func parsesTheCommandLineSyntax() throws {
        let adjustments = try PrayerAdjustments(parsing: "fajr=2, isha=-3,dhuhr=0")
        #expect(adjustments[.fajr] == 2 && adjustments[.isha] == -3 && adjustments[.dhuhr] == 0)
        #expect(adjustments.description == "fajr=2,isha=-3")
    }

    @Test(arguments: ["fajr", "fajr=x", "noon=3", "isha=99999"])
    func rejectsMalformedAdjustments(_ text: String) {
        #expect(throws: ValidationError.self) { try PrayerAdjustments(parsing: text) }
    }

    @Test func addsTables() {
        let total = PrayerAdjustments([.dhuhr: 1]) + PrayerAdjustments([.dhuhr: 2, .asr: -1])
        #expect(total[.dhuhr] == 3 && total[.asr] == -1)
    }
}

@Suite struct PrayerLogEntryTests {
    @Test(arguments: [202_651_930.846, -290_582_231.065, -121_315_237.597, 0.001, -0.001, 1_795_953_600.25])
    func aMillisecondSurvivesEveryPassThroughTheEntry(_ seconds: Double) throws {
        // Given an instant kept to the millisecond (k / 1000 is not exact in binary)
        let entry = try PrayerLogEntry(
            date: CivilDate(daysSince1970: 20_000), prayer: .asr, status: .late,
            recordedAt: Date(timeIntervalSince1970: seconds))
        let milliseconds = Int64((seconds * 1000).rounded())
        // When it is written, read back and made an entry again
        let text = PrayerLogEntry.timestamp(entry.recordedAt)
        let parsed = try #require(PrayerLogEntry.parseTimestamp(text))
        let again = try PrayerLogEntry(
            date: CivilDate(daysSince1970: 20_000), prayer: .asr, status: .late, recordedAt: parsed)
        // Then no millisecond is lost on the way
        #expect(PrayerLogEntry.milliseconds(entry.recordedAt) == milliseconds)
        #expect(text.hasSuffix(String(format: ".%03dZ", Int((milliseconds % 1000 + 1000) % 1000))), "\(text)")
        #expect(again == entry)
    }

    @Test func aTimeBetweenMillisecondsIsRoundedDown() throws {
        let entry = try PrayerLogEntry(
            date: CivilDate(daysSince1970: 20_000), prayer: .fajr, status: .prayed,
            recordedAt: Date(timeIntervalSince1970: 1.2349))
        #expect(PrayerLogEntry.timestamp(entry.recordedAt) == "1970-01-01T00:00:01.234Z")
        #expect(PrayerLogEntry.timestamp(Date(timeIntervalSince1970: -0.0004)) == "1969-12-31T23:59:59.999Z")
    }
}
