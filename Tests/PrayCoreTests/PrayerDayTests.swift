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

@Suite struct PrayerManagerTests {
    @Test func asksForOneMoreDayAtEachEnd() async throws {
        // Given
        let service = PrayerServiceMock()
        service.onPrayerTimes { request in
            PrayerAPI.Response(schedules: request.dates.map { PrayerSchedule.mock(date: $0) }, source: .calculated)
        }
        let manager = PrayerManager(service: service, log: .silent)
        let request = PrayerAPI.Request(
            coordinates: .mockMakkah, timeZone: .gmt, date: .mockDate, days: 3,
            parameters: CalculationParameters(method: .ummAlQura)
        )
        // When
        let days = try await manager.days(for: request)
        // Then
        #expect(days.map(\.date) == request.dates)
        #expect(days[0].yesterday.date == CivilDate.mockDate.adding(days: -1))
        #expect(days[2].tomorrow.date == CivilDate.mockDate.adding(days: 3))
        #expect(service.prayerTimesCalls.map(\.days) == [5])
    }

    @Test func aServiceThatMiscountsIsAnError() async {
        let service = PrayerServiceMock()
        service.onPrayerTimes { _ in PrayerAPI.Response(schedules: [.mock()], source: .calculated) }
        let manager = PrayerManager(service: service, log: .silent)
        let request = PrayerAPI.Request(
            coordinates: .mockMakkah, timeZone: .gmt, date: .mockDate, parameters: .custom())
        await #expect(throws: PrayError.self) { try await manager.day(for: request) }
    }

    @Test func anUnconfiguredMockFailsLoudly() async {
        let manager = PrayerManager(service: PrayerServiceMock(), log: .silent)
        let request = PrayerAPI.Request(
            coordinates: .mockMakkah, timeZone: .gmt, date: .mockDate, parameters: .custom())
        await withKnownIssue("the mock records an issue for the unset call") {
            await #expect(throws: MockError.self) { try await manager.day(for: request) }
        }
    }
}

@Suite struct LogManagerTests {
    @Test func recordsOnlyAtOrAboveTheMinimumLevel() {
        let memory = LogServiceMemory()
        let log = LogManager(services: [memory], minLevel: .notice, now: { Date(timeIntervalSince1970: 0) })
        log.info("not recorded")
        log.notice("recorded", metadata: ["prayer.days": "3"])
        #expect(memory.events.map(\.message) == ["recorded"])
        #expect(memory.events.first?.metadata["prayer.days"] == "3")
        #expect(memory.events.first?.timestamp == Date(timeIntervalSince1970: 0))
    }

    @Test func buildsNothingWhenTheLevelIsOff() {
        let memory = LogServiceMemory()
        let log = LogManager(services: [memory], minLevel: .error)
        var built = false
        func message() -> String {
            built = true
            return "expensive"
        }
        log.debug(message())
        #expect(!built)
        #expect(memory.events.isEmpty)
    }
}
