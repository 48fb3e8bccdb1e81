import Foundation
import PrayCore
import PrayMocks
import PrayServices
import Testing

/// Properties of every prayer day, checked on seeded random cases: places anywhere (latitude
/// −89…89, any longitude, sea level to 3000 m), days 1900–2100, every method with random madhab,
/// high-latitude rule and polar resolution, and the place's zone (a named zone near its longitude, so
/// daylight saving and historical local mean time included, or a whole-hour offset).
///
/// Each day's times are real instants in their order, or explicitly unavailable — never NaN — and
/// `PrayerDay.current(at:)` and `next(at:)` agree with the list of the three days' times for random
/// instants of the day (and at the times themselves). `PRAYKIT_TEST_SEED` draws other cases.
@Suite struct PrayerPropertyTests {
    /// Cases per method.
    static let cases = 60
    /// Instants checked per case.
    static let instants = 24

    /// Named zones and their offset from UTC in January 2024, seconds.
    static let zones: [(identifier: String, offset: Int)] = {
        let january = Date(timeIntervalSince1970: 1_705_300_000)
        return TimeZone.knownTimeZoneIdentifiers.compactMap { identifier in
            TimeZone(identifier: identifier).map { (identifier, $0.secondsFromGMT(for: january)) }
        }
    }()

    @Test(arguments: CalculationMethod.allCases)
    func timesAreOrderedAndNextAndCurrentAgree(_ method: CalculationMethod) async throws {
        // Given
        let seed =
            SeededGenerator.seed(default: 0x0050_5241_5945)
            &+ UInt64(CalculationMethod.allCases.firstIndex(of: method)!)
        // When: random cases computed and checked on a thread of their own
        let failures = try await TestThread.run { try Self.check(method, seed: seed) }
        // Then
        #expect(failures.count == 0, "seed \(seed): \(failures.prefix(10))")
    }

    /// One random case of `method`: the request and a description for failures.
    static func randomCase(
        _ method: CalculationMethod, using random: inout SeededGenerator
    ) throws -> (request: PrayerAPI.Request, label: String) {
        let latitude = Double.random(in: -89...89, using: &random)
        let longitude = Double.random(in: -180...180, using: &random)
        let elevation = Bool.random(using: &random) ? 0 : Double.random(in: 0...3000, using: &random)
        let first = try CivilDate(parsing: "1900-01-01").daysSince1970
        let last = try CivilDate(parsing: "2100-12-31").daysSince1970
        let date = CivilDate(daysSince1970: Int.random(in: first...last, using: &random))
        let solar = Int((longitude / 15).rounded()) * 3600
        let near = zones.filter { abs($0.offset - solar) <= 5400 }
        let zone: TimeZone
        if Bool.random(using: &random), let named = near.randomElement(using: &random) {
            zone = TimeZone(identifier: named.identifier)!
        } else {
            zone = TimeZone(secondsFromGMT: max(-12 * 3600, min(14 * 3600, solar)))!
        }
        var parameters = CalculationParameters(method: method)
        if method == .custom {
            parameters.fajrAngle = Double.random(in: 10...20, using: &random)
            parameters.ishaAngle = Double.random(in: 10...20, using: &random)
        }
        parameters.madhab = Madhab.allCases.randomElement(using: &random)!
        parameters.highLatitudeRule = HighLatitudeRule.allCases.randomElement(using: &random)!
        parameters.polarResolution = PolarResolution.allCases.randomElement(using: &random)!
        let request = PrayerAPI.Request(
            coordinates: try Coordinates(latitude: latitude, longitude: longitude, elevation: elevation),
            timeZone: zone, date: date.adding(days: -1), days: 3, parameters: parameters
        )
        let label =
            "\(method) \(date) at \(latitude), \(longitude), \(elevation) m in \(zone.identifier), "
            + "shadow \(parameters.asrShadowFactor), \(parameters.highLatitudeRule), \(parameters.polarResolution)"
        return (request, label)
    }

