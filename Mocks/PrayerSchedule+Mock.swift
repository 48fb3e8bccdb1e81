import Foundation
import PrayCore

extension PrayerSchedule {
    /// A plausible schedule for tests: fixed clock times (fajr 05:00 … isha 19:30) on `date` in
    /// `timeZone`, every time available unless listed in `unavailable`.
    /// - Parameters:
    ///   - date: The civil day; 2026-11-29 by default.
    ///   - timeZone: The zone; UTC by default.
    ///   - coordinates: The place; Makkah by default.
    ///   - clock: Clock times (`"HH:mm"`) replacing the defaults for some prayers.
    ///   - unavailable: Prayers to leave without a time.
    public static func mock(
        date: CivilDate = .mockDate, timeZone: TimeZone = .gmt, coordinates: Coordinates = .mockMakkah,
        clock: [Prayer: String] = [:], unavailable: Set<Prayer> = []
    ) -> PrayerSchedule {
        let defaults: [Prayer: String] = [
            .imsak: "04:50", .fajr: "05:00", .sunrise: "06:30", .dhuhr: "12:00", .asr: "15:30", .sunset: "18:00",
            .maghrib: "18:00", .isha: "19:30", .firstThird: "22:00", .midnight: "24:00", .lastThird: "26:00",
        ]
        let clock = defaults.merging(clock) { $1 }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let midnight = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day)) ?? Date()
        let times = Prayer.allCases.filter { !unavailable.contains($0) }.map { prayer in
            let parts = (clock[prayer] ?? "00:00").split(separator: ":").compactMap { Int($0) }
            let seconds = Double((parts.first ?? 0) * 3600 + (parts.dropFirst().first ?? 0) * 60)
            return PrayerTime(prayer: prayer, date: midnight.addingTimeInterval(seconds), derivation: .transit)
        }
        let reasons = Dictionary(
            uniqueKeysWithValues: unavailable.map { ($0, PrayerTime.Unavailability.sunDoesNotReach(altitude: -18)) })
        return PrayerSchedule(
            date: date, timeZone: timeZone, coordinates: coordinates, times: times, unavailable: reasons
        )
    }
}
