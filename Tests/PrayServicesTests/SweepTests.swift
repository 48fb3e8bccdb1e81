import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

/// Every latitude from pole to pole (1° steps), every day of a leap year, every method: each time is
/// either a real instant in order or explicitly unavailable — never NaN, never a crash.
@Suite struct SweepTests {
    /// The main sequence of a prayer day and the night's, each non-decreasing.
    static let sequences: [[Prayer]] = [
        [.imsak, .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha],
        [.sunset, .firstThird, .midnight, .lastThird],
    ]

    @Test(arguments: CalculationMethod.allCases)
    func everyLatitudeEveryDay(_ method: CalculationMethod) async throws {
        // When: computed on a thread of its own (it is long in a debug build)
        let (failures, checked, unavailable) = try await TestThread.run { try Self.sweep(method) }
        // Then
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(20))")
        #expect(checked > 0)
        print("\(method): \(checked) times, \(unavailable) unavailable")
    }

    /// Every latitude and day of 2024 for `method`: the failures, and how many times were checked
    /// and unavailable.
    static func sweep(_ method: CalculationMethod) throws -> (failures: [String], checked: Int, unavailable: Int) {
        let service = PrayerServiceAstronomical(log: .silent)
        let start = try CivilDate(parsing: "2024-01-01")
        var parameters = CalculationParameters(method: method)
        if method == .custom {
            parameters.fajrAngle = 18
            parameters.ishaAngle = 17
        }
        var failures: [String] = []
        var unavailable = 0
        var checked = 0
        for latitude in stride(from: -90.0, through: 90.0, by: 1.0) {
            let request = PrayerAPI.Request(
                coordinates: try Coordinates(latitude: latitude, longitude: 13.4), timeZone: .gmt,
                date: start, days: 366, parameters: parameters
            )
            let schedules = try service.schedules(for: request)
            if schedules.count != 366 { failures.append("\(method) \(latitude)°: \(schedules.count) days") }
            for schedule in schedules {
                let place = "\(method) \(latitude)° \(schedule.date)"
                for prayer in Prayer.allCases {
                    if let time = schedule[prayer] {
                        checked += 1
                        if !time.date.timeIntervalSince1970.isFinite {
                            failures.append("\(place) \(prayer): not finite")
                        }
                    } else {
                        unavailable += 1
                        if schedule.unavailability(of: prayer) == nil {
                            failures.append("\(place) \(prayer): no reason")
                        }
                    }
                }
                for sequence in sequences {
                    let times = sequence.compactMap { schedule[$0]?.date }
                    if times != times.sorted() { failures.append("\(place): \(sequence) out of order") }
                }
                // A day's transit is on its own civil day (UTC here).
                if let dhuhr = schedule[.dhuhr]?.date, abs(latitude) != 90 {
                    let days = Int((dhuhr.timeIntervalSince1970 / 86400).rounded(.down))
                    if days != schedule.date.daysSince1970 { failures.append("\(place): dhuhr on another day") }
                }
            }
        }
        return (failures, checked, unavailable)
    }
}
