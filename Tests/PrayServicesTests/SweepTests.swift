import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

/// Every latitude from pole to pole (1° steps) across the year, every method: each time is either a
/// real instant in order or explicitly unavailable — never NaN, never a crash.
///
/// Each method and latitude gets a 31-day stretch of 2024–2025, and consecutive latitudes get
/// consecutive stretches (with a seeded random start), so for every method each day of the year is
/// checked at fifteen latitudes spread from pole to pole, and each latitude in every season across
/// the methods — a twelfth of the full grid, in a few seconds. `PRAYKIT_FULL_SWEEP=1` checks
/// every day at every latitude (about a minute of CPU in a debug build); `PRAYKIT_TEST_SEED` moves
/// the stretches.
@Suite struct SweepTests {
    /// The main sequence of a prayer day and the night's, each non-decreasing.
    static let sequences: [[Prayer]] = [
        [.imsak, .fajr, .sunrise, .dhuhr, .asr, .sunset, .maghrib, .isha],
        [.sunset, .firstThird, .midnight, .lastThird],
    ]

    /// Days per latitude: a stretch, or the whole leap year.
    static let days = ProcessInfo.processInfo.environment["PRAYKIT_FULL_SWEEP"] == "1" ? 366 : 31

    @Test(arguments: CalculationMethod.allCases)
    func everyLatitudeAcrossTheYear(_ method: CalculationMethod) async throws {
        // Given
        let seed = SeededGenerator.seed(default: 1_446) &+ UInt64(CalculationMethod.allCases.firstIndex(of: method)!)
        // When: computed on a thread of its own (it is long in a debug build)
        let (failures, checked, unavailable) = try await TestThread.run { try Self.sweep(method, seed: seed) }
        // Then
        #expect(failures.count == 0, "seed \(seed): \(failures.prefix(20))")
        #expect(checked > 0)
        print("\(method): \(checked) times, \(unavailable) unavailable")
    }

    /// Every latitude for `method`, each over its stretch of days: the failures, and how many times
    /// were checked and unavailable.
    static func sweep(_ method: CalculationMethod, seed: UInt64) throws -> (
        failures: [String], checked: Int, unavailable: Int
    ) {
        let service = PrayerServiceAstronomical(log: .silent)
        let start = try CivilDate(parsing: "2024-01-01")
        var random = SeededGenerator(seed: seed)
        let offset = Int.random(in: 0..<366, using: &random)
        var parameters = CalculationParameters(method: method)
        if method == .custom {
            parameters.fajrAngle = 18
            parameters.ishaAngle = 17
        }
        var failures: [String] = []
        var unavailable = 0
        var checked = 0
        for (index, latitude) in stride(from: -90.0, through: 90.0, by: 1.0).enumerated() {
            let first = days == 366 ? 0 : (offset + index * days + Int.random(in: 0..<days, using: &random)) % 366
            let request = PrayerAPI.Request(
                coordinates: try Coordinates(latitude: latitude, longitude: 13.4), timeZone: .gmt,
                date: start.adding(days: first), days: days, parameters: parameters
            )
            let schedules = try service.schedules(for: request)
            if schedules.count != days { failures.append("\(method) \(latitude)°: \(schedules.count) days") }
            for schedule in schedules {
                let result = check(schedule, latitude: latitude)
                checked += result.checked
                unavailable += result.unavailable
                failures += result.failures.map { "\(method) \(latitude)° \(schedule.date) \($0)" }
            }
        }
        return (failures, checked, unavailable)
    }

    /// One day's checks (the place is described only when something fails).
    static func check(_ schedule: PrayerSchedule, latitude: Double) -> (
        failures: [String], checked: Int, unavailable: Int
    ) {
        var failures: [String] = []
        var dates = [Date?](repeating: nil, count: Prayer.allCases.count)
        var unavailable = 0
        for prayer in Prayer.allCases {
            if let time = schedule[prayer] {
                dates[prayer.ordinal] = time.date
                if !time.date.timeIntervalSince1970.isFinite { failures.append("\(prayer): not finite") }
            } else {
                unavailable += 1
                if schedule.unavailability(of: prayer) == nil { failures.append("\(prayer): no reason") }
            }
        }
        for sequence in sequences {
            let times = sequence.compactMap { dates[$0.ordinal] }
            if times != times.sorted() { failures.append("\(sequence) out of order") }
        }
        // A day's transit is on its own civil day (UTC here).
        if let dhuhr = dates[Prayer.dhuhr.ordinal], abs(latitude) != 90 {
            let days = Int((dhuhr.timeIntervalSince1970 / 86400).rounded(.down))
            if days != schedule.date.daysSince1970 { failures.append("dhuhr on another day") }
        }
        return (failures, Prayer.allCases.count - unavailable, unavailable)
    }
}
