import Foundation
import PrayCore
import PrayServices
import Testing

/// Official timetables collected by the Adhan project (MIT): every listed time within the file's
/// `variance` minutes (1 where it gives none), with the file's method, madhab and high-latitude rule.
@Suite struct AdhanFixtureTests {
    struct Fixture: Decodable {
        struct Params: Decodable {
            let latitude: Double
            let longitude: Double
            let timezone: String
            let method: String
            let madhab: String?
            let highLatitudeRule: String?
        }
        let params: Params
        let variance: Int?
        let times: [[String: String]]
    }

    static let files = (try? Fixtures.files(in: "adhan").map(\.lastPathComponent)) ?? []

    /// Days on which a table's clock times assume an offset the zone database does not have.
    /// Morocco's 2020 table moves the clocks back to UTC+1 on Eid (May 24); the government moved them
    /// on May 31 (tzdata 2020a: "Morocco springs forward on 2020-05-31, not 2020-05-24"). The
    /// table's instants are right at UTC+1, so those days are read at UTC+1.
    static let clockOverrides: [String: (ClosedRange<String>, TimeZone)] = [
        "Casablanca-Morocco.json": ("2020-05-24"..."2020-05-30", TimeZone(secondsFromGMT: 3600)!)
    ]

    @Test(arguments: files)
    func officialTimetable(_ file: String) async throws {
        // Given
        let fixture = try JSONDecoder().decode(Fixture.self, from: Fixtures.data("adhan/\(file)"))
        let zone = try #require(TimeZone(identifier: fixture.params.timezone))
        let parameters = try Self.parameters(fixture.params)
        let coordinates = try Coordinates(latitude: fixture.params.latitude, longitude: fixture.params.longitude)
        let variance = Double(fixture.variance ?? 1) * 60
        let service = PrayerServiceAstronomical(log: .silent)
        var worst = 0.0
        var compared = 0
        for row in fixture.times {
            let date = try CivilDate(parsing: try #require(row["date"]))
            // When
            let request = PrayerAPI.Request(
                coordinates: coordinates, timeZone: zone, date: date, parameters: parameters)
            let schedule = try #require(try service.schedules(for: request).first)
            // Then
            let override = Self.clockOverrides[file].flatMap { $0.0.contains(date.description) ? $0.1 : nil }
            for prayer in [Prayer.fajr, .sunrise, .dhuhr, .asr, .maghrib, .isha] {
                let expected = try Self.instant(try #require(row[prayer.rawValue]), on: date, in: override ?? zone)
                let computed = try #require(schedule[prayer], "\(file) \(date) \(prayer) unavailable")
                let difference = computed.date.timeIntervalSince(expected)
                worst = max(worst, abs(difference))
                compared += 1
                #expect(abs(difference) <= variance, "\(file) \(date) \(prayer): off by \(Int(difference)) s")
            }
        }
        print("\(file): \(compared) times, worst \(Int(worst)) s, allowed \(Int(variance)) s")
    }

    static func parameters(_ params: Fixture.Params) throws -> CalculationParameters {
        let names: [String: CalculationMethod] = [
            "MuslimWorldLeague": .muslimWorldLeague, "Egyptian": .egyptian, "Karachi": .karachi,
            "UmmAlQura": .ummAlQura, "Dubai": .dubai, "MoonsightingCommittee": .moonsightingCommittee,
            "NorthAmerica": .northAmerica, "Kuwait": .kuwait, "Qatar": .qatar, "Singapore": .singapore,
            "Tehran": .tehran, "Turkey": .turkey, "Morocco": .morocco,
        ]
        var parameters = CalculationParameters(method: try #require(names[params.method]))
        if params.madhab == "Hanafi" { parameters.madhab = .hanafi }
        switch params.highLatitudeRule {
        case "SeventhOfTheNight": parameters.highLatitudeRule = .seventhOfTheNight
        case "TwilightAngle": parameters.highLatitudeRule = .twilightAngle
        case "MiddleOfTheNight": parameters.highLatitudeRule = .middleOfTheNight
        default: break
        }
        return parameters
    }

    /// "5:42 AM" on `date` in `zone`.
    static func instant(_ text: String, on date: CivilDate, in zone: TimeZone) throws -> Date {
        let parts = text.split(separator: " ")
        let clock = try #require(parts.first).split(separator: ":").compactMap { Int($0) }
        var hour = clock[0] % 12
        if parts.last == "PM" { hour += 12 }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: date.year, month: date.month, day: date.day, hour: hour, minute: clock[1])
        return try #require(calendar.date(from: components))
    }
}
