import Foundation
import PrayCore
import Testing

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

    @Test func tablesBeyondADayAreRefusedByTheParametersCheck() throws {
        // The public tables take any Int; the check refuses what the calculation cannot add up.
        var parameters = CalculationParameters(method: .muslimWorldLeague)
        parameters.methodAdjustments[.dhuhr] = Int.max
        parameters.adjustments[.dhuhr] = 1
        #expect(throws: ValidationError.self) { try parameters.validate() }
        _ = parameters.totalAdjustments  // wraps, never traps
        parameters = CalculationParameters(method: .muslimWorldLeague)
        parameters.adjustments[.isha] = -1441
        #expect(throws: ValidationError.self) { try parameters.validate() }
        parameters.adjustments[.isha] = 1440
        try parameters.validate()
        parameters.ramadanIshaInterval = Int.max
        #expect(throws: ValidationError.self) { try parameters.validate() }
    }

    @Test func addsTables() {
        let total = PrayerAdjustments([.dhuhr: 1]) + PrayerAdjustments([.dhuhr: 2, .asr: -1])
        #expect(total[.dhuhr] == 3 && total[.asr] == -1)
    }
}
