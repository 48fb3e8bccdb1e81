import Foundation
import PrayCore
import Testing

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
