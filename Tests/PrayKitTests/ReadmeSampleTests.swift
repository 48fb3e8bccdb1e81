import Foundation
import PrayCore
import PrayKit
import Testing

/// The README's code samples, verbatim, so they keep compiling and working.
@Suite struct ReadmeSampleTests {
    @Test func quickStartSample() async throws {
        TestContainer.configured
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
            timeZone: TimeZone(identifier: "Asia/Riyadh")!,
            date: try CivilDate(parsing: "2026-11-29"),
            days: 30,
            parameters: CalculationParameters(method: .ummAlQura)
        )
        let days = try await PrayDependency().prayerManager().days(for: request)
        print(days[0].today[.fajr]?.date as Any, days[0].next(at: Date())?.prayer as Any)

        #expect(days.count == 30)
        #expect(days[0].today[.fajr] != nil)
    }
}
