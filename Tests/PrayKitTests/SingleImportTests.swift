import Foundation
import PrayKit
import Testing

/// `import PrayKit` alone brings the core types an app codes against.
@Suite struct SingleImportTests {
    @Test func theCoreTypesComeWithPrayKit() async throws {
        TestContainer.configured
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
            timeZone: try TimeZoneName(parsing: "Asia/Riyadh").timeZone, date: try CivilDate(parsing: "2026-11-29"),
            parameters: CalculationParameters(method: .ummAlQura))
        let day = try await PrayDependency().prayerManager().day(for: request)
        #expect(day.today[.fajr] != nil)
    }
}
