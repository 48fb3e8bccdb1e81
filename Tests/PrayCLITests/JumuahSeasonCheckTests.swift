import Foundation
import PrayCore
import PrayServices
import Testing

@testable import PrayCLI

/// Jumu'ah saved as fixed times, checked against a year of London's dhuhr and asr.
@Suite struct JumuahSeasonCheckTests {
    static func londonYear() throws -> [PrayerSchedule] {
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 51.5085, longitude: -0.1257),
            timeZone: try #require(TimeZoneName("Europe/London")).timeZone, date: try CivilDate(parsing: "2026-12-06"),
            days: 366, parameters: CalculationParameters(method: .muslimWorldLeague))
        return try PrayerServiceAstronomical(log: .silent).schedules(for: request)
    }

    @Test func timesThatLeaveDhuhrsTimeSomeFridaysAreNamedWithTheFirst() throws {
        // Given: London's year from December; a time that holds all year, one past winter's asr, one
        // before summer's dhuhr
        let schedules = try Self.londonYear()
        // When
        let findings = JumuahSeasonCheck.findings([13 * 60 + 15, 14 * 60 + 20, 12 * 60 + 30], in: schedules)
        // Then: 13:15 is within dhuhr's time every Friday; the others are named with their first Friday
        #expect(findings.map(\.time) == [14 * 60 + 20, 12 * 60 + 30])
        let late = try #require(findings.first)
        #expect(late.afterAsr > 0 && late.beforeDhuhr == 0 && late.firstAfterAsr?.date.isoWeekday == 5)
        #expect(late.firstAfterAsr?.date.month == 12)
        let early = try #require(findings.last)
        #expect(
            early.beforeDhuhr > 0 && early.afterAsr == 0
                && early.firstBeforeDhuhr.map { (4...9).contains($0.date.month) } == true)
        let text = JumuahSeasonCheck.warning(findings)
        #expect(text.contains("Warning: Jumu'ah at 14:20 is at or after asr on"))
        #expect(text.contains("Warning: Jumu'ah at 12:30 is before dhuhr on"))
        #expect(JumuahSeasonCheck.warning(JumuahSeasonCheck.findings([13 * 60 + 15], in: schedules)).isEmpty)
    }
}
