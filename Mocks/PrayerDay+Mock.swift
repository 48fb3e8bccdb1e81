import Foundation
import PrayCore

extension PrayerDay {
    /// Three consecutive ``PrayerSchedule/mock(date:timeZone:coordinates:clock:unavailable:)`` days
    /// around `date`.
    public static func mock(
        date: CivilDate = .mockDate, timeZone: TimeZone = .gmt, coordinates: Coordinates = .mockMakkah
    ) -> PrayerDay {
        PrayerDay(
            yesterday: .mock(date: date.adding(days: -1), timeZone: timeZone, coordinates: coordinates),
            today: .mock(date: date, timeZone: timeZone, coordinates: coordinates),
            tomorrow: .mock(date: date.adding(days: 1), timeZone: timeZone, coordinates: coordinates)
        )
    }
}
