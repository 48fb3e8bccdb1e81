import Foundation
import PrayCore
import PrayMocks
import Testing

@Suite struct PrayerDayTests {
    let day = PrayerDay.mock()

    func at(_ dayOffset: Int, _ clock: String) -> Date {
        let parts = clock.split(separator: ":").compactMap { Double($0) }
        let midnight = Double(CivilDate.mockDate.adding(days: dayOffset).daysSince1970) * 86400
        return Date(timeIntervalSince1970: midnight + parts[0] * 3600 + parts[1] * 60)
    }

    @Test func currentAndNextWithinTheDay() {
        #expect(day.current(at: at(0, "13:00"))?.prayer == .dhuhr)
        #expect(day.next(at: at(0, "13:00"))?.prayer == .asr)
        #expect(day.current(at: at(0, "12:00"))?.prayer == .dhuhr)  // a time starts at its instant
    }

    @Test func beforeFajrTheCurrentPrayerIsYesterdaysIsha() {
        let current = day.current(at: at(0, "03:00"))
        #expect(current?.prayer == .isha)
        #expect(current?.date == at(-1, "19:30"))
        #expect(day.next(at: at(0, "03:00"))?.prayer == .fajr)
    }

    @Test func afterIshaTheNextPrayerIsTomorrowsFajr() {
        let next = day.next(at: at(0, "22:00"))
        #expect(next?.prayer == .fajr)
        #expect(next?.date == at(1, "05:00"))
    }

    @Test func unavailableTimesAreSkipped() {
        let schedule = PrayerSchedule.mock(unavailable: [.isha])
        let day = PrayerDay(
            yesterday: .mock(date: CivilDate.mockDate.adding(days: -1)), today: schedule,
            tomorrow: .mock(date: CivilDate.mockDate.adding(days: 1)))
        #expect(day.current(at: at(0, "21:00"))?.prayer == .maghrib)
        #expect(schedule.unavailability(of: .isha) != nil)
        #expect(!schedule.times.contains { $0.prayer == .isha })
    }
}
