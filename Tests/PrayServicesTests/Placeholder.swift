import Foundation
import Testing
import PrayCore
@testable import PrayServices

@Test func scratch() throws {
    let service = PrayerServiceAstronomical(log: .silent)
    var p = CalculationParameters(method: .ummAlQura)
    p.rounding = .none
    let request = PrayerAPI.Request(
        coordinates: try Coordinates(latitude: 21.4225, longitude: 39.8262),
        timeZone: TimeZone(identifier: "Asia/Riyadh")!, date: try CivilDate(parsing: "2026-11-29"), days: 2,
        parameters: p)
    let f = ISO8601DateFormatter(); f.timeZone = request.timeZone
    for s in try service.schedules(for: request) {
        for t in s.times { print(s.date, t.prayer, f.string(from: t.date), t.derivation) }
    }
}
@Test func scratchBundle() throws {
    print("RES", Bundle.module.resourceURL as Any, Bundle.module.bundleURL)
    print(try Fixtures.files(in: "adhan"))
}
