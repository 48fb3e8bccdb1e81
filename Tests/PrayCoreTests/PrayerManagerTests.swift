import Foundation
import PrayCore
import PrayMocks
import Testing

@Suite(.tags(.concurrency)) struct PrayerManagerTests {
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

    @Test func theFirstAndLastDaysAreRefusedNotATrap() async throws {
        // 0001-01-01 has no day before it, 9999-12-31 none after: a prayer day needs both (the day
        // before was made by a trapping step). Refused before the service is asked.
        let service = PrayerServiceMock()
        let manager = PrayerManager(service: service, log: .silent)
        for date in [CivilDate.first, CivilDate.last] {
            let request = PrayerAPI.Request(
                coordinates: .mockMakkah, timeZone: .gmt, date: date, parameters: .custom())
            await #expect {
                try await manager.day(for: request)
            } throws: { error in
                (error as? PrayError)?.kind == .unsupportedDate
            }
        }
        #expect(service.prayerTimesCalls.isEmpty)
        // A neighbouring day the service refuses is named as the request's need, not as asked for.
        service.onPrayerTimes { _ in
            throw PrayError(.unsupportedDate, message: "prayer times are calculated for the years 1000–3000")
        }
        let edge = PrayerAPI.Request(
            coordinates: .mockMakkah, timeZone: .gmt, date: try CivilDate(parsing: "1000-01-01"),
            parameters: .custom())
        await #expect {
            try await manager.day(for: edge)
        } throws: { error in
            "\(error)".contains("the prayer days of 1000-01-01…1000-01-01 need the days before and after them")
        }
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
