import Foundation
import PrayCore
import PrayKit
import PrayMocks
import Testing

/// A small "app" the way an app would use the container: it only knows `PrayKitDependency`.
struct NextPrayerModel {
    let dependency: any PrayKitDependency

    func nextPrayer(after now: Date, request: PrayerAPI.Request) async throws -> PrayerTime? {
        try await dependency.prayerManager().day(for: request).next(at: now)
    }
}

@Suite(.tags(.concurrency)) struct PrayDependencyTests {
    let request = PrayerAPI.Request(
        coordinates: .mockMakkah, timeZone: TimeZone(identifier: "Asia/Riyadh")!, date: .mockDate,
        parameters: CalculationParameters(method: .ummAlQura)
    )

    @Test func theRealContainerCalculates() async throws {
        // Given
        TestContainer.configured
        let model = NextPrayerModel(dependency: PrayDependency())
        // 2026-11-29 13:00 in Riyadh (10:00 UTC)
        let now = Date(timeIntervalSince1970: Double(CivilDate.mockDate.daysSince1970) * 86400 + 10 * 3600)
        // When
        let next = try await model.nextPrayer(after: now, request: request)
        // Then Asr, at 15:16 Riyadh time
        #expect(next?.prayer == .asr)
        #expect(next.map { abs($0.date.timeIntervalSince(now) - (2 * 3600 + 16 * 60)) <= 60 } == true)
    }

    @Test func theContainerSharesItsServices() throws {
        TestContainer.configured
        // Every handle gives the same log destination instance, configured once…
        let first = try #require(PrayDependency().logServices().first as? LogServiceMemory)
        let second = try #require(PrayDependency().logServices().first as? LogServiceMemory)
        #expect(first === second && first === TestContainer.log)
        // …and what one handle's logger writes, another's destination holds.
        let marker = "shared-\(UUID().uuidString)"
        PrayDependency().log().warning("Container sharing probe", metadata: ["test.marker": marker])
        #expect(second.events.contains { $0.metadata["test.marker"] == marker })
        // The managers are built over the container's own services: the calculator and the service agree.
        let calculated = try PrayDependency().prayerCalculator().schedules(for: request)
        #expect(calculated[0][.fajr]?.date != nil)
    }

    @Test func theDatabaseClosesAndOpensAgainOnNextUse() throws {
        TestContainer.configured
        let marker = "Closed \(UUID().uuidString.prefix(8))"
        try PrayDependency().preferences().update { try $0.set(marker, for: .placeName) }
        PrayDependency.closeDatabase()
        #expect(try PrayDependency().preferences().preferences()[.placeName] == marker)
    }

    @Test func aMockContainerSwapsTheService() async throws {
        // Given
        var dependency = PrayDependencyMock()
        let service = PrayerServiceMock()
        service.onPrayerTimes { request in
            PrayerAPI.Response(schedules: request.dates.map { PrayerSchedule.mock(date: $0) }, source: .calculated)
        }
        dependency.prayers = service
        let model = NextPrayerModel(dependency: dependency)
        let now = Date(timeIntervalSince1970: Double(CivilDate.mockDate.daysSince1970) * 86400 + 13 * 3600)
        // When
        let next = try await model.nextPrayer(after: now, request: request)
        // Then the mock's 15:30 Asr, and the mock saw the widened request
        #expect(next?.prayer == .asr)
        #expect(service.prayerTimesCalls.first?.date == CivilDate.mockDate.adding(days: -1))
    }
}
