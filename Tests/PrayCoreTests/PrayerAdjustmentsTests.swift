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

    @Test func addsTables() {
        let total = PrayerAdjustments([.dhuhr: 1]) + PrayerAdjustments([.dhuhr: 2, .asr: -1])
        #expect(total[.dhuhr] == 3 && total[.asr] == -1)
    }
}
