import Foundation
import PrayCore
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
    func everyLatitudeEveryDay(_ method: CalculationMethod) throws {
        // Given
        let service = PrayerServiceAstronomical(log: .silent)
        let start = try CivilDate(parsing: "2024-01-01")
        var parameters = CalculationParameters(method: method)
        if method == .custom {
            parameters.fajrAngle = 18
            parameters.ishaAngle = 17
        }
        var unavailable = 0
        var checked = 0
        for latitude in stride(from: -90.0, through: 90.0, by: 1.0) {
            let request = PrayerAPI.Request(
                coordinates: try Coordinates(latitude: latitude, longitude: 13.4),
                timeZone: TimeZone(identifier: "UTC")!,
                date: start, days: 366, parameters: parameters
            )
            // When
            let schedules = try service.schedules(for: request)
            // Then
            #expect(schedules.count == 366)
            for schedule in schedules {
                for prayer in Prayer.allCases {
                    if let time = schedule[prayer] {
                        checked += 1
                        let seconds = time.date.timeIntervalSince1970
                        #expect(seconds.isFinite, "\(method) \(latitude) \(schedule.date) \(prayer)")
                    } else {
                        unavailable += 1
                        #expect(schedule.unavailability(of: prayer) != nil)
                    }
                }
                for sequence in Self.sequences {
                    let times = sequence.compactMap { schedule[$0]?.date }
                    #expect(
                        times == times.sorted(), "\(method) \(latitude)° \(schedule.date): \(sequence) out of order")
                }
                // A day's transit is on its own civil day (UTC here).
                if let dhuhr = schedule[.dhuhr]?.date {
                    let days = Int((dhuhr.timeIntervalSince1970 / 86400).rounded(.down))
                    #expect(abs(days - schedule.date.daysSince1970) <= 0 || abs(latitude) == 90)
                }
            }
        }
        #expect(checked > 0)
        print("\(method): \(checked) times, \(unavailable) unavailable")
    }
}