    /// The failures of `cases` random cases of `method`.
    static func check(_ method: CalculationMethod, seed: UInt64) throws -> [String] {
        var random = SeededGenerator(seed: seed)
        let service = PrayerServiceAstronomical(log: .silent)
        var failures: [String] = []
        for _ in 0..<cases {
            let (request, label) = try randomCase(method, using: &random)
            let schedules = try service.schedules(for: request)
            guard schedules.count == 3 else {
                failures.append("\(label): \(schedules.count) days")
                continue
            }
            // Each day: times in order or explicitly unavailable, never NaN; dhuhr on its own day.
            for schedule in schedules {
                failures += problems(in: schedule).map { "\(label), \(schedule.date): \($0)" }
            }
            // The day in the middle, as PrayerManager builds it.
            let day = PrayerDay(yesterday: schedules[0], today: schedules[1], tomorrow: schedules[2])
            failures += try disagreements(day, using: &random).map { "\(label): \($0)" }
        }
        return failures
    }

    /// What is wrong with one day's times.
    static func problems(in schedule: PrayerSchedule) -> [String] {
        var problems: [String] = []
        for prayer in Prayer.allCases {
            if let time = schedule[prayer] {
                if !time.date.timeIntervalSince1970.isFinite { problems.append("\(prayer) is not finite") }
            } else if schedule.unavailability(of: prayer) == nil {
                problems.append("\(prayer) is missing without a reason")
            }
        }
        for sequence in SweepTests.sequences {
            let times = sequence.compactMap { schedule[$0]?.date }
            if times != times.sorted() { problems.append("\(sequence) out of order") }
        }
        if let dhuhr = schedule[.dhuhr]?.date,
            (try? CivilDate(containing: dhuhr, in: schedule.timeZone)) != schedule.date
        {
            problems.append("dhuhr \(dhuhr) is on another day")
        }
        return problems
    }

    /// Where `current(at:)` and `next(at:)` disagree with the list of the three days' times, for
    /// random instants of the day and for the instants of its times.
    static func disagreements(_ day: PrayerDay, using random: inout SeededGenerator) throws -> [String] {
        let list = [day.yesterday, day.today, day.tomorrow].flatMap { schedule in
            Prayer.daily.compactMap { schedule[$0] }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = day.today.timeZone
        let components = DateComponents(year: day.date.year, month: day.date.month, day: day.date.day)
        guard let start = calendar.date(from: components), let end = calendar.date(byAdding: .day, value: 1, to: start)
        else { return ["\(day.date) has no start in its zone"] }
        var instants = (0..<instants).map { _ in
            Date(
                timeIntervalSince1970: Double.random(
                    in: start.timeIntervalSince1970..<end.timeIntervalSince1970, using: &random))
        }
        instants += day.today.times.map(\.date)
        var problems: [String] = []
        for instant in instants {
            let current = day.current(at: instant)
            let next = day.next(at: instant)
            // The current time is one of the list, at or before the instant, with none of the list after
            // it up to the instant; with no current time, none of the list is at or before the instant.
            if let current {
                if !list.contains(current) || current.date > instant
                    || list.contains(where: { $0.date > current.date && $0.date <= instant })
                {
                    problems.append("current at \(instant) is \(current.prayer) \(current.date)")
                }
            } else if list.contains(where: { $0.date <= instant }) {
                problems.append("no current time at \(instant)")
            }
            // The next time is one of the list, after the instant, with none of the list between.
            if let next {
                if !list.contains(next) || next.date <= instant
                    || list.contains(where: { $0.date > instant && $0.date < next.date })
                {
                    problems.append("next at \(instant) is \(next.prayer) \(next.date)")
                }
            } else if list.contains(where: { $0.date > instant }) {
                problems.append("no next time at \(instant)")
            }
        }
        return problems
    }
}
